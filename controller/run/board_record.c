/*
 * The record step of one board's run (board_run_private.h): the run record's
 * header from the plan, each bench kept as it finishes, and the record on
 * disk from the first write to the last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/interrupt.h"
#include "common/xalloc.h"
#include "measure/calibration.h"
#include "results/paths.h"
#include "results/run_json.h"
#include "run/board_run_private.h"
#include "run/provenance.h"
#include "run/run_checks.h"
#include "stats/summary.h"

void br_board_record_keep(br_board_keeper_t *k)
{
	br_error_t err;
	br_error_clear(&err);
	if (br_run_json_save(&k->run->record, k->run->run_path, &err) != BR_OK && !k->save_failed) {
		k->save_failed = true;
		k->save_error = err;
	}
}

/*
 * Stub benches are calibrated by the suite's empty bench (the loop's own
 * overhead): once it is measured, every stub bench of the record carries its
 * median, so that tables show figures raw and net of it.
 */
static void apply_stub_calibration(br_run_record_t *rec)
{
	const br_bench_record_t *empty = NULL;
	for (size_t i = 0; i < rec->bench_count && empty == NULL; i++) {
		const br_bench_record_t *b = &rec->benches[i];
		if (b->status == BR_BENCH_MEASURED && strcmp(b->mode, "stub") == 0 &&
		    strcmp(b->name, BR_CALIBRATION_EMPTY_BENCH) == 0)
			empty = b;
	}
	if (empty == NULL)
		return;
	for (size_t i = 0; i < rec->bench_count; i++) {
		br_bench_record_t *b = &rec->benches[i];
		if (b->status != BR_BENCH_MEASURED || strcmp(b->mode, "stub") != 0)
			continue;
		b->calibrated = true;
		b->calibration_median = empty->summary.median;
		snprintf(b->calibration_method, sizeof(b->calibration_method), "%s",
		         br_calibration_method_text(BR_CALIBRATION_STUB_EMPTY));
	}
}

/* The figures of r into b: samples, stack (when the plan watermarks it),
 * heap, halts. */
static void stub_figures(const br_board_keeper_t *k, const br_stub_result_t *r,
                         br_bench_record_t *b)
{
	b->n = r->count;
	b->samples = xcalloc(r->count == 0 ? 1U : r->count, sizeof(b->samples[0]));
	for (size_t i = 0; i < r->count; i++)
		b->samples[i] = r->samples[i];
	b->stack_measured = k->plan->stack_watermark && r->stack_bytes != BR_CB_NOT_MEASURED;
	b->stack_bytes = b->stack_measured ? r->stack_bytes : 0U;
	b->heap_known = true;
	b->heap_peak = r->heap_peak;
	b->heap_live = r->heap_live;
	b->heap_allocs = r->heap_allocs;
	b->halts = r->halts;
	b->wall_seconds = (double)(br_clock_ms() - k->started_ms) / BOARD_RUN_MS_PER_S;
}

/* The wrap check, then the bench's statistics; whether the counter counted
 * at all is judged over the whole run (run_checks.h). */
void br_board_record_stub(br_board_keeper_t *k, const br_suite_bench_request_t *req,
                          const br_stub_result_t *r)
{
	k->counted = k->counted || br_run_any_counted(r->samples, r->count);
	k->sampled += r->count;
	br_bench_record_t *b = br_run_record_add_bench(&k->run->record);
	snprintf(b->name, sizeof(b->name), "%s", req->name);
	snprintf(b->mode, sizeof(b->mode), "stub");
	b->status = BR_BENCH_MEASURED;
	b->warmup = req->warmup;
	stub_figures(k, r, b);
	const br_plan_entry_t *e = br_run_plan_entry(k->plan, req->name);
	if (e != NULL)
		b->budgets = e->budgets;
	bool *measured = xcalloc(r->count == 0 ? 1U : r->count, sizeof(bool));
	size_t lost = br_run_check_wrap(k->counter, r, measured);
	free(measured);
	double *values = xcalloc(r->count == 0 ? 1U : r->count, sizeof(double));
	for (uint32_t i = 0; i < r->count; i++)
		values[i] = (double)r->samples[i];
	br_error_t why;
	if (lost > 0) {
		b->status = BR_BENCH_NOT_RUN;
		br_run_wrap_reason(k->counter, r, b->reason, sizeof(b->reason));
	} else if (br_stats_summarize(values, r->count, &b->summary, &why) != BR_OK) {
		b->status = BR_BENCH_NOT_RUN;
		snprintf(b->reason, sizeof(b->reason), "no samples: %.200s", why.message);
	}
	free(values);
	apply_stub_calibration(&k->run->record);
	br_board_record_keep(k);
}

void br_board_record_drop_last(br_run_record_t *rec)
{
	br_bench_record_t *b = &rec->benches[rec->bench_count - 1U];
	free(b->samples);
	free(b->runs);
	for (size_t c = 0; c < b->counter_count; c++)
		free(b->counters[c].samples);
	rec->bench_count--;
}

br_bench_record_t *br_board_record_not_run(br_board_run_t *run, const char *name, const char *mode,
                                           const char *why)
{
	br_bench_record_t *b = br_run_record_add_bench(&run->record);
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->mode, sizeof(b->mode), "%s", mode);
	b->status = BR_BENCH_NOT_RUN;
	snprintf(b->reason, sizeof(b->reason), "%.*s", (int)sizeof(b->reason) - 1, why);
	return b;
}

