/*
 * Telling a wrapped interval from a short one (DESIGN.md, "Counters"): a
 * counter of period P shows ticks modulo P, so a sample of s ticks may really
 * be s + k*P. Host time bounds the truth: the counter advances at most
 * clock_hz ticks per second of host time that passed between the two reads
 * (or, in batch mode, over the whole batch). So a sample may have wrapped
 * only when s + P ticks fit in that host time; then it is "not measured",
 * never a number. A counter whose tick is not a host time (QEMU's icount)
 * cannot be checked this way: its state has wrap_seconds 0 and every sample
 * passes (the wrap limit is printed instead).
 */
#ifndef BENCHRACK_MEASURE_WRAP_H
#define BENCHRACK_MEASURE_WRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/counter.h"

/*
 * True when `ticks` ticks counted over host_seconds of host time cannot hide
 * a wrap: the state has no clock, or ticks + period > host_seconds *
 * clock_hz. In particular, host_seconds below the wrap period is always
 * safe, and host_seconds over wrap period + ticks / clock_hz never is.
 */
bool br_wrap_sample_ok(const br_counter_state_t *state, uint64_t ticks, double host_seconds);

/*
 * Batch mode (one host interval around n samples and whatever else ran):
 * sets measured[i] for every sample to whether the batch can hide no wrap,
 * i.e. br_wrap_sample_ok with the sum of all samples over host_seconds (one
 * wrap of any sample would need one more period than that time allows).
 * Returns how many samples are not measured (0 or n).
 */
size_t br_wrap_batch_check(const br_counter_state_t *state, const uint32_t *samples, size_t n,
                           double host_seconds, bool *measured);

#endif
