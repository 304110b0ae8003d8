/*
 * br_stats_compare, br_stats_verdict_name and br_stats_percent_change
 * against hand-worked cases. overlap = max(0, min(a.p90, b.p90) -
 * max(a.p10, b.p10)); gap = |a.median - b.median|; not distinguishable when
 * overlap > gap; equal when both are the same constant. Lower is better.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "stats/compare.h"

/* Only the band and the median matter to a verdict. */
static br_summary_t band(double p10, double median, double p90)
{
	br_summary_t s = {.n = 1, .p10 = p10, .median = median, .p90 = p90};
	return s;
}

typedef struct compare_case {
	const char *name;
	br_summary_t first, second;
	br_verdict_t want;
	double overlap, gap;
} compare_case_t;

static const char *verdict(br_verdict_t v)
{
	return br_stats_verdict_name(v);
}

static void test_compare_cases(void)
{
	const compare_case_t cases[] = {
	    /* overlap min(110,115) - max(90,95) = 15 > gap |100-102| = 2. */
	    {"overlapping", band(90, 100, 110), band(95, 102, 115), BR_VERDICT_NOT_DISTINGUISHABLE,
	     15, 2},
	    /* disjoint: overlap max(0, 110 - 120) = 0, gap 30: the lower median wins. */
	    {"disjoint", band(90, 100, 110), band(120, 130, 140), BR_VERDICT_FIRST_LOWER, 0, 30},
	    {"disjoint, reversed", band(120, 130, 140), band(90, 100, 110), BR_VERDICT_SECOND_LOWER,
	     0, 30},
	    /* some overlap, less than the gap: 110 - 105 = 5 < 15. */
	    {"small overlap", band(90, 100, 110), band(105, 115, 125), BR_VERDICT_FIRST_LOWER, 5,
	     15},
	    /* overlap equal to the gap is not "more than": 110 - 100 = 10 = 10. */
	    {"overlap == gap", band(90, 100, 110), band(100, 110, 120), BR_VERDICT_FIRST_LOWER, 10,
	     10},
	    /* one band inside the other: overlap min(130,120) - max(70,100) = 20 > gap 10. */
	    {"nested", band(70, 100, 130), band(100, 110, 120), BR_VERDICT_NOT_DISTINGUISHABLE, 20,
	     10},
	    /* the same constant: equal. */
	    {"equal constants", band(50, 50, 50), band(50, 50, 50), BR_VERDICT_EQUAL, 0, 0},
	    /* equal medians with spread: no winner, and not "equal" either. */
	    {"equal medians, spread", band(90, 100, 110), band(95, 100, 105),
	     BR_VERDICT_NOT_DISTINGUISHABLE, 10, 0},
	    /* one zero-width band, equal medians: overlap 0, gap 0 -> not distinguishable. */
	    {"one zero-width, same median", band(100, 100, 100), band(90, 100, 110),
	     BR_VERDICT_NOT_DISTINGUISHABLE, 0, 0},
	    /* one zero-width band inside the other, medians apart: overlap min(100,110) -
	       max(100,90) = 0 < gap 1 -> the constant one is lower. */
	    {"one zero-width, lower", band(100, 100, 100), band(90, 101, 110),
	     BR_VERDICT_FIRST_LOWER, 0, 1},
	    {"one zero-width, higher", band(90, 99, 110), band(100, 100, 100),
	     BR_VERDICT_FIRST_LOWER, 0, 1},
	    /* two different constants: overlap 0, gap 1. */
	    {"different constants", band(101, 101, 101), band(100, 100, 100),
	     BR_VERDICT_SECOND_LOWER, 0, 1},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const compare_case_t *c = &cases[i];
		br_stats_bands_t bands;
		br_verdict_t got = br_stats_compare(&c->first, &c->second, &bands);
		CHECK_MSG(got == c->want, "%s: %s, want %s", c->name, verdict(got),
		          verdict(c->want));
		CHECK_MSG(bands.overlap == c->overlap && bands.gap == c->gap,
		          "%s: overlap %g gap %g, want %g %g", c->name, bands.overlap, bands.gap,
		          c->overlap, c->gap);
		/* NULL bands is allowed and changes nothing. */
		CHECK(br_stats_compare(&c->first, &c->second, NULL) == got);
	}
}

