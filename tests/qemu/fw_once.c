/*
 * Test firmware for regions a default `benchrack measure` meets once, and for
 * a region longer than any 32-bit counter's period
 * (test_measure_once_long.py). Written in assembly so that the instruction
 * counts are known exactly, without a disassembler:
 *   once_fixed   called once after reset: 4 nops and a return, 5 instructions
 *   long_from .. long_to
 *                one nop and two calls of long_loop with 1,100,000,000
 *                iterations of a 2-instruction loop (subs, bne), each call
 *                2 + 2 * 1.1e9 + 1 instructions (ldr, bl; the loop; bx):
 *                4,400,000,007 instructions, run once — more than 2^32, so
 *                only guard halts can measure it exactly
 * Then the core idles in an endless loop.
 */
#include "main.h"

void once_fixed(void);
void long_region(void);
void long_loop(void);

__attribute__((naked, noinline, used)) void once_fixed(void)
{
	__asm__ volatile("nop\n\t"
	                 "nop\n\t"
	                 "nop\n\t"
	                 "nop\n\t"
	                 "bx lr\n\t");
}

/* r0 iterations of subs/bne, then a return. Unified syntax: GCC hands a
 * Thumb-1 core's (Cortex-M0) inline assembly to the assembler in divided
 * syntax, where `subs r0, r0, #1` is refused; it restores its own after. */
__attribute__((naked, noinline, used)) void long_loop(void)
{
	__asm__ volatile(".syntax unified\n\t"
	                 "1:\n\t"
	                 "subs r0, r0, #1\n\t"
	                 "bne 1b\n\t"
	                 "bx lr\n\t");
}

__attribute__((naked, noinline, used)) void long_region(void)
{
	__asm__ volatile("push {r4, lr}\n\t"
	                 ".global long_from\n\t"
	                 ".type long_from, %function\n\t"
	                 ".thumb_func\n"
	                 "long_from:\n\t"
	                 "nop\n\t"
	                 "ldr r0, =1100000000\n\t"
	                 "bl long_loop\n\t"
	                 "ldr r0, =1100000000\n\t"
	                 "bl long_loop\n\t"
	                 ".global long_to\n\t"
	                 ".type long_to, %function\n\t"
	                 ".thumb_func\n"
	                 "long_to:\n\t"
	                 "pop {r4, pc}\n\t"
	                 ".ltorg\n\t");
}

_Noreturn void br_main(void)
{
	once_fixed();
	long_region();
	for (;;)
		__asm__ volatile("" : : : "memory");
}
