/*
 * BR_BENCH_LOOP on the host: the same loop as on the target
 * (benchrack/bench.h), with the host's counters instead of a memory-mapped
 * register. Each read takes three figures at once — CLOCK_MONOTONIC_RAW in
 * nanoseconds and, where perf_event_open is allowed, the process's user-mode
 * cycles and instructions — nested so that each figure covers as little of
 * the others' cost as possible: the read before the body takes perf first and
 * the clock last, the read after it the clock first and perf last.
 *
 * The samples of a request of n iterations are three rows of run->samples:
 * [0, n) nanoseconds, [n, 2n) cycles, [2n, 3n) instructions (0 where perf is
 * not allowed). Included by benchrack/bench.h when built with -DBR_HOST: the
 * stub's loop ported to the host, whose runtime (benches/host/: the counters,
 * the heap, main) implements br_host_counters_read as a firmware implements
 * br_main. Nothing here includes benches/.
 */
#ifndef BENCHRACK_HOST_LOOP_H
#define BENCHRACK_HOST_LOOP_H

#include <stdint.h>

#define BR_HOST_READ_START 0U /* before the body: perf, then the clock */
#define BR_HOST_READ_STOP 1U  /* after the body: the clock, then perf */

/* One reading of every host counter. */
typedef struct br_host_reading {
	uint32_t role; /* BR_HOST_READ_START or BR_HOST_READ_STOP */
	uint64_t ns;
	uint64_t cycles;
	uint64_t instructions;
} br_host_reading_t;

/* State of one BR_BENCH_LOOP on the host; private to the macro. */
typedef struct br_loop {
	const void *counter; /* unused: the host's counters belong to the process */
	uint32_t skip;       /* warm-up iterations still to discard */
	uint32_t *next;      /* where the next nanosecond delta goes */
	uint32_t *end;       /* one past the last one */
	uint32_t stride;     /* iterations: the cycles row starts this far after the ns row */
	br_host_reading_t start;
	br_host_reading_t stop;
} br_loop_t;

/* Fills r's figures in the order its role says (host_counters.c). Not
 * inlined: a call the compiler cannot see into is the barrier that keeps the
 * body between the two reads. */
void br_host_counters_read(br_host_reading_t *r);

#define BR_COUNTER_READ(dst, counter) ((void)(counter), br_host_counters_read(&(dst)))

/* Start *loop over run's warm-up and measured iterations (iterations >= 1,
 * and run->samples holds 3 * iterations values); returns loop. */
static BR_ALWAYS_INLINE br_loop_t *br_loop_begin(br_loop_t *loop, const br_run_t *run)
{
	loop->counter = run;
	loop->skip = run->request->warmup;
	loop->next = run->samples;
	loop->end = run->samples + run->request->iterations;
	loop->stride = run->request->iterations;
	loop->start.role = BR_HOST_READ_START;
	loop->stop.role = BR_HOST_READ_STOP;
	return loop;
}

/* Non-zero while an iteration (warm-up or measured) remains. */
static BR_ALWAYS_INLINE int br_loop_more(const br_loop_t *loop)
{
	return loop->next != loop->end;
}

/* A difference of two readings as a sample: at most BR_ALL_ONES (an
 * iteration of more than 4.29 s saturates, and the runner reports it). */
static BR_ALWAYS_INLINE uint32_t br_host_delta(uint64_t start, uint64_t stop)
{
	const uint64_t d = stop - start;

	return d > BR_ALL_ONES ? BR_ALL_ONES : (uint32_t)d;
}

/* After an iteration: store its three deltas; a warm-up iteration's are
 * overwritten by the next iteration's, as on the target. */
static BR_ALWAYS_INLINE void br_loop_record(br_loop_t *loop)
{
	const uint32_t measured = loop->skip == 0U;

	loop->next[0] = br_host_delta(loop->start.ns, loop->stop.ns);
	loop->next[loop->stride] = br_host_delta(loop->start.cycles, loop->stop.cycles);
	loop->next[2U * loop->stride] =
	    br_host_delta(loop->start.instructions, loop->stop.instructions);
	loop->next += measured;
	loop->skip -= 1U - measured;
}

#endif
