#include "results/metric_rule.h"

#include <string.h>

/* The counter whose every figure is exact: QEMU's instruction count. */
#define METRIC_EXACT_UNIT "QEMU icount"

br_metric_class_t br_metric_class_of(const br_run_record_t *run, br_metric_t metric)
{
	if (metric != BR_METRIC_COUNT)
		return BR_METRIC_EXACT;
	return strstr(run->unit, METRIC_EXACT_UNIT) != NULL ? BR_METRIC_EXACT : BR_METRIC_NOISY;
}

const char *br_metric_class_name(br_metric_class_t cls)
{
	return cls == BR_METRIC_EXACT ? "exact" : "noisy";
}

br_regression_limit_t br_metric_limit(const br_run_record_t *run, const char *metric_name)
{
	int i = br_regression_metric_index(metric_name);
	if (i >= 0 && run->regression.by_metric[i].set)
		return run->regression.by_metric[i];
	br_regression_limit_t l = {
	    .set = true, .has_percent = true, .percent = run->regression_percent};
	return l;
}

bool br_metric_beyond_limit(const br_regression_limit_t *limit, bool percent_defined,
                            double percent, double delta)
{
	if (limit->has_percent && percent_defined && !(percent > limit->percent))
		return false;
	if (limit->has_amount && !(delta > limit->amount))
		return false;
	return true;
}
