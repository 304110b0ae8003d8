/*
 * Two sets of samples of a noisy figure (host time, cycles on a board with
 * caches and interrupts), compared by a test on the samples themselves
 * rather than on their medians (DESIGN.md, "Statistics"): the Mann-Whitney U
 * test (Wilcoxon rank-sum), with the Hodges-Lehmann estimate of how far the
 * second set lies from the first and its distribution-free confidence
 * interval (Moses; Hollander & Wolfe, "Nonparametric Statistical Methods",
 * ch. 4). Three outcomes: higher, lower, or can't tell; the interval's
 * half-width is the smallest change the samples could have shown.
 *
 * Assumptions (what the figures mean only when they hold):
 * - within each set the samples are independent draws of one distribution
 *   (iterations of one bench in one run); the sets are independent of each
 *   other;
 * - the two distributions differ by a shift of location (the same shape):
 *   the estimate and interval are of that shift. A change of shape alone
 *   (a longer tail) moves them only as far as it moves the bulk;
 * - large-sample normal approximation of U with the tie correction of its
 *   variance: good from about 8 samples a side. With fewer, or at a
 *   confidence the sets are too small for, the interval is unbounded and the
 *   outcome is "can't tell".
 * Drift between two runs (a host under load, a board warmer than before)
 * violates the first assumption: the samples of one run share its state.
 * Against a stored baseline the run is the unit instead (stats/run_shift.h:
 * the baseline's runs show how far runs drift); measuring both sides
 * interleaved in one run (check --against) is what cancels it.
 */
#ifndef BENCHRACK_STATS_SHIFT_H
#define BENCHRACK_STATS_SHIFT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "stats/summary.h"

/*
 * The confidence every gate uses: 99 % two-sided, so an unchanged figure is
 * called higher or lower in at most 1 % of comparisons (0.5 % each way). At
 * this confidence a shift of 2 standard errors of the difference of means
 * (normal samples, 30 a side) is told apart with probability 0.25, of 3
 * standard errors 0.58 and of 4 0.87 (measured over 1,000 trials by
 * tests/unit/stats/test_shift.c; the large-sample theory,
 * Phi(k sqrt(3/pi) - 2.576) with the U test's efficiency of 3/pi on normal
 * data, gives 0.27, 0.64 and 0.91: the interval's whole-rank ends make it a
 * little cautious on small sets). To tell a shift of d apart about half the
 * time takes a half-width of d: br_stats_samples_for_delta.
 */
#define BR_STATS_CONFIDENCE 0.99

typedef enum br_shift_outcome {
	BR_SHIFT_CANT_TELL, /* the interval holds 0 (or is unbounded) */
	BR_SHIFT_EQUAL,     /* every sample of both sets is one and the same value */
	BR_SHIFT_HIGHER,    /* the second set lies higher: worse, for lower-is-better figures */
	BR_SHIFT_LOWER,     /* the second set lies lower: better */
} br_shift_outcome_t;

typedef struct br_shift {
	size_t n_first, n_second;
	double estimate;   /* Hodges-Lehmann: the median of every second[j] - first[i] */
	double low, high;  /* the confidence interval of the shift (-inf/+inf when unbounded) */
	bool bounded;      /* false: too few samples for an interval at this confidence */
	double half_width; /* (high - low) / 2, at least the resolution; +inf when unbounded */
	double p_value;    /* two-sided, of the U test (normal approximation, tie-corrected) */
	double confidence; /* as asked */
	br_shift_outcome_t outcome;
} br_shift_t;

/*
 * Compares second against first at confidence (in (0, 1), e.g.
 * BR_STATS_CONFIDENCE) into *out. resolution is the smallest step the
 * figures can show (the host clock's, in the samples' unit; 0 for one
 * tick): an interval that reaches past 0 by no more than it is not told
 * apart (HIGHER needs low > resolution, LOWER high < -resolution), and the
 * half-width is never reported below it. Returns BR_ERR_INPUT for an empty
 * set, a sample that is not finite, or a confidence outside (0, 1), leaving
 * *out untouched. The samples are only read.
 */
br_status_t br_stats_shift(const double *first, size_t n_first, const double *second,
                           size_t n_second, double confidence, double resolution, br_shift_t *out,
                           br_error_t *err);

/*
 * How many samples a side (both sets the same size) would bring the
 * half-width of s's interval down to target (> 0), at the same confidence,
 * from the rule that it shrinks as sqrt(1/n_first + 1/n_second) (the
 * interval's own half-width, (high - low) / 2: no number of samples takes it
 * below the resolution, which the caller compares target with). At least 1;
 * SIZE_MAX when s has no bounded interval to scale from, or target <= 0.
 */
size_t br_stats_shift_samples_for(const br_shift_t *s, double target);

/*
 * How many samples a side two sets like the one s summarizes need for the
 * interval's half-width to be at most delta (> 0) at confidence: with sigma
 * the spread (1.4826 MAD; when MAD is 0 the standard deviation, or
 * cv_median times |median| for a summary read back from a record), the U
 * test's interval on normal data has half-width z * sigma * sqrt(pi / 3) *
 * sqrt(2 / n). At least 2; SIZE_MAX for delta <= 0 or a confidence outside
 * (0, 1); 2 for a set with no spread at all.
 */
size_t br_stats_samples_for_delta(const br_summary_t *s, double delta, double confidence);

/*
 * The two-sided normal quantile z with P(|Z| <= z) = confidence, by
 * bisection on erfc (accurate to 1e-12); NaN outside (0, 1).
 */
double br_stats_normal_two_sided(double confidence);

/* Sets s as a test that has no interval: unbounded, half-width infinite,
 * p 1, can't tell. */
void br_stats_shift_unbounded(br_shift_t *s);

/* With s->low and s->high set (bounded): the half-width (never below
 * resolution) and the outcome — equal when all_equal, higher when low is
 * above resolution, lower when high is below minus it, else can't tell. */
void br_stats_shift_decide(br_shift_t *s, double resolution, bool all_equal);

/* "can't tell", "equal", "higher", "lower" (static storage). */
const char *br_shift_outcome_name(br_shift_outcome_t outcome);

#endif
