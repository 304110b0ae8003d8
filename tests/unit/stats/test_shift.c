/*
 * br_stats_shift (Mann-Whitney U, Hodges-Lehmann shift and its interval):
 * hand-worked cases, then synthetic samples of a known distribution through
 * the library, as stats/shift.h documents them:
 * - false alarms: 1,000 trials of two sets of one normal distribution at
 *   BR_STATS_CONFIDENCE (99 %): at most 1 % of them may be called higher or
 *   lower; the test allows 2 % (the nominal 10 of 1,000 plus three binomial
 *   standard deviations, 3 x 3.1);
 * - power: the second set shifted by 2, 3 and 4 standard errors of the
 *   difference of means: told apart (as higher) in 0.25, 0.58 and 0.87 of
 *   trials at 30 samples a side, as documented; each measured rate must lie
 *   within 0.05 of that (more than three binomial standard deviations,
 *   0.015), within 0.08 of the large-sample theory (0.27, 0.64, 0.91), and
 *   never above what the z-test on the means itself could do;
 * - quantised samples (a clock of 10 ns steps, all ties): unchanged is
 *   never told apart, a step of one resolution never either, a large one is.
 * The measured rates are printed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "stats/shift.h"
#include "synthetic.h"

#define TRIALS 1000
#define SET 30

static int near(double a, double b, double tolerance)
{
	return fabs(a - b) <= tolerance;
}

static void test_hand_worked(void)
{
	br_error_t err;
	br_shift_t s;
	/* {1,2,3} vs {4,5,6}: differences 1,2,2,3,3,3,4,4,5 (median 3); U = 9,
	 * var = 9/12 * 7 = 5.25, z = (4.5 - 0.5) / 2.2913 = 1.7457,
	 * p = erfc(z / sqrt 2) = 0.08086. At 0.99, k = floor(4.5 - 2.5758 *
	 * 2.2913) < 0: unbounded. At 0.80, z = 1.2816, k = floor(1.563) = 1:
	 * [d(1), d(7)] = [2, 4]. */
	const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
	CHECK(br_stats_shift(a, 3, b, 3, 0.99, 0, &s, &err) == BR_OK);
	CHECK(s.estimate == 3.0 && !s.bounded && s.outcome == BR_SHIFT_CANT_TELL);
	CHECK_MSG(near(s.p_value, 0.08086, 1e-4), "p %g", s.p_value);
	CHECK(isinf(s.half_width));
	CHECK(br_stats_shift(a, 3, b, 3, 0.80, 0, &s, &err) == BR_OK);
	CHECK(s.bounded && s.low == 2.0 && s.high == 4.0 && s.half_width == 1.0);
	CHECK(s.outcome == BR_SHIFT_HIGHER);
	/* reversed: lower */
	CHECK(br_stats_shift(b, 3, a, 3, 0.80, 0, &s, &err) == BR_OK);
	CHECK(s.estimate == -3.0 && s.low == -4.0 && s.high == -2.0 && s.outcome == BR_SHIFT_LOWER);
	/* a resolution of 2: low 2 is not past it */
	CHECK(br_stats_shift(a, 3, b, 3, 0.80, 2.0, &s, &err) == BR_OK);
	CHECK(s.outcome == BR_SHIFT_CANT_TELL && s.half_width == 2.0);

	/* ties: {1,1,2} vs {2,3,3}: midranks 1.5 1.5 3.5 | 3.5 5.5 5.5, U =
	 * 14.5 - 6 = 8.5; three pairs tied, sum t^3 - t = 18; var = 9/12 *
	 * (7 - 18/30) = 4.8; z = (4 - 0.5) / 2.19089 = 1.59752, p = 0.11015 */
	const double c[] = {1, 1, 2}, d[] = {2, 3, 3};
	CHECK(br_stats_shift(c, 3, d, 3, 0.99, 0, &s, &err) == BR_OK);
	CHECK_MSG(near(s.p_value, 0.11015, 1e-4), "p %g", s.p_value);
	/* differences 1,2,2,1,2,2,0,1,1: median 1 */
	CHECK(s.estimate == 1.0);

	/* the same constant on both sides: equal */
	const double k5[] = {7, 7, 7, 7, 7};
	CHECK(br_stats_shift(k5, 5, k5, 5, 0.99, 0, &s, &err) == BR_OK);
	CHECK(s.outcome == BR_SHIFT_EQUAL && s.estimate == 0 && s.p_value == 1.0);
	/* two different constants: told apart at once once the sets are big enough */
	double x[20], y[20];
	for (int i = 0; i < 20; i++) {
		x[i] = 1000;
		y[i] = 1001;
	}
	CHECK(br_stats_shift(x, 20, y, 20, 0.99, 0, &s, &err) == BR_OK);
	CHECK(s.outcome == BR_SHIFT_HIGHER && s.estimate == 1.0 && s.low == 1.0 &&
	      s.p_value < 1e-6);

	/* bad input */
	const double bad[] = {1, (double)NAN};
	CHECK(br_stats_shift(bad, 2, a, 3, 0.99, 0, &s, &err) == BR_ERR_INPUT &&
	      strstr(err.message, "not a finite") != NULL);
	CHECK(br_stats_shift(a, 0, a, 3, 0.99, 0, &s, &err) == BR_ERR_INPUT);
	CHECK(br_stats_shift(a, 3, a, 3, 1.0, 0, &s, &err) == BR_ERR_INPUT);

	CHECK(near(br_stats_normal_two_sided(0.95), 1.959964, 1e-6));
	CHECK(near(br_stats_normal_two_sided(0.99), 2.575829, 1e-6));
	CHECK(isnan(br_stats_normal_two_sided(0.0)));
	CHECK(strcmp(br_shift_outcome_name(BR_SHIFT_CANT_TELL), "can't tell") == 0);
}

