/*
 * check on the host against a stored baseline: further launches of each
 * noisy bench (board_run_private.h, br_board_check_runs). One launch's
 * figure moves with the host by as much as a baseline's runs show (3-14 %
 * here), which leaves one run too little room against a 5 % limit; the
 * median of five has about a third of that variance. The bench's samples
 * and figures stay the first launch's.
 */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "results/metric_rule.h"
#include "results/record_read.h"
#include "run/board_run_private.h"

/* Adds a run (launch) of median m to b's runs, named by the run's build. */
static void check_run_add(const br_run_record_t *rec, br_bench_record_t *b, double m)
{
	b->runs = xrealloc(b->runs, (b->run_count + 1U) * sizeof(b->runs[0]));
	br_baseline_run_t *r = &b->runs[b->run_count++];
	memset(r, 0, sizeof(*r));
	r->median = m;
	br_run_record_bench_build(rec, b, r->build, sizeof(r->build));
}

/* Launches 2..want of the bench at record index i (plan entry index e),
 * each median added to its runs. */
static br_status_t check_bench_runs(const br_run_settings_t *quiet, const br_run_plan_t *plan,
                                    size_t e, size_t i, uint32_t want, br_board_run_t *run,
                                    br_error_t *err)
{
	br_bench_record_t *b = &run->record.benches[i];
	check_run_add(&run->record, b, b->summary.median);
	br_status_t st = BR_OK;
	for (uint32_t k = 1; st == BR_OK && k < want; k++) {
		size_t before = run->record.bench_count;
		st = br_board_execute_host(quiet, plan, e, 1, quiet->host_program, run, err);
		if (run->record.bench_count == before)
			continue;
		b = &run->record.benches[i]; /* the array may have moved */
		const br_bench_record_t *l = &run->record.benches[run->record.bench_count - 1U];
		if (st == BR_OK && l->status == BR_BENCH_MEASURED) {
			check_run_add(&run->record, b, l->summary.median);
			b->wall_seconds += l->wall_seconds;
		} else if (st == BR_OK) {
			st = br_error_set(err, BR_ERR_INFRA, "%s: run %u of %u: %s", l->name,
			                  k + 1U, want, l->reason);
		}
		br_board_record_drop_last(&run->record);
	}
	return st;
}

br_status_t br_board_check_runs(const br_run_settings_t *s, const br_run_plan_t *plan,
                                br_board_run_t *run, br_error_t *err)
{
	uint32_t want = s->check_runs > 0 ? s->check_runs : BR_RUN_CHECK_RUNS;
	if (!s->check || !run->host || plan->suite == NULL || want < 2U ||
	    br_metric_class_of(&run->record, BR_METRIC_COUNT) != BR_METRIC_NOISY)
		return BR_OK;
	bool exists = false;
	br_error_t ignored;
	br_run_record_t base;
	/* a baseline that is not there or cannot be read is the gate's to say */
	if (br_board_baseline_path(s, run, &exists, &ignored) != BR_OK || !exists ||
	    br_record_read(run->baseline_path, &base, &ignored) != BR_OK)
		return BR_OK;
	br_run_settings_t quiet = *s;
	quiet.progress = NULL;
	quiet.progress_done = NULL;
	br_status_t st = BR_OK;
	for (size_t i = 0; st == BR_OK && i < run->record.bench_count; i++) {
		const br_bench_record_t *b = &run->record.benches[i];
		const br_bench_record_t *o = br_run_record_find(&base, b->name);
		const br_plan_entry_t *e = br_run_plan_entry(plan, b->name);
		if (b->status != BR_BENCH_MEASURED || o == NULL || o->run_count < 2U || e == NULL ||
		    e->kind != BR_SUITE_ENTRY_STUB)
			continue;
		st = check_bench_runs(&quiet, plan, (size_t)(e - plan->entries), i, want, run, err);
	}
	br_run_record_free(&base);
	return st;
}
