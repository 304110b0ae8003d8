/*
 * Two sides of a noisy figure measured interleaved in one run (check
 * --against: base and head launched in turn, base head head base ...), as
 * pairs of launches: pair i is the i-th launch of each side, adjacent in
 * time, so whatever the machine did at that moment falls on both. The
 * launch is the unit, each by its median: the paired difference.
 *
 * The rule: d_i = ln(second_i) - ln(first_i) (the linear scale when a median
 * is not positive), its mean and standard deviation s over the n pairs, the
 * confidence interval mean ± t(n - 1) s / sqrt(n) (Student's t), converted
 * back around the reference (the geometric mean of first). Outcome higher
 * when the interval lies above the resolution, lower when below minus it,
 * equal when every pair is equal, else can't tell; fewer than 2 pairs:
 * can't tell, unbounded.
 *
 * Assumptions: the pairs' differences are independent draws of one
 * distribution, normal on the log scale; the drift within a pair (two
 * launches a moment apart) is small beside the drift between pairs.
 */
#ifndef BENCHRACK_STATS_PAIRED_SHIFT_H
#define BENCHRACK_STATS_PAIRED_SHIFT_H

#include <stddef.h>

#include "common/error.h"
#include "stats/shift.h"

/*
 * Compares the n pairs (first[i], second[i]) at confidence (in (0, 1)) into
 * *out (n_first = n_second = n; estimate, low and high in the figures' unit,
 * about the reference). BR_ERR_INPUT for n = 0, a median that is not finite
 * or a confidence outside (0, 1), leaving *out untouched.
 */
br_status_t br_stats_paired_shift(const double *first, const double *second, size_t n,
                                  double confidence, double resolution, br_shift_t *out,
                                  br_error_t *err);

#endif
