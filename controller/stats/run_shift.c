#include "stats/run_shift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/student_t.h"
#include "stats/summary.h"

/* y on the scale of the test: ln v, or v itself on the linear scale. */
static double run_scale(double v, bool log_scale)
{
	return log_scale ? log(v) : v;
}

/* An offset d on the test's scale, around the centre, back in the unit. */
static double run_unscale(double d, double centre, bool log_scale)
{
	return log_scale ? centre * expm1(d) : d;
}

double br_stats_run_median_variance(size_t k)
{
	return k <= 1U ? 1.0 : acos(-1.0) / (2.0 * (double)k);
}

/* The median of the new runs on the test's scale (sorted in place). */
static double run_fresh_centre(double *y, size_t n)
{
	for (size_t i = 1; i < n; i++) { /* insertion sort: a few runs */
		double v = y[i];
		size_t j = i;
		for (; j > 0 && y[j - 1U] > v; j--)
			y[j] = y[j - 1U];
		y[j] = v;
	}
	return br_stats_percentile_sorted(y, n, 50.0);
}

br_status_t br_stats_run_shift(const double *medians, const size_t *build, size_t k,
                               double new_median, double confidence, double resolution,
                               br_run_shift_t *out, br_error_t *err)
{
	return br_stats_run_shift_many(medians, build, k, &new_median, 1U, confidence, resolution,
	                               out, err);
}

br_status_t br_stats_run_shift_many(const double *medians, const size_t *build, size_t k,
                                    const double *fresh, size_t new_count, double confidence,
                                    double resolution, br_run_shift_t *out, br_error_t *err)
{
	if (k == 0)
		return br_error_set(err, BR_ERR_INPUT, "no baseline run to compare with");
	if (new_count == 0)
		return br_error_set(err, BR_ERR_INPUT, "no new run to compare");
	if (!(confidence > 0.0 && confidence < 1.0))
		return br_error_set(err, BR_ERR_INPUT, "confidence %g is outside (0, 1)",
		                    confidence);
	bool log_scale = true;
	for (size_t j = 0; j < new_count; j++) {
		if (!isfinite(fresh[j]))
			return br_error_set(err, BR_ERR_INPUT, "a run's median is not finite");
		log_scale = log_scale && fresh[j] > 0.0;
	}
	for (size_t i = 0; i < k; i++) {
		if (!isfinite(medians[i]))
			return br_error_set(err, BR_ERR_INPUT, "a run's median is not finite");
		log_scale = log_scale && medians[i] > 0.0;
	}
	double *y = xcalloc(new_count, sizeof(*y));
	for (size_t j = 0; j < new_count; j++)
		y[j] = run_scale(fresh[j], log_scale);
	double new_y = run_fresh_centre(y, new_count);
	free(y);
	double new_median = log_scale ? exp(new_y) : new_y;
	br_run_shift_t r;
	memset(&r, 0, sizeof(r));
	r.runs = k;
	/* pooled within-build sum of squares; the centre from the latest build */
	double ss = 0.0, centre_sum = 0.0;
	size_t builds = 0;
	bool all_same = true;
	for (size_t i = 0; i < k; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = build[j] == build[i];
		if (seen)
			continue;
		builds++;
		double sum = 0.0;
		size_t n = 0;
		for (size_t j = i; j < k; j++) {
			if (build[j] == build[i]) {
				sum += run_scale(medians[j], log_scale);
				n++;
			}
		}
		double mean = sum / (double)n;
		for (size_t j = i; j < k; j++) {
			if (build[j] == build[i]) {
				double dev = run_scale(medians[j], log_scale) - mean;
				ss += dev * dev;
			}
		}
		if (build[i] == build[k - 1U]) {
			centre_sum = mean;
			r.centre_runs = n;
		}
	}
	for (size_t i = 0; i < k; i++)
		all_same = all_same && medians[i] == fresh[0];
	for (size_t j = 0; j < new_count; j++)
		all_same = all_same && fresh[j] == fresh[0];
	r.new_runs = new_count;
	r.figure = new_median;
	r.df = k - builds;
	double centre_y = centre_sum;
	r.centre = log_scale ? exp(centre_y) : centre_y;
	r.spread = r.df > 0 ? sqrt(ss / (double)r.df) : (double)NAN;
	br_shift_t *s = &r.shift;
	s->n_first = k;
	s->n_second = new_count;
	s->confidence = confidence;
	double d = new_y - centre_y;
	s->estimate = new_median - r.centre;
	if (r.df == 0) {
		br_stats_shift_unbounded(s);
		*out = r;
		return BR_OK;
	}
	double se =
	    r.spread * sqrt(br_stats_run_median_variance(new_count) + 1.0 / (double)r.centre_runs);
	double tq = br_stats_student_two_sided(confidence, r.df);
	double h = tq * se;
	s->low = run_unscale(d - h, r.centre, log_scale);
	s->high = run_unscale(d + h, r.centre, log_scale);
	if (se > 0.0)
		s->p_value = 1.0 - br_stats_student_central(fabs(d) / se, r.df);
	else
		s->p_value = d == 0.0 ? 1.0 : 0.0;
	br_stats_shift_decide(s, resolution, all_same);
	*out = r;
	return BR_OK;
}
