#include "stats/paired_shift.h"

#include <math.h>
#include <string.h>

#include "stats/student_t.h"

br_status_t br_stats_paired_shift(const double *first, const double *second, size_t n,
                                  double confidence, double resolution, br_shift_t *out,
                                  br_error_t *err)
{
	if (n == 0)
		return br_error_set(err, BR_ERR_INPUT, "no pair of launches to compare");
	if (!(confidence > 0.0 && confidence < 1.0))
		return br_error_set(err, BR_ERR_INPUT, "confidence %g is outside (0, 1)",
		                    confidence);
	bool log_scale = true, all_equal = true;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(first[i]) || !isfinite(second[i]))
			return br_error_set(err, BR_ERR_INPUT, "a launch's median is not finite");
		log_scale = log_scale && first[i] > 0.0 && second[i] > 0.0;
		all_equal = all_equal && first[i] == second[i];
	}
	double ref = 0.0, mean = 0.0;
	for (size_t i = 0; i < n; i++) {
		ref += (log_scale ? log(first[i]) : first[i]) / (double)n;
		mean +=
		    (log_scale ? log(second[i]) - log(first[i]) : second[i] - first[i]) / (double)n;
	}
	ref = log_scale ? exp(ref) : ref;
	double ss = 0.0;
	for (size_t i = 0; i < n; i++) {
		double d = log_scale ? log(second[i]) - log(first[i]) : second[i] - first[i];
		ss += (d - mean) * (d - mean);
	}
	br_shift_t s;
	memset(&s, 0, sizeof(s));
	s.n_first = s.n_second = n;
	s.confidence = confidence;
	s.estimate = log_scale ? ref * expm1(mean) : mean;
	if (n < 2U) {
		br_stats_shift_unbounded(&s);
		*out = s;
		return BR_OK;
	}
	double se = sqrt(ss / (double)(n - 1U) / (double)n);
	double h = br_stats_student_two_sided(confidence, n - 1U) * se;
	s.low = log_scale ? ref * expm1(mean - h) : mean - h;
	s.high = log_scale ? ref * expm1(mean + h) : mean + h;
	if (se > 0.0)
		s.p_value = 1.0 - br_stats_student_central(fabs(mean) / se, n - 1U);
	else
		s.p_value = mean == 0.0 ? 1.0 : 0.0;
	br_stats_shift_decide(&s, resolution, all_equal);
	*out = s;
	return BR_OK;
}
