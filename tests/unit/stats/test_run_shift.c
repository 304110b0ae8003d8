/*
 * br_stats_run_shift (a new run against a baseline of several runs, the run
 * as the unit) and Student's t beneath it:
 * - t quantiles against the printed tables (Fisher & Yates; any statistics
 *   textbook): 63.657, 9.925, 5.841, 4.604, 3.250, 2.861 at 99 % two-sided
 *   for 1, 2, 3, 4, 9, 19 degrees of freedom, 12.706 and 2.262 at 95 %;
 * - hand-worked cases: five runs of one build, two builds pooled, one run
 *   (drift not known: can't tell), all equal, a resolution;
 * - synthetic runs with a drift between runs (each run's level log-normal
 *   about the figure, 3 % spread, 60 samples a run with 1 % noise about its
 *   level), 1,000 trials of a baseline of 10 runs against one new run:
 *   unchanged, the run test calls a change in at most 2 % (nominal 1 %),
 *   where the test on the samples of two runs (stats/shift.h) calls one in
 *   most trials (the drift it cannot see); +20 % is told apart in at least
 *   95 % of trials (measured 97.6 %); a shift of 3 and 5 between-run spreads (of the
 *   prediction, sigma sqrt(1 + 1/10)) in 0.46 and 0.90 of trials (within
 *   0.05), never much above what a z-test knowing sigma could do (0.66,
 *   0.99).
 * - several new runs (br_stats_run_shift_many, the median of k runs): a
 *   hand-worked case; the variance of the median of k normal draws
 *   (simulated, 20,000 draws) at most pi / (2k) and near the printed values
 *   0.5, 0.449, 0.298, 0.287 for k = 2..5; 1,000 trials of a baseline of 10
 *   runs against 5 new runs, with 4 % drift between runs (this host's) and
 *   with one launch in 60 starved to 1.8 times as slow: unchanged called
 *   higher in at most 1 % (the false FAIL's bound, one tail of 99 %), +20 %
 *   told apart in at least 99 % (measured 99.9 %) where one new run tells
 *   it in 82 %; with starved launches, in at least 75 % (82.6 %; one run:
 *   69.5 %: a starved launch among the baseline's runs widens their spread);
 *   a shift of 3 prediction spreads of the median of 5 at the documented
 *   power, 45 % (within 0.05; the interval is the conservative one).
 * - br_stats_paired_shift (interleaved launches, paired): a hand-worked
 *   case, fewer than 2 pairs, all equal; 1,000 trials of 8 pairs sharing a
 *   3 % drift per pair with 0.5 % between the two launches of a pair:
 *   unchanged called changed in at most 2 %, +5 % told apart in at least
 *   95 %.
 * The measured rates are printed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/paired_shift.h"
#include "stats/run_shift.h"
#include "stats/student_t.h"
#include "stats/summary.h"
#include "synthetic.h"

#define TRIALS 1000
#define RUNS 10U
#define SAMPLES 60U
#define DRIFT 0.03 /* between runs, relative */
#define NOISE 0.01 /* within a run, relative */
#define LEVEL 1000.0

static int near(double a, double b, double tolerance)
{
	return fabs(a - b) <= tolerance;
}

static void test_student(void)
{
	const struct {
		size_t df;
		double c, t;
	} table[] = {{1, 0.99, 63.657}, {2, 0.99, 9.925},  {3, 0.99, 5.841},  {4, 0.99, 4.604},
	             {9, 0.99, 3.250},  {19, 0.99, 2.861}, {1, 0.95, 12.706}, {9, 0.95, 2.262}};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		double t = br_stats_student_two_sided(table[i].c, table[i].df);
		CHECK_MSG(near(t, table[i].t, 0.0006), "df %zu at %g: %.4f, expected %.3f",
		          table[i].df, table[i].c, t, table[i].t);
	}
	/* df 1 is Cauchy: P(|T| <= 1) = 1/2 */
	CHECK(near(br_stats_student_central(1.0, 1), 0.5, 1e-12));
	/* df 2: P(|T| <= t) = t / sqrt(2 + t^2) */
	CHECK(near(br_stats_student_central(3.0, 2), 3.0 / sqrt(11.0), 1e-12));
	CHECK(br_stats_student_central(0.0, 5) == 0.0);
	CHECK(isnan(br_stats_student_two_sided(0.99, 0)));
	CHECK(isnan(br_stats_student_two_sided(1.0, 4)));
}

