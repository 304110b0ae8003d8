/*
 * Comparing two summaries of the same metric (DESIGN.md, "Statistics"):
 * which one is lower, or that they cannot be told apart. Every metric is
 * lower-is-better (cycles, time, stack, heap, size).
 */
#ifndef BENCHRACK_STATS_COMPARE_H
#define BENCHRACK_STATS_COMPARE_H

#include <stdbool.h>

#include "stats/summary.h"

typedef enum br_verdict {
	BR_VERDICT_EQUAL,               /* identical constant results */
	BR_VERDICT_NOT_DISTINGUISHABLE, /* the spread hides any difference: no winner */
	BR_VERDICT_FIRST_LOWER,         /* the first is lower (better) */
	BR_VERDICT_SECOND_LOWER,        /* the second is lower (better) */
} br_verdict_t;

/* The figures a verdict was reached from, for outputs that explain it. */
typedef struct br_stats_bands {
	double overlap; /* length of the intersection of the two p10..p90 bands, >= 0 */
	double gap;     /* |first.median - second.median| */
} br_stats_bands_t;

/*
 * Compares first and second by the rule "two results whose p10-p90 bands
 * overlap by more than their median gap are not distinguishable":
 *   overlap = max(0, min(first.p90, second.p90) - max(first.p10, second.p10))
 *   gap     = |first.median - second.median|
 * and, in this order:
 *   gap == 0 and both bands of zero width      -> BR_VERDICT_EQUAL
 *   gap == 0 otherwise (equal medians, spread)  -> BR_VERDICT_NOT_DISTINGUISHABLE
 *   overlap > gap                               -> BR_VERDICT_NOT_DISTINGUISHABLE
 *   otherwise the lower median wins             -> BR_VERDICT_FIRST_LOWER / _SECOND_LOWER
 * A zero-width band overlaps nothing by more than 0, so a constant result
 * against a spread one is decided by the medians whenever they differ.
 * Fills *bands when it is not NULL.
 */
br_verdict_t br_stats_compare(const br_summary_t *first, const br_summary_t *second,
                              br_stats_bands_t *bands);

/* A lower-case name for verdict ("equal", "not distinguishable", "first lower",
 * "second lower"), static storage. */
const char *br_stats_verdict_name(br_verdict_t verdict);

/*
 * The change from old_value to new_value in percent of |old_value|:
 * 100 * (new - old) / |old|, positive when new is higher (worse). Returns true
 * with *percent set when that is defined. With old_value == 0: both zero is
 * 0 % (true); new_value != 0 has no percentage and returns false, with
 * *percent set to +INFINITY (growth) or -INFINITY (shrink), so that a limit
 * check `percent > limit` still fails on growth from zero; outputs print
 * "new (was 0)" rather than a number.
 */
bool br_stats_percent_change(double old_value, double new_value, double *percent);

#endif
