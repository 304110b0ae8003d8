/*
 * nop1000: exactly NOP1000_COUNT `nop`s per iteration, as one assembler block
 * so the compiler cannot add, drop or move any of them. On an
 * instruction-counting counter it measures exactly empty + NOP1000_COUNT.
 *
 * The block is written out (by the preprocessor) rather than as `.rept 1000`:
 * GCC sizes an asm statement by its number of lines, and a three-line `.rept`
 * block makes it believe a branch across the block is short enough for `cbz`,
 * which the assembler then rejects ("branch out of range", seen at -O2).
 */
#include "benches.h"

#define NOP1000_COUNT 1000U

#define NOP_1 "nop\n\t"
#define NOP_10 NOP_1 NOP_1 NOP_1 NOP_1 NOP_1 NOP_1 NOP_1 NOP_1 NOP_1 NOP_1
#define NOP_100 NOP_10 NOP_10 NOP_10 NOP_10 NOP_10 NOP_10 NOP_10 NOP_10 NOP_10 NOP_10
#define NOP_1000 NOP_100 NOP_100 NOP_100 NOP_100 NOP_100 NOP_100 NOP_100 NOP_100 NOP_100 NOP_100

/* The block is longer than the 4095 characters ISO C guarantees for a string
 * literal; GCC has no such limit. */
#pragma GCC diagnostic ignored "-Woverlength-strings"

#define BR_NOP_STR_(x) #x
#define BR_NOP_STR(x) BR_NOP_STR_(x)

_Static_assert(sizeof(NOP_1000) - 1U == NOP1000_COUNT * (sizeof(NOP_1) - 1U),
               "the block must hold exactly NOP1000_COUNT nops");

/* BENCH_NOP_EXTRA (a -D of a gate-test build, default 0): that many nops more,
 * a bench changed by exactly that many instructions (tests/e2e/test_rules.py). */
#ifndef BENCH_NOP_EXTRA
#define BENCH_NOP_EXTRA 0
#endif

void bench_nop1000(br_run_t *run)
{
	BR_BENCH_LOOP(run) {
		__asm__ volatile(NOP_1000);
#if BENCH_NOP_EXTRA > 0
		__asm__ volatile(".rept " BR_NOP_STR(BENCH_NOP_EXTRA) "\n\tnop\n\t.endr");
#endif
	}
}
