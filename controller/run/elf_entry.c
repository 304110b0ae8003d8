#include "run/elf_entry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "measure/measure_run.h"
#include "run/measure_figures.h"
#include "run/run_measure.h"

static void not_run(br_bench_record_t *out, const char *why)
{
	out->status = BR_BENCH_NOT_RUN;
	snprintf(out->reason, sizeof(out->reason), "%s", why);
}

/* The measurement's figures into the bench record. */
static void keep(const br_measure_raw_t *raw, const br_measure_report_t *r, uint32_t warmup,
                 br_bench_record_t *out)
{
	out->status = BR_BENCH_MEASURED;
	out->n = r->measured;
	out->warmup = warmup;
	out->summary = r->raw_summary;
	out->samples = xcalloc(raw->count == 0 ? 1U : raw->count, sizeof(out->samples[0]));
	for (size_t i = 0; i < raw->count; i++)
		out->samples[i] = raw->ticks[i];
	out->stack_measured = r->stack_reported && r->stack_measured > 0 && r->stack_missing == 0;
	out->stack_bytes = out->stack_measured ? (uint32_t)r->stack.max : 0U;
	out->heap_known = false;
	/* No net figure where the calibration is not known to apply. */
	out->calibrated = r->calibrated && r->net_known;
	out->calibration_median = r->calibration.median;
	snprintf(out->calibration_method, sizeof(out->calibration_method), "%s",
	         br_calibration_method_text(raw->calibration.method));
	out->wall_seconds = raw->wall_seconds;
}

br_status_t br_elf_entry_measure(const br_elf_entry_options_t *o, br_bench_record_t *out,
                                 br_error_t *err)
{
	const br_board_t *board = o->board;
	const br_run_settings_t *s = o->settings;
	const br_suite_bench_t *sb = o->entry->bench;
	br_measure_options_t m;
	br_measure_options_default(&m);
	m.elf_path = o->elf_path != NULL ? o->elf_path : sb->elf_path;
	m.from = sb->from.value;
	m.to = sb->to.value;
	m.function = sb->function.value;
	m.iterations = o->entry->iterations.value;
	m.warmup = o->entry->warmup.value;
	m.counter = &o->plan->counter;
	m.stack = o->plan->stack_watermark;
	br_stack_region_t region;
	if (board->file.stack.head.set) {
		region.low = board->stack_origin;
		region.size = board->stack_length;
		snprintf(region.source, sizeof(region.source), "board %s", board->name);
		m.stack_region = &region;
	}
	m.breakpoint_kind = BR_BREAKPOINT_AUTO;
	if (o->entry->timeout_ms.value > 0)
		m.timeout_ms = (int)o->entry->timeout_ms.value;
	m.link.output = s->firmware_output;
	m.link.output_ctx = s->firmware_output_ctx;

	br_endpoint_t ep;
	br_status_t st = br_run_settings_endpoint(s, board, m.elf_path, &ep, err);
	if (st != BR_OK)
		return st;
	if (s->lock != NULL) {
		st = s->lock(s->lock_ctx, &ep, true, err);
		if (st != BR_OK)
			return st;
	}
	br_measure_raw_t raw;
	memset(&raw, 0, sizeof(raw));
	br_image_hooks_t hooks = {.progress = s->load_progress,
	                          .progress_ctx = s->load_progress_ctx,
	                          .loaded = s->load_done,
	                          .loaded_ctx = s->load_done_ctx};
	st = br_run_measure(&m, &ep, o->plan->load, true, &hooks, &raw, err);
	if (s->lock != NULL)
		(void)s->lock(s->lock_ctx, &ep, false, NULL);
	if (st == BR_OK) {
		br_measure_report_t r;
		memset(&r, 0, sizeof(r));
		r.elf_path = m.elf_path;
		r.raw = &raw;
		st = br_measure_report_summarize(&r, err);
		if (st == BR_OK && (r.not_measured > 0 || r.measured == 0)) {
			char why[BR_MEASURE_WHY_TEXT];
			br_measure_report_why(&r, why, sizeof(why));
			not_run(out, why);
		} else if (st == BR_OK) {
			keep(&raw, &r, m.warmup, out);
		}
	}
	br_measure_raw_free(&raw);
	return st;
}