/* Over TRIALS pairs of sets of SET normal(mean, 1) draws, the second shifted
 * by shift: the share called higher and the share called lower. */
static void trials(double shift, double quantum, double *higher, double *lower)
{
	int hi = 0, lo = 0;
	double a[SET], b[SET];
	for (int t = 0; t < TRIALS; t++) {
		for (int i = 0; i < SET; i++) {
			a[i] = 100.0 + normal();
			b[i] = 100.0 + shift + normal();
			if (quantum > 0) {
				a[i] = quantum * floor(a[i] / quantum);
				b[i] = quantum * floor(b[i] / quantum);
			}
		}
		br_shift_t s;
		br_error_t err;
		if (br_stats_shift(a, SET, b, SET, BR_STATS_CONFIDENCE, quantum, &s, &err) != BR_OK)
			continue;
		hi += s.outcome == BR_SHIFT_HIGHER;
		lo += s.outcome == BR_SHIFT_LOWER;
	}
	*higher = (double)hi / TRIALS;
	*lower = (double)lo / TRIALS;
}

static void test_synthetic(void)
{
	/* standard error of the difference of two means of SET draws of sigma 1 */
	double se = sqrt(2.0 / SET);
	double hi, lo;
	trials(0.0, 0.0, &hi, &lo);
	printf("false alarms at %.0f %%: %.3f higher + %.3f lower = %.3f of %d trials "
	       "(bound 0.01, test allows 0.02)\n",
	       100 * BR_STATS_CONFIDENCE, hi, lo, hi + lo, TRIALS);
	CHECK(hi + lo <= 0.02);

	const double ses[] = {2.0, 3.0, 4.0};
	const double documented[] = {0.25, 0.58, 0.87}; /* at SET a side (stats/shift.h) */
	const double theory[] = {0.27, 0.64, 0.91};     /* large-sample */
	double z = br_stats_normal_two_sided(BR_STATS_CONFIDENCE);
	for (int i = 0; i < 3; i++) {
		trials(ses[i] * se, 0.0, &hi, &lo);
		/* the z-test on the means, the best any test could do here */
		double ztest = 0.5 * erfc((z - ses[i]) / sqrt(2.0));
		printf("shift of %.0f standard errors: told apart in %.3f (documented %.2f, "
		       "z-test %.3f), wrong way %.3f\n",
		       ses[i], hi, documented[i], ztest, lo);
		CHECK_MSG(near(hi, documented[i], 0.05), "%.0f SE: %.3f vs %.2f", ses[i], hi,
		          documented[i]);
		CHECK_MSG(near(hi, theory[i], 0.08), "%.0f SE: %.3f vs theory %.2f", ses[i], hi,
		          theory[i]);
		CHECK(hi <= ztest + 0.05);
		CHECK(lo == 0.0);
	}

	/* a clock of 10-unit steps (samples of sigma 1 around 100: two or three
	 * values, nearly all ties) */
	trials(0.0, 10.0, &hi, &lo);
	printf("quantised, unchanged: %.3f told apart\n", hi + lo);
	CHECK(hi + lo == 0.0);
	trials(10.0, 10.0, &hi, &lo);
	printf("quantised, one step of resolution: %.3f told apart\n", hi + lo);
	CHECK(hi + lo == 0.0);
	trials(25.0, 10.0, &hi, &lo);
	printf("quantised, 2.5 steps: %.3f told apart\n", hi);
	CHECK(hi == 1.0);
}

