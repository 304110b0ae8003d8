#include "stats/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define BR_STATS_PERCENT_MAX 100.0

double br_stats_percentile_sorted(const double *sorted, size_t n, double p)
{
	if (n == 0 || isnan(p))
		return (double)NAN;
	if (p < 0.0)
		p = 0.0;
	if (p > BR_STATS_PERCENT_MAX)
		p = BR_STATS_PERCENT_MAX;

	double h = (double)(n - 1) * p / BR_STATS_PERCENT_MAX;
	double k = floor(h);
	size_t index = (size_t)k;
	if (index >= n - 1)
		return sorted[n - 1];
	return sorted[index] + (h - k) * (sorted[index + 1] - sorted[index]);
}

static int stats_compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a;
	double y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A sorted copy of n values; the caller frees it. */
static double *stats_sorted_copy(const double *values, size_t n)
{
	double *sorted = xcalloc(n, sizeof(*sorted));
	memcpy(sorted, values, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), stats_compare_doubles);
	return sorted;
}

/* Sample standard deviation about mean (two passes: no cancellation). */
static double stats_stddev(const double *values, size_t n, double mean)
{
	if (n < 2)
		return 0.0;
	double sum_squares = 0.0;
	for (size_t i = 0; i < n; i++) {
		double d = values[i] - mean;
		sum_squares += d * d;
	}
	return sqrt(sum_squares / (double)(n - 1));
}

/* stddev as a multiple of |median|, capped (see BR_STATS_CV_CAP). */
static double stats_cv_median(double stddev, double median)
{
	if (stddev == 0.0)
		return 0.0;
	if (median == 0.0)
		return BR_STATS_CV_CAP;
	double cv = stddev / fabs(median);
	return cv < BR_STATS_CV_CAP ? cv : BR_STATS_CV_CAP;
}

br_status_t br_stats_summarize(const double *samples, size_t n, br_summary_t *out, br_error_t *err)
{
	if (n == 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "no samples to summarize: measure at least one iteration "
		                    "after the warm-up");
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(samples[i]))
			return br_error_set(err, BR_ERR_INPUT,
			                    "sample %zu of %zu is not a finite number: the "
			                    "measurement is broken; report it",
			                    i, n);
	}

	double *sorted = stats_sorted_copy(samples, n);
	br_summary_t s = {.n = n, .min = sorted[0], .max = sorted[n - 1]};

	double sum = 0.0;
	for (size_t i = 0; i < n; i++)
		sum += sorted[i];
	s.mean = sum / (double)n;
	/* Rounding can put the mean of equal values a hair outside them. */
	s.mean = fmin(fmax(s.mean, s.min), s.max);
	s.median = br_stats_percentile_sorted(sorted, n, 50.0);
	s.p10 = br_stats_percentile_sorted(sorted, n, 10.0);
	s.p90 = br_stats_percentile_sorted(sorted, n, 90.0);
	s.p95 = br_stats_percentile_sorted(sorted, n, 95.0);
	s.p99 = br_stats_percentile_sorted(sorted, n, 99.0);
	s.stddev = stats_stddev(sorted, n, s.mean);
	s.cv_median = stats_cv_median(s.stddev, s.median);

	/* Reuse the copy for the absolute deviations from the median. */
	for (size_t i = 0; i < n; i++)
		sorted[i] = fabs(sorted[i] - s.median);
	qsort(sorted, n, sizeof(*sorted), stats_compare_doubles);
	s.mad = br_stats_percentile_sorted(sorted, n, 50.0);
	for (size_t i = 0; i < n; i++) {
		if (br_stats_is_outlier(&s, samples[i]))
			s.outliers++;
	}

	free(sorted);
	*out = s;
	return BR_OK;
}

bool br_stats_is_outlier(const br_summary_t *s, double x)
{
	return fabs(x - s->median) > BR_STATS_OUTLIER_MADS * s->mad;
}
