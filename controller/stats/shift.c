#include "stats/shift.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define SHIFT_BISECT_STEPS 200
#define SHIFT_Z_MAX 40.0
#define SHIFT_Z_TOLERANCE 1e-12
#define SHIFT_MAD_TO_SIGMA 1.4826
#define SHIFT_MIN_SAMPLES 2U

double br_stats_normal_two_sided(double confidence)
{
	if (!(confidence > 0.0 && confidence < 1.0))
		return (double)NAN;
	/* P(|Z| > z) = erfc(z / sqrt 2), decreasing in z */
	double tail = 1.0 - confidence;
	double lo = 0.0, hi = SHIFT_Z_MAX;
	for (int i = 0; i < SHIFT_BISECT_STEPS && hi - lo > SHIFT_Z_TOLERANCE; i++) {
		double mid = 0.5 * (lo + hi);
		if (erfc(mid / sqrt(2.0)) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

typedef struct shift_value {
	double x;
	int second; /* 1: from the second set */
} shift_value_t;

static int shift_value_order(const void *a, const void *b)
{
	double x = ((const shift_value_t *)a)->x, y = ((const shift_value_t *)b)->x;
	return (x > y) - (x < y);
}

static int shift_double_order(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* U of the second set (how many (i, j) have second[j] > first[i], ties
 * counted half) and the sum of t^3 - t over groups of t tied values. */
static void shift_rank_sum(const double *first, size_t n1, const double *second, size_t n2,
                           double *u_second, double *ties)
{
	size_t n = n1 + n2;
	shift_value_t *all = xcalloc(n, sizeof(*all));
	for (size_t i = 0; i < n1; i++)
		all[i] = (shift_value_t){first[i], 0};
	for (size_t j = 0; j < n2; j++)
		all[n1 + j] = (shift_value_t){second[j], 1};
	qsort(all, n, sizeof(*all), shift_value_order);
	double rank_sum = 0.0, t3 = 0.0;
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k < n && all[k].x == all[i].x)
			k++;
		double t = (double)(k - i);
		double mid_rank = (double)(i + 1U + k) / 2.0; /* ranks i+1 .. k */
		for (size_t m = i; m < k; m++)
			rank_sum += all[m].second ? mid_rank : 0.0;
		t3 += t * t * t - t;
		i = k;
	}
	free(all);
	*u_second = rank_sum - (double)n2 * ((double)n2 + 1.0) / 2.0;
	*ties = t3;
}

static br_status_t shift_check(const double *v, size_t n, const char *which, br_error_t *err)
{
	if (n == 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "the %s set has no samples: nothing to compare", which);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			return br_error_set(err, BR_ERR_INPUT,
			                    "sample %zu of the %s set is not a finite number", i,
			                    which);
	}
	return BR_OK;
}

br_status_t br_stats_shift(const double *first, size_t n1, const double *second, size_t n2,
                           double confidence, double resolution, br_shift_t *out, br_error_t *err)
{
	if (!(confidence > 0.0 && confidence < 1.0))
		return br_error_set(err, BR_ERR_INPUT,
		                    "confidence %g is not between 0 and 1 (e.g. 0.99)", confidence);
	br_status_t st = shift_check(first, n1, "first", err);
	if (st == BR_OK)
		st = shift_check(second, n2, "second", err);
	if (st != BR_OK)
		return st;

	br_shift_t s = {.n_first = n1, .n_second = n2, .confidence = confidence};
	double mn = (double)n1 * (double)n2, n = (double)(n1 + n2);
	double u, ties;
	shift_rank_sum(first, n1, second, n2, &u, &ties);
	double variance = mn / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
	double sd = variance > 0.0 ? sqrt(variance) : 0.0;
	if (sd > 0.0) {
		/* continuity-corrected: |U - mn/2| moves in steps of 1/2 */
		double z = fmax(0.0, fabs(u - mn / 2.0) - 0.5) / sd;
		s.p_value = erfc(z / sqrt(2.0));
	} else {
		s.p_value = 1.0; /* every value the same */
	}

	/* every pairwise difference, sorted: the estimate is their median, the
	 * interval the k-th from each end, k from U's distribution */
	size_t count = n1 * n2;
	double *d = xcalloc(count, sizeof(*d));
	for (size_t i = 0; i < n1; i++)
		for (size_t j = 0; j < n2; j++)
			d[i * n2 + j] = second[j] - first[i];
	qsort(d, count, sizeof(*d), shift_double_order);
	s.estimate = br_stats_percentile_sorted(d, count, 50.0);
	double zq = br_stats_normal_two_sided(confidence);
	double k = floor(mn / 2.0 - zq * sd);
	if (sd == 0.0) {
		s.bounded = true;
		s.low = s.high = d[0];
	} else if (k >= 0.0 && (size_t)k < count) {
		s.bounded = true;
		s.low = d[(size_t)k];
		s.high = d[count - 1U - (size_t)k];
	} else {
		s.low = -(double)INFINITY;
		s.high = (double)INFINITY;
	}
	free(d);

	double r = resolution > 0.0 ? resolution : 0.0;
	s.half_width = s.bounded ? fmax((s.high - s.low) / 2.0, r) : (double)INFINITY;
	if (sd == 0.0) /* every value of both sets the same */
		s.outcome = BR_SHIFT_EQUAL;
	else if (s.bounded && s.low > r)
		s.outcome = BR_SHIFT_HIGHER;
	else if (s.bounded && s.high < -r)
		s.outcome = BR_SHIFT_LOWER;
	else
		s.outcome = BR_SHIFT_CANT_TELL;
	*out = s;
	return BR_OK;
}

size_t br_stats_shift_samples_for(const br_shift_t *s, double target)
{
	double half = (s->high - s->low) / 2.0; /* the samples' own, without the resolution */
	if (!s->bounded || !(target > 0.0) || !isfinite(half))
		return SIZE_MAX;
	if (half <= target)
		return s->n_first > s->n_second ? s->n_first : s->n_second;
	/* half-width ~ sqrt(1/n1 + 1/n2); both sides m: sqrt(2/m) */
	double scale = half / target;
	double inv = 1.0 / (double)s->n_first + 1.0 / (double)s->n_second;
	double m = ceil(2.0 / (inv / (scale * scale)));
	return m >= (double)SIZE_MAX ? SIZE_MAX : (size_t)m;
}

size_t br_stats_samples_for_delta(const br_summary_t *s, double delta, double confidence)
{
	double z = br_stats_normal_two_sided(confidence);
	if (!(delta > 0.0) || isnan(z))
		return SIZE_MAX;
	/* a record read back has no stddev: cv_median times the median then */
	double sigma = s->mad > 0.0      ? SHIFT_MAD_TO_SIGMA * s->mad
	               : s->stddev > 0.0 ? s->stddev
	                                 : s->cv_median * fabs(s->median);
	if (sigma <= 0.0)
		return SHIFT_MIN_SAMPLES;
	double root = z * sigma * sqrt(acos(-1.0) / 3.0) / delta; /* pi = acos(-1) */
	double n = ceil(2.0 * root * root);
	if (n >= (double)SIZE_MAX)
		return SIZE_MAX;
	return n < (double)SHIFT_MIN_SAMPLES ? SHIFT_MIN_SAMPLES : (size_t)n;
}

const char *br_shift_outcome_name(br_shift_outcome_t outcome)
{
	switch (outcome) {
	case BR_SHIFT_CANT_TELL:
		return "can't tell";
	case BR_SHIFT_EQUAL:
		return "equal";
	case BR_SHIFT_HIGHER:
		return "higher";
	case BR_SHIFT_LOWER:
		return "lower";
	}
	return "unknown outcome";
}

void br_stats_shift_unbounded(br_shift_t *s)
{
	s->bounded = false;
	s->low = -(double)INFINITY;
	s->high = (double)INFINITY;
	s->half_width = (double)INFINITY;
	s->p_value = 1.0;
	s->outcome = BR_SHIFT_CANT_TELL;
}

void br_stats_shift_decide(br_shift_t *s, double resolution, bool all_equal)
{
	s->bounded = true;
	s->half_width = fmax((s->high - s->low) / 2.0, resolution);
	if (all_equal)
		s->outcome = BR_SHIFT_EQUAL;
	else if (s->low > resolution)
		s->outcome = BR_SHIFT_HIGHER;
	else if (s->high < -resolution)
		s->outcome = BR_SHIFT_LOWER;
	else
		s->outcome = BR_SHIFT_CANT_TELL;
}
