/*
 * Firmware for `benchrack profile` (tests/profile/): code whose profile is
 * known from its construction. No stub runner: the stub's start-up code and
 * linker script only, like benches/plain/.
 *
 * profile_fw.c: br_main calls profile_caller forever; profile_caller calls
 *   profile_leaf_short and profile_leaf_long alternately, PROFILE_ROUNDS
 *   times each. Both leaves run the same loop body (profile_spin), the long
 *   one PROFILE_LONG_FACTOR times as many passes: its cost is that many
 *   times the short one's, to within the few instructions of entry and exit.
 * profile_irq.c: br_main spins in profile_irq_loop, which pends an external
 *   interrupt through NVIC_ISPR every PROFILE_IRQ_EVERY passes; its handler
 *   (profile_irq_handler) spins PROFILE_IRQ_WORK passes, so handler samples
 *   must unwind through the exception frame into the loop.
 */
#ifndef BENCHES_PROFILE_H
#define BENCHES_PROFILE_H

#include <stdint.h>

/* Loop passes of the short leaf; the long one does PROFILE_LONG_FACTOR times more. */
#define PROFILE_SHORT_PASSES 200U
#define PROFILE_LONG_FACTOR 3U
/* Calls of each leaf per call of profile_caller. */
#define PROFILE_ROUNDS 4U

/* The external interrupt the irq firmware pends (any the NVIC has). */
#define PROFILE_IRQ_NUMBER 3U
/* Passes of profile_irq_loop between two pends, and of the handler's spin. */
#define PROFILE_IRQ_EVERY 100U
#define PROFILE_IRQ_WORK 300U

/* Where results go so the optimiser keeps every pass (.bss). */
extern volatile uint32_t profile_sink;

void profile_caller(void);
void profile_leaf_short(void);
void profile_leaf_long(void);
void profile_irq_loop(void);
void profile_irq_handler(void);

/* One pass per count: a fixed handful of instructions each (a volatile
 * read-modify-write and the loop's own). */
__attribute__((always_inline)) static inline void profile_spin(uint32_t passes)
{
	for (uint32_t i = 0U; i < passes; i++)
		profile_sink = profile_sink + i;
}

#endif
