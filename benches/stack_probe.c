/*
 * stack_probe: a stack frame of a fixed size whose deepest written byte is
 * STACK_PROBE_DEPTH bytes below its top. BENCH_STACK_PROBE_EXTRA (a -D of
 * the build, default 0) moves that byte down by as many bytes with the same
 * instructions (one store at another offset of the same frame): a stack
 * that grows by exactly that much and nothing else (tests/e2e/test_rules.py).
 */
#include "gate_benches.h"

#ifndef BENCH_STACK_PROBE_EXTRA
#define BENCH_STACK_PROBE_EXTRA 0
#endif

#define STACK_PROBE_FRAME 128U
#define STACK_PROBE_DEPTH (32U + (uint32_t)(BENCH_STACK_PROBE_EXTRA))

_Static_assert(STACK_PROBE_DEPTH <= STACK_PROBE_FRAME, "the byte must lie in the frame");

/* Not inlined: its frame is its own. */
static __attribute__((noinline)) void stack_probe_touch(void)
{
	volatile uint8_t frame[STACK_PROBE_FRAME];
	frame[STACK_PROBE_FRAME - STACK_PROBE_DEPTH] = 1U;
	frame[STACK_PROBE_FRAME - 1U] = 1U;
	(void)frame[0]; /* read: the frame is used, and stays whole */
}

void bench_stack_probe(br_run_t *run)
{
	BR_BENCH_LOOP(run) {
		stack_probe_touch();
	}
}
