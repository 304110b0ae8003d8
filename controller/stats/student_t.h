/*
 * Student's t distribution with a whole number of degrees of freedom: what a
 * test on a handful of runs (stats/run_shift.h) needs, where the spread is
 * itself estimated from few values and the normal quantile would be far too
 * narrow (2.58 at 99 % against 4.60 with 4 degrees of freedom).
 *
 * Computed in closed form (Abramowitz & Stegun 26.7.3 and 26.7.4: with
 * theta = atan(t / sqrt(df)), a finite series in cos(theta) for odd and for
 * even df), so no incomplete beta function is needed; quantiles by bisection.
 */
#ifndef BENCHRACK_STATS_STUDENT_T_H
#define BENCHRACK_STATS_STUDENT_T_H

#include <stddef.h>

/* P(|T| <= t) for T ~ t(df), t >= 0, df >= 1; 0 for t <= 0, NaN for df 0. */
double br_stats_student_central(double t, size_t df);

/* The two-sided quantile: the t with P(|T| <= t) = confidence (in (0, 1)),
 * df >= 1, accurate to 1e-10; NaN outside that. */
double br_stats_student_two_sided(double confidence, size_t df);

#endif
