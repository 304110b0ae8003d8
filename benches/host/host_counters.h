/*
 * The host's counters for BR_BENCH_LOOP (stub/include/benchrack/host_loop.h):
 * CLOCK_MONOTONIC_RAW always, and the process's user-mode cycles and
 * instructions through perf_event_open where the kernel allows it.
 */
#ifndef BENCHES_HOST_COUNTERS_H
#define BENCHES_HOST_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Opens the cycle and instruction counters of this thread (user mode only)
 * as one perf group that every br_host_counters_read reads at once. Returns
 * true when both count; otherwise false with why in why (the errno's text,
 * and /proc/sys/kernel/perf_event_paranoid's value), and reads then give 0
 * for both.
 */
bool br_host_counters_open(char *why, size_t cap);

/*
 * The clock's resolution in nanoseconds, as it can be observed: the larger of
 * clock_getres(CLOCK_MONOTONIC_RAW) (*getres_ns) and the smallest non-zero
 * step seen between back-to-back readings (*step_ns).
 */
uint64_t br_host_clock_resolution(uint64_t *getres_ns, uint64_t *step_ns);

#endif
