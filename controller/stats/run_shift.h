/*
 * A noisy figure of one new run against a baseline that holds several runs,
 * with the run as the unit (a cluster-level test): each run counts once, by
 * its median, however many samples it took. Within one run the samples share
 * the run's state (CPU frequency, caches, what else the machine was doing),
 * so a test on the samples of two runs (stats/shift.h) tells apart a drift of
 * that state as readily as a change of the code; measured on the host here,
 * an unchanged program's medians move 3-14 % from one run to the next while
 * each run's own interval is about ±0.2 %. The spread of the baseline's own
 * runs is what says how far a run moves when nothing changed.
 *
 * The rule: on the log scale (the drift is a ratio; the linear scale when a
 * median is not positive), y_i = ln(median of baseline run i). The centre is
 * the mean of the runs of the baseline's latest build (the runs of one
 * firmware); the spread s is the between-run standard deviation pooled over
 * every build the baseline kept (the deviations of each run from its own
 * build's mean: the drift is the board's, not the firmware's), with
 * df = runs - builds degrees of freedom. The new run's median is a draw of
 * the same distribution when nothing changed, so its prediction interval is
 * ln(new) - centre ± t(df) s sqrt(1 + 1/m) at the confidence, m the centre's
 * runs and t Student's quantile. Outcome higher when the interval (converted
 * back to the metric's unit around the centre) lies above the resolution,
 * lower when below minus it, equal when every run and the new one are the
 * same value, else can't tell; with df = 0 (one run, or one run a build) the
 * drift is not known and the outcome is can't tell, unbounded.
 *
 * Assumptions: the runs' medians are independent draws (runs at different
 * moments, each its own launch) from one distribution per build, log-normal
 * (or normal) about its centre, the same spread for every build; a baseline
 * recorded in one calm moment understates a drift that comes with the hour,
 * which is why runs are kept as they accumulate over time.
 */
#ifndef BENCHRACK_STATS_RUN_SHIFT_H
#define BENCHRACK_STATS_RUN_SHIFT_H

#include <stddef.h>

#include "common/error.h"
#include "stats/shift.h"

/* The most runs a baseline keeps of a bench (the oldest go first). */
#define BR_STATS_RUNS_MAX 30U

typedef struct br_run_shift {
	size_t runs;        /* the baseline's runs */
	size_t centre_runs; /* of them, of its latest build: the centre's */
	size_t df;          /* degrees of freedom of the spread; 0: drift not known */
	double centre;      /* the centre, in the metric's unit (geometric mean) */
	double spread;      /* s: relative on the log scale, else in the unit */
	br_shift_t shift;   /* new against the centre: estimate, interval, p, outcome
	                       (n_first = runs, n_second = 1) */
} br_run_shift_t;

/*
 * Compares new_median against the k baseline runs' medians (build[i] names
 * run i's build: equal numbers, the same firmware; the centre is that of
 * build[k - 1]) at confidence (in (0, 1)) into *out, by the rule above.
 * resolution as for br_stats_shift (the smallest step the figures show;
 * never told apart within it, never a half-width below it). BR_ERR_INPUT for
 * k = 0, a median that is not finite or a confidence outside (0, 1), leaving
 * *out untouched.
 */
br_status_t br_stats_run_shift(const double *medians, const size_t *build, size_t k,
                               double new_median, double confidence, double resolution,
                               br_run_shift_t *out, br_error_t *err);

#endif