bool br_board_record_has(const br_run_record_t *rec, const char *name)
{
	for (size_t i = 0; i < rec->bench_count; i++) {
		if (strcmp(rec->benches[i].name, name) == 0)
			return true;
	}
	return false;
}

const char *br_board_record_mode(br_suite_entry_kind_t kind)
{
	switch (kind) {
	case BR_SUITE_ENTRY_STUB:
		return "stub";
	case BR_SUITE_ENTRY_RANGE:
		return "range";
	case BR_SUITE_ENTRY_FUNCTION:
		break;
	}
	return "function";
}

const char *br_board_record_one_elf(const br_suite_t *suite)
{
	const char *one = NULL;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++) {
		const char *elf = suite->benches[i].elf_path;
		if (suite->benches[i].kind == BR_SUITE_ENTRY_STUB || elf == NULL)
			continue;
		if (one != NULL && strcmp(one, elf) != 0)
			return NULL;
		one = elf;
	}
	return one;
}

br_status_t br_board_record_firmware(const br_run_plan_t *plan, const char *elf,
                                     const char *one_elf, const char *commit, br_run_record_t *rec,
                                     br_error_t *err)
{
	if (br_run_plan_has_stub(plan) || plan->entry_count == 0)
		return br_run_provenance_fill(rec, elf, commit, err);
	const char *one = br_board_record_one_elf(plan->suite);
	if (one != NULL)
		return br_run_provenance_fill(rec, one_elf != NULL ? one_elf : one, commit, err);
	br_run_provenance_fill_none(rec);
	return BR_OK;
}

void br_board_record_header(br_board_run_t *run, const br_run_plan_t *plan)
{
	br_run_record_t *rec = &run->record;
	const br_suite_t *suite = plan->suite;
	rec->kind = BR_RECORD_RUN;
	rec->status = BR_RECORD_RUNNING;
	snprintf(rec->board, sizeof(rec->board), "%s", run->board.name);
	if (!plan->host)
		br_board_describe_server(&run->board, rec->server, sizeof(rec->server));
	snprintf(rec->counter, sizeof(rec->counter), "%s", plan->counter.name);
	snprintf(rec->unit, sizeof(rec->unit), "%s", plan->counter.unit);
	rec->clock_hz = plan->counter.clock_hz;
	rec->regression_percent = plan->regression_percent;
	rec->budgets = plan->budgets;
	if (suite == NULL)
		return;
	rec->regression = suite->regression;
	snprintf(rec->suite, sizeof(rec->suite), "%s", suite->name);
	snprintf(rec->suite_path, sizeof(rec->suite_path), "%s", suite->path);
}

br_status_t br_board_record_open(const br_run_settings_t *s, br_board_run_t *run, br_error_t *err)
{
	br_status_t st = br_results_run_path(s->results_dir, run->board.name, run->run_path,
	                                     sizeof(run->run_path), err);
	if (st != BR_OK)
		return st;
	st = br_run_json_save(&run->record, run->run_path, err);
	if (st != BR_OK)
		unlink(run->run_path);
	run->has_run_path = st == BR_OK;
	return st;
}

void br_board_record_order(br_run_record_t *rec, const br_suite_t *suite)
{
	size_t placed = 0;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++) {
		for (size_t j = placed; j < rec->bench_count; j++) {
			if (strcmp(rec->benches[j].name, suite->benches[i].name.value) != 0)
				continue;
			br_bench_record_t tmp = rec->benches[j];
			memmove(&rec->benches[placed + 1], &rec->benches[placed],
			        (j - placed) * sizeof(tmp));
			rec->benches[placed++] = tmp;
			break;
		}
	}
}

br_status_t br_board_record_unmeasured(const br_board_run_t *run, br_error_t *err)
{
	const br_run_record_t *rec = &run->record;
	for (size_t i = 0; i < rec->bench_count; i++) {
		const br_bench_record_t *b = &rec->benches[i];
		if (b->status == BR_BENCH_NOT_RUN)
			return br_error_set(err, BR_ERR_INFRA, "bench %s not measured: %s", b->name,
			                    b->reason);
	}
	return BR_OK;
}

/* Marks the run failed with err's message. */
static void record_failed(br_board_run_t *run, const br_error_t *err)
{
	run->status = err->status;
	run->failure = *err;
	run->record.status = BR_RECORD_FAILED;
	snprintf(run->record.error, sizeof(run->record.error), "%s", err->message);
}

void br_board_record_finish(br_board_run_t *run, br_status_t st, const br_error_t *err)
{
	br_error_t stop;
	if (br_interrupt_signal() != 0) { /* SIGINT/SIGTERM: whatever the benches said */
		br_interrupt_error(&stop);
		record_failed(run, &stop);
		run->record.status = BR_RECORD_INTERRUPTED;
	} else if (st != BR_OK)
		record_failed(run, err);
	else
		run->record.status = BR_RECORD_COMPLETE;
	br_error_t save_err;
	br_error_clear(&save_err);
	if (br_run_json_save(&run->record, run->run_path, &save_err) != BR_OK &&
	    run->status == BR_OK) {
		run->status = save_err.status;
		run->failure = save_err;
	}
}
