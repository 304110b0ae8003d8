/*
 * The execution step on the host board (`--board host`,
 * board_run_private.h): the plan's stub benches run by a host program,
 * timed by CLOCK_MONOTONIC_RAW, kept as a board's benches are, with the
 * host's cycles and instructions beside them where perf counts them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "measure/host_batch.h"
#include "run/board_run_private.h"
#include "stats/summary.h"

/* The host's counters are known: the record says what they can do. */
static void on_host_started(void *ctx, const br_host_info_t *info)
{
	br_board_keeper_t *k = ctx;
	br_run_record_t *rec = &k->run->record;
	rec->resolution = (double)info->resolution_ns;
	snprintf(rec->server, sizeof(rec->server),
	         "benchrack-host-benches pinned to CPU %ld (clock_getres %llu ns, smallest step "
	         "%llu ns)",
	         info->cpu, (unsigned long long)info->getres_ns, (unsigned long long)info->step_ns);
	if (!info->perf)
		snprintf(rec->counter_note, sizeof(rec->counter_note),
		         "cycles and instructions not counted: %.200s", info->perf_note);
	br_board_record_keep(k);
}

/* The host's cycles and instructions of r beside b's figures. */
static void host_counters(const br_host_result_t *r, br_bench_record_t *b)
{
	static const char *const names[] = {"cycles", "instructions"};
	static const char *const units[] = {"cycles (user mode)", "instructions (user mode)"};
	const uint32_t *rows[] = {r->cycles, r->instructions};
	for (size_t c = 0; r->perf && b->status == BR_BENCH_MEASURED && c < 2U; c++) {
		br_bench_counter_t *bc = &b->counters[b->counter_count];
		double *values = xcalloc(r->stub.count, sizeof(double));
		for (uint32_t i = 0; i < r->stub.count; i++)
			values[i] = (double)rows[c][i];
		br_error_t err;
		if (br_stats_summarize(values, r->stub.count, &bc->summary, &err) == BR_OK) {
			snprintf(bc->name, sizeof(bc->name), "%s", names[c]);
			snprintf(bc->unit, sizeof(bc->unit), "%s", units[c]);
			bc->samples = xcalloc(r->stub.count, sizeof(bc->samples[0]));
			for (uint32_t i = 0; i < r->stub.count; i++)
				bc->samples[i] = rows[c][i];
			b->counter_count++;
		}
		free(values);
	}
}

/* A host bench: the stub's figures as for a board, then its other counters. */
static void on_host_bench_done(void *ctx, const char *name, const br_host_result_t *r)
{
	br_board_keeper_t *k = ctx;
	br_suite_bench_request_t req = {
	    .name = name, .iterations = r->stub.count, .warmup = k->warmup};
	br_board_record_stub(k, &req, &r->stub);
	br_bench_record_t *b = &k->run->record.benches[k->run->record.bench_count - 1U];
	if (r->saturated && b->status == BR_BENCH_MEASURED) {
		b->status = BR_BENCH_NOT_RUN;
		snprintf(b->reason, sizeof(b->reason),
		         "an iteration took 2^32 ns or more: not measured");
	}
	host_counters(r, b);
	/* the host's figures are not the board's: the suite's budgets, in its
	 * boards' units, do not apply */
	memset(&b->budgets, 0, sizeof(b->budgets));
	br_board_record_keep(k);
}

br_status_t br_board_execute_host(const br_run_settings_t *s, const br_run_plan_t *plan,
                                  size_t first, size_t count, const char *program,
                                  br_board_run_t *run, br_error_t *err)
{
	/* each host figure is a difference of 64-bit readings: nothing wraps,
	 * and a counter state without a clock asks for no wrap check */
	br_counter_t clock = plan->counter;
	clock.clock_hz = 0;
	br_counter_state_t state;
	br_counter_state_init(&state, &clock);
	br_board_keeper_t k = {
	    .s = s, .plan = plan, .run = run, .counter = &state, .warmup = plan->warmup.value};
	const char **names = xcalloc(count + 1U, sizeof(char *));
	size_t n = 0;
	for (size_t i = first; i < first + count && i < plan->entry_count; i++) {
		const br_plan_entry_t *e = &plan->entries[i];
		if (e->kind == BR_SUITE_ENTRY_STUB)
			names[n++] = e->name;
		else
			br_board_record_not_run(
			    run, e->name, br_board_record_mode(e->kind),
			    "unmodified firmware runs on a Cortex-M board, not on the host");
	}
	br_host_options_t o = {
	    .program = program,
	    .benches = plan->suite != NULL ? names : NULL, /* NULL: every bench it has */
	    .bench_count = plan->suite != NULL ? n : 0,
	    .iterations = plan->iterations.value,
	    .warmup = plan->warmup.value,
	    .timeout_ms = (int)plan->timeout_ms.value,
	    .started = on_host_started,
	    .progress = br_board_on_progress,
	    .bench_done = on_host_bench_done,
	    .ctx = &k,
	};
	br_host_info_t info;
	br_status_t st = br_host_measure(&o, &info, err);
	br_board_progress_done(s);
	free(names);
	if (st == BR_OK && k.save_failed) {
		*err = k.save_error;
		st = k.save_error.status;
	}
	return st;
}
