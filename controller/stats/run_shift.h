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
 *
 * Several new runs (check takes them of a noisy bench, run/board_run.h):
 * the new figure is the median of the k new runs' medians, y the median of
 * their logs, and the interval ln(new) - centre ± t(df) s sqrt(f(k) + 1/m)
 * with f(1) = 1 and f(k) = pi / (2k) for k >= 2: the variance of the median
 * of k normal draws, in units of one draw's, is below pi / (2k) for every k
 * (it rises towards that, its large-k limit: 0.5, 0.449, 0.298, 0.287 for k
 * = 2..5, against 0.785, 0.524, 0.393, 0.314), so the interval is at least as
 * wide as the exact one, and the false-alarm rate stays within the bound of
 * the confidence. The median, not the mean, so that one launch that the
 * machine starved (measured here: 1 in about 60 launches near twice as
 * slow) moves the figure by one rank, not by a fifth of its excess. The k
 * runs are assumed to be independent draws like the baseline's: launches a
 * moment apart, each its own process (measured on this host: the spread of
 * 10 launches taken back to back is as wide as that of launches minutes
 * apart; the levels a launch lands on are discrete, 607/623/655/673 ns,
 * picked per launch). Where consecutive runs share a board's state for
 * longer (a board that warms up), they are not, and the interval is too
 * narrow by the shared part: take --runs 1 there.
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
	size_t new_runs;    /* the new runs the figure is the median of */
	double figure;      /* that median, in the metric's unit */
	br_shift_t shift;   /* new against the centre: estimate, interval, p, outcome
	                       (n_first = runs, n_second = new_runs) */
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

/*
 * As br_stats_run_shift, for the median of new_count new runs' medians
 * (fresh, each at least 1; the interval for a median of that many, above).
 * BR_ERR_INPUT also for new_count 0.
 */
br_status_t br_stats_run_shift_many(const double *medians, const size_t *build, size_t k,
                                    const double *fresh, size_t new_count, double confidence,
                                    double resolution, br_run_shift_t *out, br_error_t *err);

/* f(k) above: the variance of the median of k runs, in units of one run's,
 * at most (1 for k <= 1). */
double br_stats_run_median_variance(size_t k);

#endif
