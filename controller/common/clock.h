/*
 * Monotonic host time for deadlines and wall-time figures.
 */
#ifndef BENCHRACK_COMMON_CLOCK_H
#define BENCHRACK_COMMON_CLOCK_H

#include <stdint.h>

/* Milliseconds on the monotonic clock (CLOCK_MONOTONIC): only differences mean anything. */
int64_t br_clock_ms(void);

/* Nanoseconds on the monotonic clock. */
int64_t br_clock_ns(void);

/* Milliseconds left until deadline_ms (a br_clock_ms() value), never negative. */
int br_clock_remaining_ms(int64_t deadline_ms);

#endif
