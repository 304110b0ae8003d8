/*
 * A firmware without benchrack's stub: what `benchrack measure` meets in the
 * wild. It reuses the stub's start-up code and linker script (so it boots on
 * the same board and has the same stack region symbols) but not the runner:
 * no control block, no br_host_sync. Its main loop calls functions whose
 * costs the tests derive from the disassembly:
 *   plain_fixed      straight-line, a fixed number of instructions
 *   plain_markers    lines marked "marker: from" and "marker: to" for file:line
 *   recursion_descend (benches/) at depths 1..PLAIN_DEPTH_MAX, in that order
 *   plain_long       more than 2^24 instructions, once every PLAIN_LONG_EVERY rounds
 *   plain_never      never called: a breakpoint there never hits
 */
#ifndef BENCHES_PLAIN_H
#define BENCHES_PLAIN_H

#include <stdint.h>

/* recursion_descend is called at depths 1, 2, ... PLAIN_DEPTH_MAX each round. */
#define PLAIN_DEPTH_MAX 8U

/* plain_long runs at the end of every PLAIN_LONG_EVERY-th round (a power of two). */
#define PLAIN_LONG_EVERY 64U

/* Iterations of plain_long's loop: enough that its count exceeds 2^24. */
#define PLAIN_LONG_ITERATIONS 0x1000000U

/* Where results go so that the optimiser keeps the calls (.bss). */
extern volatile uint32_t plain_sink;

/* Never non-zero: plain_never is called only if it were. */
extern volatile uint32_t plain_never_flag;

/* A few arithmetic steps with no branch: a constant instruction count. */
uint32_t plain_fixed(uint32_t x);

/* Straight-line stores to plain_sink between two marked source lines. */
void plain_markers(void);

/* A counted loop of PLAIN_LONG_ITERATIONS empty iterations. */
void plain_long(void);

/* Never called (see plain_never_flag). */
void plain_never(void);

#endif
