/*
 * Synthetic samples for the statistics' tests: a small seeded generator
 * (splitmix64), the same numbers on every host, and normal draws from it.
 */
#ifndef BENCHRACK_TESTS_STATS_SYNTHETIC_H
#define BENCHRACK_TESTS_STATS_SYNTHETIC_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state = 0x2401u;

/* One uniform draw in (0, 1). */
static inline double uniform(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
}

/* Box-Muller: one standard normal draw. */
static inline double normal(void)
{
	double u = uniform(), v = uniform();
	return sqrt(-2.0 * log(u)) * cos(2.0 * acos(-1.0) * v);
}

#endif
