/*
 * br_stats_summarize and br_stats_percentile_sorted against tables computed
 * by hand. Percentiles are Hyndman-Fan type 7: h = (n - 1) * p / 100,
 * value = s[floor(h)] + frac(h) * (s[floor(h) + 1] - s[floor(h)]) on the
 * sorted samples s. MAD is the (type 7) median of |x - median|. stddev uses
 * n - 1. Outliers: |x - median| > 5 * MAD.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "stats/summary.h"

#define MAX_SAMPLES 20U
#define TOLERANCE 1e-9

/* Equal to a relative tolerance (exact for the integers most rows hold). */
static bool near(double a, double b)
{
	return fabs(a - b) <= TOLERANCE * fmax(1.0, fmax(fabs(a), fabs(b)));
}

typedef struct summary_case {
	const char *name;
	size_t n;
	double samples[MAX_SAMPLES];
	br_summary_t want;
} summary_case_t;

/* Expected summaries, one row each: n, min, max, mean, median, p10, p90, p95,
 * p99, mad, stddev, cv_median, outliers (the field order of br_summary_t). */
/* clang-format off */
static const summary_case_t summary_cases[] = {
	/* n = 1: every figure is the sample; no spread. */
	{"n = 1", 1, {7},
	 {1, 7, 7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 0}},
	/*
	 * n = 2, given out of order {20, 10}: s = 10, 20; h = p / 100.
	 * median h=.5 -> 15; p10 h=.1 -> 11; p90 h=.9 -> 19; p95 -> 19.5; p99 -> 19.9.
	 * mean 15. |x - 15| = 5, 5 -> MAD 5. stddev = sqrt((25 + 25) / 1) = 7.0710678118654755.
	 * cv = 7.0710678118654755 / 15 = 0.4714045207910317. Limit 25: no outlier.
	 */
	{"n = 2", 2, {20, 10},
	 {2, 10, 20, 15, 15, 11, 19, 19.5, 19.9, 5, 7.0710678118654755, 0.4714045207910317, 0}},
	/*
	 * odd n = 5, {5, 1, 4, 2, 3}: s = 1..5; h = 4p / 100.
	 * median h=2 -> 3; p10 h=.4 -> 1.4; p90 h=3.6 -> 4.6; p95 h=3.8 -> 4.8;
	 * p99 h=3.96 -> 4.96. mean 3. |x - 3| sorted 0,1,1,2,2 -> MAD 1.
	 * stddev = sqrt((4+1+0+1+4) / 4) = sqrt(2.5) = 1.5811388300841898;
	 * cv = 1.5811388300841898 / 3 = 0.5270462766947299. Limit 5: none.
	 */
	{"odd n", 5, {5, 1, 4, 2, 3},
	 {5, 1, 5, 3, 3, 1.4, 4.6, 4.8, 4.96, 1, 1.5811388300841898, 0.5270462766947299, 0}},
	/*
	 * even n = 4, {4, 3, 2, 1}: s = 1..4; h = 3p / 100.
	 * median h=1.5 -> 2.5 (mean of the middle two); p10 h=.3 -> 1.3;
	 * p90 h=2.7 -> 3.7; p95 h=2.85 -> 3.85; p99 h=2.97 -> 3.97. mean 2.5.
	 * |x - 2.5| sorted .5,.5,1.5,1.5 -> MAD (h=1.5) = 1.
	 * stddev = sqrt((2.25+.25+.25+2.25) / 3) = sqrt(5/3) = 1.2909944487358056;
	 * cv = 1.2909944487358056 / 2.5 = 0.5163977794943222. Limit 5: none.
	 */
	{"even n", 4, {4, 3, 2, 1},
	 {4, 1, 4, 2.5, 2.5, 1.3, 3.7, 3.85, 3.97, 1, 1.2909944487358056, 0.5163977794943222, 0}},
	/*
	 * ties, {5, 2, 5, 2, 2}: s = 2,2,2,5,5; h = 4p / 100.
	 * median h=2 -> 2; p10 h=.4 -> 2; p90 h=3.6 -> 5; p95, p99 -> 5. mean 16/5 = 3.2.
	 * |x - 2| = 0,0,0,3,3 -> MAD 0: the rule for MAD 0 counts every sample
	 * that differs from the median: 2 outliers.
	 * stddev: (x - 3.2) = -1.2 x3, 1.8 x2: 3 * 1.44 + 2 * 3.24 = 10.8; /4 = 2.7;
	 * sqrt = 1.6431676725154984; cv = 1.6431676725154984 / 2 = 0.8215838362577492.
	 */
	{"ties", 5, {5, 2, 5, 2, 2},
	 {5, 2, 5, 3.2, 2, 2, 5, 5, 5, 0, 1.6431676725154984, 0.8215838362577492, 2}},
	/* all equal (QEMU's exact counts): everything 42, no spread, no outlier. */
	{"all equal", 6, {42, 42, 42, 42, 42, 42},
	 {6, 42, 42, 42, 42, 42, 42, 42, 42, 0, 0, 0, 0}},
	/*
	 * one huge outlier: 100..118 (19 samples) and 10000, n = 20; h = 19p / 100.
	 * median h=9.5 -> (109 + 110) / 2 = 109.5, the same as for 100..119 without
	 * the outlier: unmoved. p10 h=1.9 -> 101.9; p90 h=17.1 -> 117.1 (unmoved too).
	 * p95 h=18.05 -> 118 + .05 * 9882 = 612.1; p99 h=18.81 -> 118 + .81 * 9882 =
	 * 8122.42; max 10000: these show it. mean (2071 + 10000) / 20 = 603.55.
	 * |x - 109.5|: 0.5,0.5,1.5,1.5,...,8.5,8.5 (18), 9.5, 9890.5; the middle two
	 * (indexes 9, 10) are 4.5 and 5.5 -> MAD 5; limit 25: 1 outlier.
	 * stddev: sum of (x - 603.55)^2 = 92940856.95; /19 = 4891624.05;
	 * sqrt = 2211.7016186637834; cv = 2211.70 / 109.5 = 20.2 -> capped at 10.
	 */
	{"one huge outlier", 20,
	 {100, 101, 102, 103, 104, 105, 106, 107, 108, 109,
	  110, 111, 112, 113, 114, 115, 116, 117, 118, 10000},
	 {20, 100, 10000, 603.55, 109.5, 101.9, 117.1, 612.1, 8122.42, 5, 2211.7016186637834,
	  BR_STATS_CV_CAP, 1}},
	/*
	 * median zero with spread, {0, 1000, 0, 0}: s = 0,0,0,1000; h = 3p / 100.
	 * median h=1.5 -> 0; p10 -> 0; p90 h=2.7 -> 700; p95 h=2.85 -> 850;
	 * p99 h=2.97 -> 970. mean 250. MAD 0 -> 1 outlier (the 1000).
	 * stddev = sqrt((3 * 62500 + 562500) / 3) = sqrt(250000) = 500;
	 * cv: median 0 and stddev > 0 -> the cap.
	 */
	{"zero median, spread", 4, {0, 1000, 0, 0},
	 {4, 0, 1000, 250, 0, 0, 700, 850, 970, 0, 500, BR_STATS_CV_CAP, 1}},
	/* zero median, no spread, {0, 0}: cv is 0, not the cap. */
	{"all zero", 2, {0, 0},
	 {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	/*
	 * negative values, {-3, -1, -2}: s = -3,-2,-1; h = 2p / 100. median -2;
	 * p10 h=.2 -> -2.8; p90 h=1.8 -> -1.2; p95 h=1.9 -> -1.1; p99 h=1.98 -> -1.02.
	 * mean -2; |x + 2| = 1,0,1 -> MAD 1. stddev sqrt((1+0+1) / 2) = 1;
	 * cv = 1 / |-2| = 0.5.
	 */
	{"negative", 3, {-3, -1, -2},
	 {3, -3, -1, -2, -2, -2.8, -1.2, -1.1, -1.02, 1, 1, 0.5, 0}},
};
/* clang-format on */

#define CHECK_FIELD(c, got, field)                                                                 \
	CHECK_MSG(near((got).field, (c)->want.field), "%s: " #field " = %.17g, want %.17g",        \
	          (c)->name, (got).field, (c)->want.field)

static void test_summary_cases(void)
{
	for (size_t i = 0; i < sizeof(summary_cases) / sizeof(summary_cases[0]); i++) {
		const summary_case_t *c = &summary_cases[i];
		double input[MAX_SAMPLES];
		memcpy(input, c->samples, sizeof(input));
		br_summary_t got;
		br_error_t err;
		br_error_clear(&err);
		br_status_t status = br_stats_summarize(input, c->n, &got, &err);
		CHECK_MSG(status == BR_OK, "%s: %s", c->name, err.message);
		if (status != BR_OK)
			continue;
		CHECK_MSG(memcmp(input, c->samples, sizeof(input)) == 0, "%s: samples modified",
		          c->name);
		CHECK_MSG(got.n == c->want.n, "%s: n = %zu", c->name, got.n);
		CHECK_FIELD(c, got, min);
		CHECK_FIELD(c, got, max);
		CHECK_FIELD(c, got, mean);
		CHECK_FIELD(c, got, median);
		CHECK_FIELD(c, got, p10);
		CHECK_FIELD(c, got, p90);
		CHECK_FIELD(c, got, p95);
		CHECK_FIELD(c, got, p99);
		CHECK_FIELD(c, got, mad);
		CHECK_FIELD(c, got, stddev);
		CHECK_FIELD(c, got, cv_median);
		CHECK_MSG(got.outliers == c->want.outliers, "%s: outliers = %zu, want %zu", c->name,
		          got.outliers, c->want.outliers);
	}
}

/* Many equal non-integers: rounding must not put the mean outside them. */
static void test_summary_mean_of_equal_fractions(void)
{
	double samples[MAX_SAMPLES];
	for (size_t i = 0; i < MAX_SAMPLES; i++)
		samples[i] = 0.1;
	br_summary_t got;
	CHECK(br_stats_summarize(samples, MAX_SAMPLES, &got, NULL) == BR_OK);
	CHECK(got.mean == 0.1);
	CHECK(got.stddev == 0.0);
	CHECK(got.cv_median == 0.0);
}

static void test_summary_errors(void)
{
	static const double samples[] = {1, 2, 3};
	br_summary_t got = {.n = 99};
	br_error_t err;

	/* n == 0 is an error, and *out is left alone. */
	br_error_clear(&err);
	CHECK(br_stats_summarize(samples, 0, &got, &err) == BR_ERR_INPUT);
	CHECK(err.status == BR_ERR_INPUT);
	CHECK(strstr(err.message, "no samples") != NULL);
	CHECK(got.n == 99);

	/* Not-a-number and infinite samples are refused, naming the sample. */
	const double not_finite[] = {(double)NAN, (double)INFINITY, -(double)INFINITY};
	for (size_t i = 0; i < sizeof(not_finite) / sizeof(not_finite[0]); i++) {
		double bad[] = {1, not_finite[i], 3};
		br_error_clear(&err);
		CHECK(br_stats_summarize(bad, 3, &got, &err) == BR_ERR_INPUT);
		CHECK_MSG(strstr(err.message, "sample 1 of 3") != NULL, "%s", err.message);
		CHECK(got.n == 99);
	}
}

typedef struct percentile_case {
	const char *name;
	size_t n;
	double sorted[MAX_SAMPLES];
	double p;
	double want;
} percentile_case_t;

static const percentile_case_t percentile_cases[] = {
    /* p = 0 is the minimum, p = 100 the maximum. */
    {"p=0", 4, {10, 20, 30, 40}, 0, 10},
    {"p=100", 4, {10, 20, 30, 40}, 100, 40},
    /* Out of range p is clamped. */
    {"p<0", 4, {10, 20, 30, 40}, -5, 10},
    {"p>100", 4, {10, 20, 30, 40}, 250, 40},
    /* h = 3 * 25 / 100 = .75 -> 10 + .75 * 10 = 17.5. */
    {"p=25", 4, {10, 20, 30, 40}, 25, 17.5},
    /* h = 3 * 50 / 100 = 1.5 -> 25. */
    {"p=50 even", 4, {10, 20, 30, 40}, 50, 25},
    /* h = 4 * 50 / 100 = 2 -> 30 exactly. */
    {"p=50 odd", 5, {10, 20, 30, 40, 50}, 50, 30},
    /* h = 4 * 99.9 / 100 = 3.996 -> 40 + .996 * 10 = 49.96. */
    {"p=99.9", 5, {10, 20, 30, 40, 50}, 99.9, 49.96},
    /* n = 1: any p is the one value. */
    {"n=1 p=0", 1, {7}, 0, 7},
    {"n=1 p=50", 1, {7}, 50, 7},
    {"n=1 p=100", 1, {7}, 100, 7},
    /* Equal neighbours: no interpolation artefacts. */
    {"ties", 4, {3, 3, 3, 3}, 37, 3},
};

static void test_percentile_cases(void)
{
	for (size_t i = 0; i < sizeof(percentile_cases) / sizeof(percentile_cases[0]); i++) {
		const percentile_case_t *c = &percentile_cases[i];
		double got = br_stats_percentile_sorted(c->sorted, c->n, c->p);
		CHECK_MSG(near(got, c->want), "%s: got %.17g, want %.17g", c->name, got, c->want);
	}
	/* No values, or p not a number: NaN. */
	static const double one[] = {1};
	CHECK(isnan(br_stats_percentile_sorted(one, 0, 50)));
	CHECK(isnan(br_stats_percentile_sorted(one, 1, (double)NAN)));
}

int main(void)
{
	test_summary_cases();
	test_summary_mean_of_equal_fractions();
	test_summary_errors();
	test_percentile_cases();
	return check_finish();
}
