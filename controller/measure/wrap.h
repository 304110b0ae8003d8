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

/* What an interval between two proven counter reads can be trusted for. */
typedef enum br_wrap_verdict {
	BR_WRAP_OK,       /* exactly the ticks read */
	BR_WRAP_POSSIBLE, /* the host time allows a whole period more: not measured */
	BR_WRAP_TOO_FAST, /* more ticks than the counter can make in the host time: a
	                     counter that went backwards or a read that is wrong */
	BR_WRAP_UNKNOWN,  /* the counter's rate is not known: cannot be checked */
	BR_WRAP_STRAY,    /* the core reset, or stopped where no breakpoint of the
	                     session is, between the two halts (breakpoint_session.h) */
} br_wrap_verdict_t;

/*
 * Judges ticks counted between two reads at most host_seconds apart (the
 * host time from sending the first read to receiving the second: an upper
 * bound of the target's) against the counter's max_rate_hz: more than
 * host_seconds * rate is BR_WRAP_TOO_FAST; ticks + period within it is
 * BR_WRAP_POSSIBLE (never for period 0, a 64-bit count); otherwise BR_WRAP_OK.
 */
br_wrap_verdict_t br_wrap_interval_check(const br_counter_state_t *state, uint64_t ticks,
                                         double host_seconds);

/*
 * Batch mode with guard reads (measure/stub_batch.h): the counter's ticks
 * over the whole request are known exactly (guarded_ticks, a 64-bit sum of
 * intervals each judged: verdict is the first that failed, or BR_WRAP_OK).
 * The samples lie inside it, and a sample that wrapped would hide a whole
 * period more: so none did when guarded_ticks < the samples' sum + period.
 * Sets measured[i] (all alike) and returns how many are not measured.
 */
size_t br_wrap_guarded_check(const br_counter_state_t *state, const uint32_t *samples, size_t n,
                             uint64_t guarded_ticks, br_wrap_verdict_t verdict, bool *measured);

/* Guard reads per counter period at its most rate. Two would do on an idle
 * host (no interval could hold a period); four leave a late guard halt (a
 * loaded host) one and a half periods' worth of the rate before its interval
 * could hide one. */
#define BR_WRAP_GUARDS_PER_PERIOD 4.0

/*
 * How often a long interval needs a guard read so that no interval between
 * two reads can hold a whole period: the period at max_rate_hz divided by
 * BR_WRAP_GUARDS_PER_PERIOD, in seconds; 0 when the rate is not known or
 * the counter has no period (64 bits: QEMU's icount needs no guard halt).
 */
double br_wrap_guard_seconds(const br_counter_state_t *state);

/* One line saying why a verdict is not a figure ("" for BR_WRAP_OK). */
const char *br_wrap_verdict_text(br_wrap_verdict_t v);

#endif
