/*
 * benchrack bench API — what a benchmark written for the stub sees.
 *
 * A bench is a function `void bench_NAME(br_run_t *run)` listed in the
 * firmware's suite table (suite.h). The runner calls it once per host request;
 * the bench sets up whatever it needs, then runs its measured work inside
 * BR_BENCH_LOOP, which repeats it for the requested warm-up and measured
 * iterations and records one counter delta per measured iteration:
 *
 *	void bench_crc(br_run_t *run)
 *	{
 *		BR_BENCH_LOOP(run) {
 *			BR_SINK(crc32_ieee_update(0U, buffer, sizeof buffer));
 *		}
 *	}
 *
 * Only the loop body lies between the two counter reads: warm-up skipping,
 * the iteration count and the sample store happen outside them, so an empty
 * body measures a small constant (the counter read itself plus whatever the
 * optimisation level spills) and a body of N instructions measures exactly
 * that constant + N on an instruction-counting counter.
 */
#ifndef BENCHRACK_BENCH_H
#define BENCHRACK_BENCH_H

#include <stdint.h>

#include "benchrack/control_block.h"
#include "benchrack/heap.h"

/* What the runner hands a bench: the host's request (which counter to read,
 * how, and how many iterations) and where the samples go. Read-only for
 * benches, which use it only through BR_BENCH_LOOP. */
typedef struct br_run {
	const br_request_t *request; /* counter_address/mask/flags, warmup, iterations */
	uint32_t *samples;           /* room for request->iterations deltas */
} br_run_t;

/*
 * The bench's parameter from the host's request (request.argument), or
 * default_value when the host sent 0 ("the bench's default"). Read it in the
 * set-up, before BR_BENCH_LOOP: e.g. a recursion depth.
 */
static inline uint32_t br_run_argument(const br_run_t *run, uint32_t default_value)
{
	const uint32_t argument = run->request->argument;

	return argument != 0U ? argument : default_value;
}

#define BR_ALWAYS_INLINE __attribute__((always_inline)) inline

#define BR_ALL_ONES 0xFFFFFFFFU

#define BR_CAT_(a, b) a##b
/* Token pasting after macro expansion of both operands. */
#define BR_CAT(a, b) BR_CAT_(a, b)
#define BR_STR_(x) #x
/* String literal of a macro's expansion. */
#define BR_STR(x) BR_STR_(x)

#if defined(BR_HOST)
/* Built for the host (benches/host/): the loop reads the host's clock and,
 * where allowed, its cycle and instruction counters (benchrack/host_loop.h). */
#include "benchrack/host_loop.h"
#else
/* State of one BR_BENCH_LOOP; private to the macro. */
typedef struct br_loop {
	const volatile uint32_t *counter;
	uint32_t mask;   /* valid bits of the counter */
	uint32_t negate; /* 0, or all ones for a down-counter (delta = start - stop) */
	uint32_t skip;   /* warm-up iterations still to discard */
	uint32_t *next;  /* where the next delta goes */
	uint32_t *end;   /* one past the last sample */
	uint32_t start;  /* counter read just before the body */
	uint32_t stop;   /* counter read just after the body */
} br_loop_t;

/*
 * The register class of the counter read's operands. Thumb-1 (ARMv6-M:
 * Cortex-M0/M0+; ARMv8-M Baseline) encodes `ldr Rt, [Rn]` with low registers
 * only ("lo register required" from the assembler otherwise): "l" is r0-r7.
 * Thumb-2 cores keep "r", so their code (and their counts) does not change.
 */
#if defined(__thumb__) && !defined(__thumb2__)
#define BR_ASM_REG "l"
#else
#define BR_ASM_REG "r"
#endif

/*
 * Read the counter register with a single load, as a compiler barrier: the
 * compiler neither moves memory accesses across it nor merges or drops it.
 * Written as an assembler load so that the read is exactly one `ldr` at every
 * optimisation level.
 */
#define BR_COUNTER_READ(dst, counter)                                                              \
	__asm__ volatile("ldr %0, [%1]" : "=" BR_ASM_REG(dst) : BR_ASM_REG(counter) : "memory")

/* Start *loop over run's warm-up and measured iterations; returns loop. Fills
 * the caller's struct rather than returning one: a returned 32-byte struct is
 * a memcpy call on Thumb-1 at -O0, and the firmware has no memcpy. */
static BR_ALWAYS_INLINE br_loop_t *br_loop_begin(br_loop_t *loop, const br_run_t *run)
{
	loop->counter = (const volatile uint32_t *)(uintptr_t)run->request->counter_address;
	loop->mask = run->request->counter_mask;
	loop->negate = (run->request->counter_flags & BR_CB_COUNTER_DOWN) != 0U ? BR_ALL_ONES : 0U;
	loop->skip = run->request->warmup;
	loop->next = run->samples;
	loop->end = run->samples + run->request->iterations;
	loop->start = 0U;
	loop->stop = 0U;
	/* The runner serves only requests with iterations >= 1: telling the
	 * compiler lets it drop the loop's entry test. */
	if (loop->next == loop->end)
		__builtin_unreachable();
	return loop;
}

/* Non-zero while an iteration (warm-up or measured) remains. */
static BR_ALWAYS_INLINE int br_loop_more(const br_loop_t *loop)
{
	return loop->next != loop->end;
}

/* After an iteration: store its delta (stop - start, negated for a
 * down-counter, masked to the counter's width; masking after negating is
 * exact because the mask is 2^width - 1). A warm-up iteration's delta is
 * overwritten by the next iteration's: only measured ones advance. */
static BR_ALWAYS_INLINE void br_loop_record(br_loop_t *loop)
{
	const uint32_t measured = loop->skip == 0U;

	*loop->next = (((loop->stop - loop->start) ^ loop->negate) - loop->negate) & loop->mask;
	loop->next += measured;
	loop->skip -= 1U - measured;
}

#endif /* BR_HOST */

/*
 * BR_BENCH_LOOP(run) { body }
 *
 * Run body for warmup + iterations iterations of run's request (iterations
 * >= 1), storing one counter delta per measured iteration in run->samples.
 * The counter is read right before and right after the body; control goes from
 * the first read into the body and from the body to the second read with no
 * test or jump between them (the iteration's exit is a goto from the second
 * read's expression to a label outside the timed region). On QEMU's
 * instruction counter an empty body measures 1 at -O2/-O3/-Os and 3 at -O0
 * (tests/firmware/qemu_counts.py).
 *
 * Rules for the body: no `break` or `return` (they would skip the second
 * read); `continue` ends the iteration normally. At most one BR_BENCH_LOOP per
 * source line.
 */
#define BR_BENCH_LOOP(run) BR_BENCH_LOOP_(run, BR_CAT(br_loop_done_, __LINE__))
/* clang-format off */
#define BR_BENCH_LOOP_(run, done)                                                                  \
	for (br_loop_t br_loop_, *br_loop_p_ = br_loop_begin(&br_loop_, run);                      \
	     br_loop_more(br_loop_p_); br_loop_record(br_loop_p_))                                 \
		if (0) {                                                                           \
		done:;                                                                             \
		} else                                                                             \
			for (__extension__({ BR_COUNTER_READ(br_loop_.start, br_loop_.counter); });; \
			     __extension__({                                                       \
				     BR_COUNTER_READ(br_loop_.stop, br_loop_.counter);             \
				     goto done;                                                    \
			     }))
/* clang-format on */

/*
 * Consume x so that the optimiser must compute it, at no cost: the value is
 * handed to an empty assembler statement in a register.
 */
#define BR_SINK(x) __asm__ volatile("" : : "r"(x))

#endif