/* Five runs of one build, the hand-worked cases' baseline. */
static const double five_runs[] = {100, 104, 98, 102, 96};

/* Their logs' mean *m and standard deviation *s (df 4). */
static void five_runs_logs(double *m, double *s)
{
	double ss = 0.0;
	*m = 0.0;
	for (size_t i = 0; i < 5; i++)
		*m += log(five_runs[i]) / 5.0;
	for (size_t i = 0; i < 5; i++)
		ss += (log(five_runs[i]) - *m) * (log(five_runs[i]) - *m);
	*s = sqrt(ss / 4.0);
}

static void test_hand_worked(void)
{
	br_error_t err;
	br_run_shift_t r;
	/* five runs of one build; logs' mean m, sd s (df 4), centre e^m;
	 * the interval ln(new) - m +- 4.6041 s sqrt(1.2) */
	const double *runs = five_runs;
	const size_t one[] = {0, 0, 0, 0, 0};
	double m, s;
	five_runs_logs(&m, &s);
	double h = 4.604095 * s * sqrt(1.2);
	CHECK(br_stats_run_shift(runs, one, 5, 120, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.runs == 5 && r.centre_runs == 5 && r.df == 4);
	CHECK_MSG(near(r.centre, exp(m), 1e-9) && near(r.spread, s, 1e-12), "%g %g", r.centre,
	          r.spread);
	CHECK(near(r.shift.estimate, 120 - exp(m), 1e-9));
	CHECK_MSG(near(r.shift.low, exp(m) * (exp(log(120) - m - h) - 1), 1e-6) &&
	              near(r.shift.high, exp(m) * (exp(log(120) - m + h) - 1), 1e-6),
	          "%g..%g", r.shift.low, r.shift.high);
	/* 120 against about 100 with s of 3 %: the interval starts above 0 */
	CHECK(r.shift.bounded && r.shift.outcome == BR_SHIFT_HIGHER && r.shift.p_value < 0.01);
	/* 108: within the runs' own spread */
	CHECK(br_stats_run_shift(runs, one, 5, 108, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.shift.outcome == BR_SHIFT_CANT_TELL && r.shift.p_value > 0.01);
	CHECK(br_stats_run_shift(runs, one, 5, 80, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.shift.outcome == BR_SHIFT_LOWER);
	/* a resolution wider than the interval's reach past 0 */
	CHECK(br_stats_run_shift(runs, one, 5, 120, 0.99, 15.0, &r, &err) == BR_OK);
	CHECK_MSG(r.shift.outcome == BR_SHIFT_CANT_TELL, "low %g", r.shift.low);

	/* two builds: the spread pooled (each run about its own build's mean),
	 * the centre the latest build's: {100, 102} then {200, 204, 196} */
	const double two[] = {100, 102, 200, 204, 196};
	const size_t builds[] = {7, 7, 9, 9, 9};
	double m1 = (log(100) + log(102)) / 2, m2 = (log(200) + log(204) + log(196)) / 3;
	double ss2 = pow(log(100) - m1, 2) + pow(log(102) - m1, 2) + pow(log(200) - m2, 2) +
	             pow(log(204) - m2, 2) + pow(log(196) - m2, 2);
	CHECK(br_stats_run_shift(two, builds, 5, 200, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.df == 3 && r.centre_runs == 3 && near(r.centre, exp(m2), 1e-9));
	CHECK(near(r.spread, sqrt(ss2 / 3.0), 1e-12) && r.shift.outcome == BR_SHIFT_CANT_TELL);

	/* one run: the drift between runs is not known */
	CHECK(br_stats_run_shift(runs, one, 1, 500, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.df == 0 && !r.shift.bounded && isinf(r.shift.half_width) &&
	      r.shift.outcome == BR_SHIFT_CANT_TELL);
	/* one run of each build: no degree of freedom either */
	CHECK(br_stats_run_shift(two, builds, 3, 500, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.df == 1);
	const size_t each[] = {1, 2, 3};
	CHECK(br_stats_run_shift(two, each, 3, 500, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.df == 0 && r.shift.outcome == BR_SHIFT_CANT_TELL);
	/* every run and the new one the same value */
	const double same[] = {40, 40, 40};
	CHECK(br_stats_run_shift(same, one, 3, 40, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.shift.outcome == BR_SHIFT_EQUAL && r.shift.half_width == 0.0);
	/* not positive: the linear scale */
	const double zeros[] = {0, 1, -1};
	CHECK(br_stats_run_shift(zeros, one, 3, 0, 0.99, 0, &r, &err) == BR_OK);
	CHECK(near(r.centre, 0.0, 1e-12) && near(r.spread, 1.0, 1e-12));
	/* refused */
	CHECK(br_stats_run_shift(runs, one, 0, 1, 0.99, 0, &r, &err) == BR_ERR_INPUT);
	CHECK(br_stats_run_shift(runs, one, 5, (double)NAN, 0.99, 0, &r, &err) == BR_ERR_INPUT);
	CHECK(br_stats_run_shift(runs, one, 5, 1, 1.5, 0, &r, &err) == BR_ERR_INPUT);
}

/* One run at a level drawn with the drift, times ratio: its samples into
 * out (SAMPLES of them), its median returned. */
static double one_run(double ratio, double *out)
{
	double level = LEVEL * ratio * exp(DRIFT * normal());
	for (size_t i = 0; i < SAMPLES; i++)
		out[i] = level * (1.0 + NOISE * normal());
	br_summary_t s;
	br_error_t err;
	br_stats_summarize(out, SAMPLES, &s, &err);
	return s.median;
}

/* Over TRIALS baselines (samples_changed NULL: the samples' test not made,
 * it is the slow part) of RUNS runs and one new run times ratio: the share
 * the run test calls higher, lower, and the share the samples' test
 * (the last baseline run's samples against the new run's) calls a change. */
static void trials(double ratio, double *higher, double *lower, double *samples_changed)
{
	static double base[SAMPLES], head[SAMPLES];
	size_t hi = 0, lo = 0, changed = 0;
	const size_t builds[RUNS] = {0};
	for (int t = 0; t < TRIALS; t++) {
		double medians[RUNS];
		for (size_t i = 0; i < RUNS; i++)
			medians[i] = one_run(1.0, base);
		double m = one_run(ratio, head);
		br_run_shift_t r;
		br_shift_t s;
		br_error_t err;
		if (br_stats_run_shift(medians, builds, RUNS, m, BR_STATS_CONFIDENCE, 0, &r,
		                       &err) != BR_OK) {
			CHECK(0);
			continue;
		}
		hi += r.shift.outcome == BR_SHIFT_HIGHER;
		lo += r.shift.outcome == BR_SHIFT_LOWER;
		if (samples_changed == NULL)
			continue;
		if (br_stats_shift(base, SAMPLES, head, SAMPLES, BR_STATS_CONFIDENCE, 0, &s,
		                   &err) != BR_OK)
			CHECK(0);
		changed += s.outcome == BR_SHIFT_HIGHER || s.outcome == BR_SHIFT_LOWER;
	}
	*higher = (double)hi / TRIALS;
	*lower = (double)lo / TRIALS;
	if (samples_changed != NULL)
		*samples_changed = (double)changed / TRIALS;
}

static void test_synthetic(void)
{
	double hi, lo, changed;
	trials(1.0, &hi, &lo, &changed);
	printf("unchanged, drift %.0f %% between runs: the run test calls a change in %.1f %% "
	       "(higher %.1f %%), the samples' test in %.1f %%\n",
	       DRIFT * 100, (hi + lo) * 100, hi * 100, changed * 100);
	CHECK_MSG(hi + lo <= 0.02, "false alarms %.3f", hi + lo);
	CHECK_MSG(changed >= 0.5, "the samples' test under drift: %.3f", changed);
	trials(1.2, &hi, &lo, NULL);
	printf("+20 %%: told apart (higher) in %.1f %%\n", hi * 100);
	CHECK_MSG(hi >= 0.95 && lo == 0.0, "+20 %%: %.3f", hi);
	/* k spreads of the prediction: the new run's level sigma sqrt(1 + 1/RUNS)
	 * (sigma the median's between-run spread, drift and noise together) */
	double sigma = sqrt(DRIFT * DRIFT + NOISE * NOISE * 3.14159265 / 2.0 / SAMPLES);
	const double k[] = {3, 5}, documented[] = {0.46, 0.90};
	for (size_t i = 0; i < 2; i++) {
		double ratio = exp(k[i] * sigma * sqrt(1.0 + 1.0 / RUNS));
		trials(ratio, &hi, &lo, NULL);
		/* the z-test knowing sigma could do no better than Phi(k - 2.5758) */
		double bound = 0.5 * erfc(-(k[i] - 2.5758) / sqrt(2.0));
		printf("%.0f spreads: told apart in %.1f %% (documented %.0f %%; known sigma "
		       "%.0f %%)\n",
		       k[i], hi * 100, documented[i] * 100, bound * 100);
		CHECK_MSG(near(hi, documented[i], 0.05) && hi <= bound + 0.03, "%.0f: %.3f", k[i],
		          hi);
	}
}

/* The median of k standard normal draws: its variance over 20,000 draws. */
static double median_variance(size_t k)
{
	double sum = 0.0, sum2 = 0.0, v[8];
	const int draws = 20000;
	for (int t = 0; t < draws; t++) {
		for (size_t i = 0; i < k; i++)
			v[i] = normal();
		br_summary_t s;
		br_error_t err;
		br_stats_summarize(v, k, &s, &err);
		sum += s.median;
		sum2 += s.median * s.median;
	}
	return sum2 / draws - (sum / draws) * (sum / draws);
}

#define NEW_RUNS 5U
#define HOST_DRIFT 0.04 /* between runs, relative: this host's */

/* One launch's median: level drawn with drift, times ratio; one in 60
 * starved to 1.8 times as slow when starve. */
static double one_launch(double ratio, double drift, bool starve)
{
	double m = LEVEL * ratio * exp(drift * normal());
	return starve && uniform() < 1.0 / 60.0 ? 1.8 * m : m;
}

/* Over TRIALS baselines of RUNS launches, the share of new sets of `fresh`
 * launches times ratio that the run test calls higher. */
static double trials_many(double ratio, size_t fresh, double drift, bool starve)
{
	const size_t builds[RUNS] = {0};
	size_t hi = 0;
	for (int t = 0; t < TRIALS; t++) {
		double medians[RUNS], news[NEW_RUNS];
		for (size_t i = 0; i < RUNS; i++)
			medians[i] = one_launch(1.0, drift, starve);
		for (size_t i = 0; i < fresh; i++)
			news[i] = one_launch(ratio, drift, starve);
		br_run_shift_t r;
		br_error_t err;
		if (br_stats_run_shift_many(medians, builds, RUNS, news, fresh, BR_STATS_CONFIDENCE,
		                            0, &r, &err) != BR_OK) {
			CHECK(0);
			continue;
		}
		hi += r.shift.outcome == BR_SHIFT_HIGHER;
	}
	return (double)hi / TRIALS;
}

static void test_many(void)
{
	br_error_t err;
	br_run_shift_t r;
	/* five baseline runs; three new ones, median 120: the interval
	 * ln 120 - m +- 4.6041 s sqrt(pi/6 + 1/5) */
	const double *runs = five_runs, fresh[] = {125, 118, 120};
	const size_t one[] = {0, 0, 0, 0, 0};
	double m, sd;
	five_runs_logs(&m, &sd);
	double h = 4.604095 * sd * sqrt(acos(-1.0) / 6.0 + 0.2);
	CHECK(br_stats_run_shift_many(runs, one, 5, fresh, 3, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.new_runs == 3 && near(r.figure, 120.0, 1e-9) && r.shift.n_second == 3);
	CHECK_MSG(near(r.shift.low, exp(m) * (exp(log(120) - m - h) - 1), 1e-6) &&
	              near(r.shift.high, exp(m) * (exp(log(120) - m + h) - 1), 1e-6),
	          "%g..%g", r.shift.low, r.shift.high);
	CHECK(near(r.shift.estimate, 120 - exp(m), 1e-9));
	/* one new run: as br_stats_run_shift */
	br_run_shift_t single;
	CHECK(br_stats_run_shift(runs, one, 5, 120, 0.99, 0, &single, &err) == BR_OK);
	CHECK(br_stats_run_shift_many(runs, one, 5, &fresh[2], 1, 0.99, 0, &r, &err) == BR_OK);
	CHECK(r.shift.low == single.shift.low && r.shift.high == single.shift.high);
	CHECK(br_stats_run_shift_many(runs, one, 5, fresh, 0, 0.99, 0, &r, &err) == BR_ERR_INPUT);
	const double bad[] = {120, (double)INFINITY};
	CHECK(br_stats_run_shift_many(runs, one, 5, bad, 2, 0.99, 0, &r, &err) == BR_ERR_INPUT);

	/* the median's variance: below pi / (2k), near the printed values */
	const double printed[] = {0.5, 0.4487, 0.2982, 0.2868};
	for (size_t k = 2; k <= 5; k++) {
		double v = median_variance(k);
		printf("median of %zu normal draws: variance %.3f (printed %.3f, bound %.3f)\n", k,
		       v, printed[k - 2], br_stats_run_median_variance(k));
		CHECK_MSG(near(v, printed[k - 2], 0.02) && v < br_stats_run_median_variance(k),
		          "k %zu: %.3f", k, v);
	}
	CHECK(br_stats_run_median_variance(1) == 1.0 && br_stats_run_median_variance(0) == 1.0);

	for (int starve = 0; starve < 2; starve++) {
		const char *how = starve ? ", 1 launch in 60 starved" : "";
		double fa1 = trials_many(1.0, 1, HOST_DRIFT, starve);
		double fa5 = trials_many(1.0, NEW_RUNS, HOST_DRIFT, starve);
		double p1 = trials_many(1.2, 1, HOST_DRIFT, starve);
		double p5 = trials_many(1.2, NEW_RUNS, HOST_DRIFT, starve);
		printf("drift %.0f %%%s: unchanged called higher by 1 / %u new runs in %.1f / %.1f "
		       "%%; +20 %% told apart in %.1f / %.1f %%\n",
		       HOST_DRIFT * 100, how, NEW_RUNS, fa1 * 100, fa5 * 100, p1 * 100, p5 * 100);
		CHECK_MSG(fa5 <= 0.01, "false alarms, %u runs%s: %.3f", NEW_RUNS, how, fa5);
		/* a starved launch among the baseline's runs widens their spread
		 * (1 baseline in 7 holds one): calmer, so less power, never more
		 * false alarms */
		CHECK_MSG(p5 >= (starve ? 0.75 : 0.99) && p5 > p1 + 0.1,
		          "+20 %%%s: %.3f (one run %.3f)", how, p5, p1);
	}
	/* 3 prediction spreads of the median of 5: sigma sqrt(pi/10 + 1/RUNS) */
	double spread = HOST_DRIFT * sqrt(br_stats_run_median_variance(NEW_RUNS) + 1.0 / RUNS);
	double told = trials_many(exp(3.0 * spread), NEW_RUNS, HOST_DRIFT, false);
	printf("median of %u runs, 3 prediction spreads: told apart in %.1f %% (documented "
	       "45 %%)\n",
	       NEW_RUNS, told * 100);
	CHECK_MSG(near(told, 0.45, 0.05), "3 spreads: %.3f", told);
}

static void test_paired(void)
{
	br_error_t err;
	br_shift_t s;
	/* ratios 1.10, 1.12, 1.08, 1.10: logs' mean m, sd sd, df 3, t 5.8409 */
	const double a[] = {100, 200, 100, 50}, b[] = {110, 224, 108, 55};
	double d[4], m = 0, ss = 0, ref = 0;
	for (size_t i = 0; i < 4; i++) {
		d[i] = log(b[i] / a[i]);
		m += d[i] / 4;
		ref += log(a[i]) / 4;
	}
	for (size_t i = 0; i < 4; i++)
		ss += (d[i] - m) * (d[i] - m);
	double h = 5.840909 * sqrt(ss / 3.0 / 4.0);
	ref = exp(ref);
	CHECK(br_stats_paired_shift(a, b, 4, 0.99, 0, &s, &err) == BR_OK);
	CHECK_MSG(near(s.estimate, ref * expm1(m), 1e-9) && near(s.low, ref * expm1(m - h), 1e-6) &&
	              near(s.high, ref * expm1(m + h), 1e-6),
	          "%g %g %g", s.estimate, s.low, s.high);
	CHECK(s.outcome == BR_SHIFT_HIGHER && s.n_first == 4);
	CHECK(br_stats_paired_shift(b, a, 4, 0.99, 0, &s, &err) == BR_OK &&
	      s.outcome == BR_SHIFT_LOWER);
	CHECK(br_stats_paired_shift(a, b, 1, 0.99, 0, &s, &err) == BR_OK && !s.bounded &&
	      s.outcome == BR_SHIFT_CANT_TELL);
	CHECK(br_stats_paired_shift(a, a, 4, 0.99, 0, &s, &err) == BR_OK &&
	      s.outcome == BR_SHIFT_EQUAL);
	CHECK(br_stats_paired_shift(a, b, 0, 0.99, 0, &s, &err) == BR_ERR_INPUT);
	/* synthetic: a drift per pair on both launches, a little between them */
	const double ratio[] = {1.0, 1.05};
	for (size_t k = 0; k < 2; k++) {
		size_t changed = 0;
		for (int t = 0; t < TRIALS; t++) {
			double x[8], y[8];
			for (size_t i = 0; i < 8; i++) {
				double level = LEVEL * exp(DRIFT * normal());
				x[i] = level * exp(0.005 * normal());
				y[i] = level * ratio[k] * exp(0.005 * normal());
			}
			if (br_stats_paired_shift(x, y, 8, BR_STATS_CONFIDENCE, 0, &s, &err) !=
			    BR_OK)
				CHECK(0);
			changed += s.outcome == (k == 0 ? BR_SHIFT_LOWER : BR_SHIFT_HIGHER) ||
			           s.outcome == BR_SHIFT_HIGHER;
		}
		double rate = (double)changed / TRIALS;
		printf("paired, 8 pairs, %+.0f %%: called changed in %.1f %%\n",
		       (ratio[k] - 1) * 100, rate * 100);
		CHECK_MSG(k == 0 ? rate <= 0.02 : rate >= 0.95, "%.3f", rate);
	}
}

int main(void)
{
	test_student();
	test_hand_worked();
	test_synthetic();
	test_many();
	test_paired();
	return check_finish();
}
