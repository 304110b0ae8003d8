/*
 * br_stats_change_points: a history of 50 runs with one step is found at the
 * step; a flat noisy history has none; two steps are both found; short
 * levels are not claimed; a step in exact figures (no noise) is found to the
 * run. Noise from a seeded generator (the same numbers everywhere).
 */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "stats/change_points.h"

static uint64_t state = 0x2424u;

static double noise(void)
{
	/* splitmix64 to a uniform in (-0.5, 0.5) summed thrice: about normal, sd 0.5 */
	double sum = 0.0;
	for (int i = 0; i < 3; i++) {
		uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
		z ^= z >> 31;
		sum += (double)(z >> 11) / 9007199254740992.0 - 0.5;
	}
	return sum;
}

int main(void)
{
	size_t at[8];
	double y[50];
	/* one step of 3 % at run 30 over noise of 0.5 % sd */
	int found_right = 0, found_any_flat = 0;
	for (int trial = 0; trial < 20; trial++) {
		for (int i = 0; i < 50; i++)
			y[i] = 100.0 + (i >= 30 ? 3.0 : 0.0) + noise();
		size_t n = br_stats_change_points(y, 50, BR_STATS_CHANGE_MIN_SEGMENT,
		                                  BR_STATS_CHANGE_CONFIDENCE, 0.0, at, 8);
		found_right += n == 1 && at[0] >= 29 && at[0] <= 31;
		for (int i = 0; i < 50; i++)
			y[i] = 100.0 + noise();
		found_any_flat +=
		    br_stats_change_points(y, 50, BR_STATS_CHANGE_MIN_SEGMENT,
		                           BR_STATS_CHANGE_CONFIDENCE, 0.0, at, 8) > 0;
	}
	printf("one step: found alone within a run of it in %d of 20; flat: a step claimed in %d "
	       "of 20\n",
	       found_right, found_any_flat);
	CHECK(found_right >= 19);
	CHECK(found_any_flat <= 1);

	/* exact figures: the step is at run 30 exactly */
	for (int i = 0; i < 50; i++)
		y[i] = i >= 30 ? 1001.0 : 1000.0;
	size_t n = br_stats_change_points(y, 50, 5, BR_STATS_CHANGE_CONFIDENCE, 0.0, at, 8);
	CHECK_MSG(n == 1 && at[0] == 30, "%zu at %zu", n, n ? at[0] : 0);

	/* two steps, up at 15 and down at 35 */
	for (int i = 0; i < 50; i++)
		y[i] = (i >= 15 && i < 35 ? 110.0 : 100.0) + noise();
	n = br_stats_change_points(y, 50, 5, BR_STATS_CHANGE_CONFIDENCE, 0.0, at, 8);
	CHECK_MSG(n == 2 && at[0] == 15 && at[1] == 35, "%zu: %zu %zu", n, at[0], at[1]);

	/* a level of 3 runs (shorter than 5) is not claimed at its edge */
	for (int i = 0; i < 20; i++)
		y[i] = i >= 17 ? 1010.0 : 1000.0;
	n = br_stats_change_points(y, 20, 5, BR_STATS_CHANGE_CONFIDENCE, 0.0, at, 8);
	CHECK(n == 0);

	/* a step no larger than the resolution is not one */
	for (int i = 0; i < 50; i++)
		y[i] = i >= 25 ? 110.0 : 100.0;
	CHECK(br_stats_change_points(y, 50, 5, BR_STATS_CHANGE_CONFIDENCE, 10.0, at, 8) == 0);
	CHECK(br_stats_change_points(y, 50, 5, BR_STATS_CHANGE_CONFIDENCE, 9.0, at, 8) == 1);

	y[3] = (double)NAN;
	CHECK(br_stats_change_points(y, 50, 5, BR_STATS_CHANGE_CONFIDENCE, 0.0, at, 8) == 0);
	return check_finish();
}
