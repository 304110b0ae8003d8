/*
 * --min-detectable: the plan's iterations sized from the spread of the
 * baseline's benches (board_run_private.h, br_run_plan_spread).
 */
#include <math.h>

#include "results/record_read.h"
#include "run/board_run_private.h"
#include "stats/shift.h"

/*
 * The iterations per bench that bring the shift test's interval down to the
 * asked percentage of each noisy figure (stats/shift.h,
 * br_stats_samples_for_delta): the most any bench of base needs, and which
 * one (NULL: none can be resolved). Exact figures need one iteration to
 * tell any change.
 */
static size_t spread_most(const br_run_settings_t *s, const br_board_run_t *run,
                          const br_run_record_t *base, const char **widest)
{
	size_t most = 0;
	*widest = NULL;
	for (size_t i = 0; i < base->bench_count; i++) {
		const br_bench_record_t *b = &base->benches[i];
		if (b->status != BR_BENCH_MEASURED ||
		    br_metric_class_of(base, BR_METRIC_COUNT) != BR_METRIC_NOISY)
			continue;
		double delta = s->min_detectable_percent / 100.0 * fabs(b->summary.median);
		if (delta <= base->resolution) {
			br_board_notice(
			    s,
			    "%s: %s: %g%% of %g is within the clock's resolution (%g): no number "
			    "of iterations resolves it",
			    run->board.name, b->name, s->min_detectable_percent, b->summary.median,
			    base->resolution);
			continue;
		}
		size_t n = br_stats_samples_for_delta(&b->summary, delta, BR_STATS_CONFIDENCE);
		if (n > most) {
			most = n;
			*widest = b->name;
		}
	}
	return most;
}

br_status_t br_run_plan_spread(const br_run_settings_t *s, br_board_run_t *run, br_run_plan_t *plan,
                               br_error_t *err)
{
	bool exists = false;
	br_status_t st = br_board_baseline_path(s, run, &exists, err);
	if (st != BR_OK)
		return st;
	if (!exists)
		return br_error_set(
		    err, BR_ERR_USAGE,
		    "--min-detectable sizes the run from the baseline's spread, and "
		    "%s does not exist: record one first (--write-baseline) or give -n",
		    run->baseline_path);
	br_run_record_t base;
	st = br_record_read(run->baseline_path, &base, err);
	if (st != BR_OK)
		return st;
	const char *widest = NULL;
	size_t most = spread_most(s, run, &base, &widest);
	if (widest == NULL) {
		br_board_notice(
		    s,
		    "%s: --min-detectable: %s has no noisy figure it can be resolved on "
		    "(exact figures tell any change with one iteration): iterations "
		    "left as they are",
		    run->board.name, run->baseline_path);
	} else {
		uint32_t n =
		    most > BR_SUITE_MAX_ITERATIONS ? BR_SUITE_MAX_ITERATIONS : (uint32_t)most;
		br_run_plan_size(plan, n);
		br_board_notice(s,
		                "%s: --min-detectable %g%%: %u iterations per bench (%s needs the "
		                "most: %zu, from the baseline's spread)",
		                run->board.name, s->min_detectable_percent, n, widest, most);
	}
	br_run_record_free(&base);
	return BR_OK;
}
