#include "stats/compare.h"

#include <math.h>

#define BR_STATS_PERCENT 100.0

br_verdict_t br_stats_compare(const br_summary_t *first, const br_summary_t *second,
                              br_stats_bands_t *bands)
{
	double overlap = fmax(0.0, fmin(first->p90, second->p90) - fmax(first->p10, second->p10));
	double gap = fabs(first->median - second->median);
	if (bands != NULL) {
		bands->overlap = overlap;
		bands->gap = gap;
	}

	if (gap == 0.0) {
		bool constant = first->p10 == first->p90 && second->p10 == second->p90;
		return constant ? BR_VERDICT_EQUAL : BR_VERDICT_NOT_DISTINGUISHABLE;
	}
	if (overlap > gap)
		return BR_VERDICT_NOT_DISTINGUISHABLE;
	return first->median < second->median ? BR_VERDICT_FIRST_LOWER : BR_VERDICT_SECOND_LOWER;
}

const char *br_stats_verdict_name(br_verdict_t verdict)
{
	switch (verdict) {
	case BR_VERDICT_EQUAL:
		return "equal";
	case BR_VERDICT_NOT_DISTINGUISHABLE:
		return "not distinguishable";
	case BR_VERDICT_FIRST_LOWER:
		return "first lower";
	case BR_VERDICT_SECOND_LOWER:
		return "second lower";
	}
	return "unknown verdict";
}

bool br_stats_percent_change(double old_value, double new_value, double *percent)
{
	double change = new_value - old_value;
	if (old_value == 0.0) {
		if (change == 0.0) {
			*percent = 0.0;
			return true;
		}
		*percent = change > 0.0 ? (double)INFINITY : -(double)INFINITY;
		return false;
	}
	/* the ratio first: 100 * change alone overflows for figures near DBL_MAX */
	*percent = BR_STATS_PERCENT * (change / fabs(old_value));
	if (!isfinite(*percent)) /* old - new itself overflowed: from the ratio */
		*percent =
		    BR_STATS_PERCENT * (new_value / fabs(old_value) - old_value / fabs(old_value));
	return isfinite(*percent);
}
