/*
 * The one implementation of every summary of a set of samples (DESIGN.md,
 * "Statistics"): median, percentiles, spread, outliers. Every figure the
 * tool prints or gates on comes from here.
 */
#ifndef BENCHRACK_STATS_SUMMARY_H
#define BENCHRACK_STATS_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/*
 * The cap on cv_median: a standard deviation of at least 10 times the median
 * is reported as 10, since past that the spread swamps the value and the
 * exact ratio means nothing (and a median near zero would print as a
 * meaningless huge percentage). Output layers print it as ">= 1000%".
 */
#define BR_STATS_CV_CAP 10.0

/*
 * Samples farther than this many MADs (unscaled) from the median are counted
 * as outliers. 5 unscaled MADs is about 3.4 standard deviations of normal
 * data (MAD = 0.6745 sigma there), so a well-behaved run shows none.
 */
#define BR_STATS_OUTLIER_MADS 5.0

typedef struct br_summary {
	size_t n;
	double min, max, mean, median, p10, p90, p95, p99;
	double mad;       /* median absolute deviation from the median (unscaled) */
	double stddev;    /* sample standard deviation (n - 1); 0 for n == 1 */
	double cv_median; /* stddev / |median|, capped at BR_STATS_CV_CAP; for median == 0 it
	                     is 0 when stddev == 0 and the cap otherwise */
	size_t outliers;  /* samples with |x - median| > BR_STATS_OUTLIER_MADS * mad; when
	                     mad == 0 (more than half the samples equal the median) that is
	                     every sample that differs from the median at all */
} br_summary_t;

/*
 * Summarizes n samples into *out. Percentiles (median = p50, p10, p90, p95,
 * p99, and the median of the absolute deviations for mad) all follow
 * br_stats_percentile_sorted. samples is only read (a sorted copy is made
 * and freed). Returns BR_OK, or BR_ERR_INPUT for n == 0 or a sample that is
 * not a finite number (NaN or infinity), leaving *out untouched.
 */
br_status_t br_stats_summarize(const double *samples, size_t n, br_summary_t *out, br_error_t *err);

/*
 * True when x is an outlier of the samples s summarizes: |x - median| >
 * BR_STATS_OUTLIER_MADS * mad (with mad == 0, any x other than the median).
 * br_stats_summarize counts outliers with this very test.
 */
bool br_stats_is_outlier(const br_summary_t *s, double x);

/*
 * The p-th percentile (p in percent, 0..100) of n values sorted ascending,
 * by linear interpolation between the closest ranks (Hyndman & Fan 1996,
 * type 7; R's default, numpy's "linear"): with h = (n - 1) * p / 100 and
 * k = floor(h), the result is sorted[k] + (h - k) * (sorted[k + 1] - sorted[k]).
 * So p = 0 is the minimum, p = 100 the maximum, p = 50 the usual median
 * (the middle value for odd n, the mean of the two middle ones for even n).
 * p below 0 or above 100 is clamped; p NaN or n == 0 gives NaN.
 */
double br_stats_percentile_sorted(const double *sorted, size_t n, double p);

#endif
