/*
 * Issue 26's Embench-style workloads (tests/profile/workloads/): plain
 * firmware, each with the vector table and reset handler of wl_start.c and
 * the linker script wl.ld, no stub. The reset handler runs wl_init once,
 * then forever: region_start, wl_benchmark, region_stop. Every pass of the
 * region does the same work (its inputs are made inside it from a fixed
 * seed), so one pass is what every pass is. The tests' figures come from
 * QEMU's own trace of the image, never from these comments.
 */
#ifndef WL_WORKLOAD_H
#define WL_WORKLOAD_H

#include <stdint.h>

/* A function the compiler keeps whole, so that it shows in the profile. */
#define WL_KEEP __attribute__((noinline))

/* Where each pass's result goes, so the work is not optimised away. */
extern volatile uint32_t wl_sink;

/* Set-up run once before the first pass (tables made at start-up). */
void wl_init(void);
/* One pass of the workload. */
void wl_benchmark(void);

/* The linear congruential generator of Embench's support code, written
 * here: wl_srand(seed), then wl_rand() gives 15 bits at a time. */
void wl_srand(uint32_t seed);
uint32_t wl_rand(void);

#endif