static void test_samples_for(void)
{
	br_shift_t s = {.n_first = 20, .n_second = 20, .bounded = true, .half_width = 4.0,
			.low = -4.0, .high = 4.0};
	/* half-width ~ sqrt(2/m): halving it takes four times the samples */
	CHECK(br_stats_shift_samples_for(&s, 2.0) == 80);
	CHECK(br_stats_shift_samples_for(&s, 4.0) == 20);
	CHECK(br_stats_shift_samples_for(&s, 0.0) == SIZE_MAX);
	s.bounded = false;
	CHECK(br_stats_shift_samples_for(&s, 1.0) == SIZE_MAX);

	/* sigma 1 (MAD 1/1.4826), delta 0.5 at 99 %: 2 (2.5758 * 1.02333 / 0.5)^2
	 * = 55.59 -> 56 */
	br_summary_t sum = {.n = 30, .mad = 1.0 / 1.4826, .stddev = 1.0};
	CHECK_MSG(br_stats_samples_for_delta(&sum, 0.5, 0.99) == 56, "%zu",
	          br_stats_samples_for_delta(&sum, 0.5, 0.99));
	sum.mad = 0.0;
	sum.stddev = 0.0;
	CHECK(br_stats_samples_for_delta(&sum, 0.5, 0.99) == 2);
	CHECK(br_stats_samples_for_delta(&sum, 0.0, 0.99) == SIZE_MAX);

	/* the rule predicts what the library then does: at the suggested n,
	 * normal sets of sigma 1 have a half-width near 0.5 */
	sum.mad = 1.0 / 1.4826;
	sum.stddev = 1.0;
	size_t n = br_stats_samples_for_delta(&sum, 0.5, 0.99);
	double a[56], b[56];
	double total = 0;
	for (int t = 0; t < 200; t++) {
		for (size_t i = 0; i < n; i++) {
			a[i] = normal();
			b[i] = normal();
		}
		br_shift_t r;
		br_error_t err;
		CHECK(br_stats_shift(a, n, b, n, 0.99, 0, &r, &err) == BR_OK);
		total += r.half_width;
	}
	printf("mean half-width at n = %zu: %.3f (asked 0.5)\n", n, total / 200);
	CHECK(near(total / 200, 0.5, 0.05));
}

int main(void)
{
	test_hand_worked();
	test_synthetic();
	test_samples_for();
	return check_finish();
}
