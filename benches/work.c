/*
 * work: WORK_BASE_ROUNDS + BENCH_WORK_EXTRA_ROUNDS rounds of an addition the
 * optimiser cannot fold per iteration (an empty asm makes it forget acc). The gate tests build it
 * twice, the second time with more rounds, to have a bench made slower by a
 * build option and nothing else.
 */
#include "gate_benches.h"

#ifndef BENCH_WORK_EXTRA_ROUNDS
#define BENCH_WORK_EXTRA_ROUNDS 0
#endif

/* The host's gate programs (benches/host/meson.build) ask for more rounds:
 * a bench long against the host clock's resolution. */
#ifndef BENCH_WORK_BASE_ROUNDS
#define BENCH_WORK_BASE_ROUNDS 100
#endif

#define WORK_BASE_ROUNDS ((uint32_t)(BENCH_WORK_BASE_ROUNDS))
#define WORK_ROUNDS (WORK_BASE_ROUNDS + (uint32_t)(BENCH_WORK_EXTRA_ROUNDS))

void bench_work(br_run_t *run)
{
	BR_BENCH_LOOP(run) {
		uint32_t acc = 0U;
		for (uint32_t i = 0U; i < WORK_ROUNDS; i++) {
			acc += i;
			__asm__ volatile("" : "+r"(acc));
		}
		BR_SINK(acc);
	}
}
