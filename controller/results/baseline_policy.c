#include "results/baseline_policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "results/metric_rule.h"
#include "stats/run_shift.h"

/* Appends name to the comma-separated list in kept (size bytes). */
static void kept_add(char *kept, size_t size, const char *name)
{
	size_t used = strlen(kept);
	size_t need = strlen(name) + (used > 0 ? 2U : 0U);
	if (used + need + 4U >= size) {
		if (used + 4U < size && strcmp(kept + (used >= 3 ? used - 3 : 0), "...") != 0)
			snprintf(kept + used, size - used, "...");
		return;
	}
	snprintf(kept + used, size - used, "%s%s", used > 0 ? ", " : "", name);
}

/* The runs an old entry holds into runs (at least its own one), or none. */
static size_t old_runs(const br_run_record_t *old, const br_bench_record_t *prev,
                       br_baseline_run_t *runs)
{
	if (prev == NULL || prev->status != BR_BENCH_MEASURED)
		return 0;
	if (prev->run_count > 0) {
		memcpy(runs, prev->runs, prev->run_count * sizeof(runs[0]));
		return prev->run_count;
	}
	runs[0].median = prev->summary.median;
	br_run_record_bench_build(old, prev, runs[0].build, sizeof(runs[0].build));
	return 1;
}

/* Entry e's runs, its own array: a noisy figure's (the old entry's, then
 * this run's when it measured the bench, the latest BR_STATS_RUNS_MAX). */
static void entry_runs(br_bench_record_t *e, const br_run_record_t *run,
                       const br_bench_record_t *measured, const br_run_record_t *old,
                       const br_bench_record_t *prev)
{
	e->runs = NULL;
	e->run_count = 0;
	if (br_metric_class_of(run, BR_METRIC_COUNT) != BR_METRIC_NOISY)
		return;
	br_baseline_run_t *all = xcalloc(BR_STATS_RUNS_MAX + 1U, sizeof(all[0]));
	size_t n = old_runs(old, prev, all);
	if (measured != NULL && measured->status == BR_BENCH_MEASURED) {
		/* one run is one launch: of a check that took several, the first */
		all[n].median = measured->run_count > 0 && run->kind != BR_RECORD_BASELINE
		                    ? measured->runs[0].median
		                    : measured->summary.median;
		br_run_record_bench_build(run, measured, all[n].build, sizeof(all[n].build));
		n++;
	}
	size_t drop = n > BR_STATS_RUNS_MAX ? n - BR_STATS_RUNS_MAX : 0;
	if (n - drop == 0) {
		free(all);
		return;
	}
	memmove(all, all + drop, (n - drop) * sizeof(all[0]));
	e->runs = all;
	e->run_count = n - drop;
}

size_t br_baseline_policy_apply(const br_run_record_t *run, const br_run_record_t *old,
                                br_run_record_t *out, char *kept, size_t size, size_t *missing)
{
	*out = *run;
	out->kind = BR_RECORD_BASELINE;
	out->benches =
	    xcalloc(run->bench_count > 0 ? run->bench_count : 1U, sizeof(out->benches[0]));
	size_t n_kept = 0;
	*missing = 0;
	if (size > 0)
		kept[0] = '\0';
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		const br_bench_record_t *prev =
		    old != NULL ? br_run_record_find(old, b->name) : NULL;
		if (b->status != BR_BENCH_MEASURED && prev != NULL &&
		    prev->status == BR_BENCH_MEASURED) {
			out->benches[i] = *prev;
			entry_runs(&out->benches[i], run, NULL, old, prev);
			n_kept++;
			if (size > 0)
				kept_add(kept, size, b->name);
		} else {
			out->benches[i] = *b;
			entry_runs(&out->benches[i], run, b, old, prev);
			if (b->status != BR_BENCH_MEASURED)
				(*missing)++;
		}
	}
	return n_kept;
}

void br_baseline_policy_free(br_run_record_t *out)
{
	for (size_t i = 0; i < out->bench_count; i++)
		free(out->benches[i].runs);
	free(out->benches);
	out->benches = NULL;
	out->bench_count = 0;
}