/* From samples to verdict, through br_stats_summarize. */
static void test_compare_summaries(void)
{
	/* 1..10 and 2..11: p10 1.9 / 2.9, p90 9.1 / 10.1, medians 5.5 / 6.5:
	   overlap 9.1 - 2.9 = 6.2 > gap 1 -> not distinguishable. */
	const double a[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	const double b[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
	/* QEMU-like exact counts: 1000 x5 and 1003 x5 -> constant bands. */
	const double c[] = {1000, 1000, 1000, 1000, 1000};
	const double d[] = {1003, 1003, 1003, 1003, 1003};
	br_summary_t sa, sb, sc, sd;
	CHECK(br_stats_summarize(a, 10, &sa, NULL) == BR_OK);
	CHECK(br_stats_summarize(b, 10, &sb, NULL) == BR_OK);
	CHECK(br_stats_summarize(c, 5, &sc, NULL) == BR_OK);
	CHECK(br_stats_summarize(d, 5, &sd, NULL) == BR_OK);
	CHECK(br_stats_compare(&sa, &sb, NULL) == BR_VERDICT_NOT_DISTINGUISHABLE);
	CHECK(br_stats_compare(&sc, &sd, NULL) == BR_VERDICT_FIRST_LOWER);
	CHECK(br_stats_compare(&sd, &sc, NULL) == BR_VERDICT_SECOND_LOWER);
	CHECK(br_stats_compare(&sc, &sc, NULL) == BR_VERDICT_EQUAL);
}

static void test_verdict_names(void)
{
	CHECK(strcmp(br_stats_verdict_name(BR_VERDICT_EQUAL), "equal") == 0);
	CHECK(strcmp(br_stats_verdict_name(BR_VERDICT_NOT_DISTINGUISHABLE),
	             "not distinguishable") == 0);
	CHECK(strcmp(br_stats_verdict_name(BR_VERDICT_FIRST_LOWER), "first lower") == 0);
	CHECK(strcmp(br_stats_verdict_name(BR_VERDICT_SECOND_LOWER), "second lower") == 0);
}

typedef struct percent_case {
	const char *name;
	double old_value, new_value;
	bool defined;
	double want;
} percent_case_t;

static void test_percent_change(void)
{
	const percent_case_t cases[] = {
	    /* 100 * (110 - 100) / 100 = +10: worse. */
	    {"growth", 100, 110, true, 10},
	    {"shrink", 100, 90, true, -10},
	    {"same", 250, 250, true, 0},
	    /* 100 * (1001 - 1000) / 1000 = 0.1. */
	    {"small", 1000, 1001, true, 0.1},
	    /* relative to |old|: -100 -> -90 is +10 % (higher). */
	    {"negative old", -100, -90, true, 10},
	    /* old == 0: both zero is no change; otherwise undefined, signed infinity. */
	    {"zero to zero", 0, 0, true, 0},
	    {"zero to positive", 0, 5, false, (double)INFINITY},
	    {"zero to negative", 0, -5, false, -(double)INFINITY},
	    {"to zero", 40, 0, true, -100},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const percent_case_t *c = &cases[i];
		double got = (double)NAN;
		bool defined = br_stats_percent_change(c->old_value, c->new_value, &got);
		CHECK_MSG(defined == c->defined, "%s: defined %d", c->name, defined);
		CHECK_MSG(got == c->want || fabs(got - c->want) < 1e-12, "%s: %.17g, want %.17g",
		          c->name, got, c->want);
	}
}

int main(void)
{
	test_compare_cases();
	test_compare_summaries();
	test_verdict_names();
	test_percent_change();
	return check_finish();
}
