/*
 * When the next sample is due: for a rate of R per second, intervals drawn
 * uniformly from [T/2, 3T/2) with T = 1/R, on the host's monotonic clock, so
 * that no fixed stride aliases with the firmware's own loops; rate 0: at
 * once, every time. Shared by both samplers (sampler.h, pcsr_sampler.h).
 */
#ifndef BENCHRACK_PROFILE_PACING_H
#define BENCHRACK_PROFILE_PACING_H

#include <stdint.h>

typedef struct br_pacing {
	int64_t period_ns; /* 0: no pacing */
	int64_t next_ns;
	unsigned seed;
} br_pacing_t;

/* Starts pacing at rate_hz (0: none) from start_ns (br_clock_ns()). */
void br_pacing_start(br_pacing_t *p, double rate_hz, int64_t start_ns);

/* Sleeps until the next sample is due and draws the interval after it. */
void br_pacing_wait(br_pacing_t *p);

#endif
