#include "cli/elf_entry.h"

#include "cli/board_lock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/measure_report.h"
#include "cli/output.h"
#include "common/xalloc.h"
#include "measure/measure_run.h"

#define ELF_ENTRY_REMOTE_BYTES 320U

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
	out->calibrated = r->calibrated;
	out->calibration_median = r->calibration.median;
	snprintf(out->calibration_method, sizeof(out->calibration_method), "%s",
		 br_calibration_method_text(raw->calibration.method));
	out->wall_seconds = raw->wall_seconds;
}

br_status_t br_elf_entry_measure(const br_elf_entry_options_t *o, br_bench_record_t *out,
				 br_error_t *err)
{
	const br_board_t *board = o->board;
	const br_board_server_t *server = &board->file.server;
	br_measure_options_t m;
	br_measure_options_default(&m);
	m.elf_path = o->entry->elf_path;
	m.from = o->entry->from.value;
	m.to = o->entry->to.value;
	m.function = o->entry->function.value;
	m.iterations = o->iterations;
	m.warmup = o->warmup;
	m.counter = &board->counter;
	m.stack = o->suite->stack_watermark;
	br_stack_region_t region;
	if (board->file.stack.head.set) {
		region.low = board->stack_origin;
		region.size = board->stack_length;
		snprintf(region.source, sizeof(region.source), "board %s", board->name);
		m.stack_region = &region;
	}
	m.breakpoint_kind = BR_BREAKPOINT_AUTO;
	if (o->timeout_ms > 0)
		m.timeout_ms = o->timeout_ms;
	m.link.output = br_cli_firmware_output;

	char remote[ELF_ENTRY_REMOTE_BYTES];
	switch (board->server_kind) {
	case BR_BOARD_SERVER_QEMU:
		m.link.qemu_program = o->qemu_program != NULL ? o->qemu_program
				      : server->program.set   ? server->program.value
							      : m.link.qemu_program;
		m.link.machine = server->machine.value;
		m.link.qemu_args = board->server_args;
		m.link.qemu_arg_count = board->server_arg_count;
		break;
	case BR_BOARD_SERVER_REMOTE:
		snprintf(remote, sizeof(remote), "%s:%llu", server->host.value,
			 (unsigned long long)server->port.value);
		m.link.remote = remote;
		m.link.flavour = br_board_flavour_name(board);
		break;
	case BR_BOARD_SERVER_OPENOCD:
	case BR_BOARD_SERVER_SERIAL:
		not_run(out, board->server_kind == BR_BOARD_SERVER_OPENOCD
				     ? "breakpoint mode not available on a launched OpenOCD yet"
				     : "breakpoint mode not available on a serial probe yet");
		return BR_OK;
	}

	br_measure_raw_t raw;
	memset(&raw, 0, sizeof(raw));
	br_status_t st = br_board_lock_measure(&m, &raw, err);
	if (st == BR_OK) {
		br_measure_report_t r;
		memset(&r, 0, sizeof(r));
		r.elf_path = m.elf_path;
		r.raw = &raw;
		st = br_measure_report_summarize(&r, err);
		if (st == BR_OK && (r.not_measured > 0 || r.measured == 0)) {
			char why[BR_RECORD_TEXT];
			snprintf(why, sizeof(why),
				 "not measured: %zu of %zu samples may hide a counter wrap (use a "
				 "wider or slower counter)",
				 r.not_measured, raw.count);
			not_run(out, why);
		} else if (st == BR_OK) {
			keep(&raw, &r, m.warmup, out);
		}
	}
	br_measure_raw_free(&raw);
	return st;
}
