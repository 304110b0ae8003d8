/*
 * A plain firmware for any Cortex-M machine of QEMU (tests/machines): its
 * own vector table and linker script (fw_machine.ld, the machine's memory
 * map given by --defsym), no stub, no C. ARMv6-M code (.cpu cortex-m0), so
 * the one source runs on every core from M0 to M55.
 *   work            1000 nops and a return: 1001 instructions a call
 *   region_from .. region_to
 *                   two calls of work (bl, work, bl, work), then round again
 * The counts are what the tests take from QEMU's own execution trace, never
 * from this comment. Built with -DSTART_SYSTICK, it starts SysTick first;
 * with -DLONG_REGION it runs a region of over 2^32 instructions instead;
 * with -DFAR_WORK, work lies 8 KiB away from the region's code, on pages of
 * its own (the layout of bench_user_path.py's floor: no code that runs
 * between the region's two halts shares a page with their breakpoints).
 */
#include "machine_vectors.inc"

	.thumb_func
	.global reset
reset:
#ifdef START_SYSTICK
	/* As a firmware with a system tick does: SysTick on the processor
	 * clock, full reload (ARMv6-M ARM B3.3: SYST_RVR, then SYST_CSR
	 * ENABLE | CLKSOURCE). A clock counter, not an instruction count. */
	ldr r0, =0xE000E010
	ldr r1, =0x00FFFFFF
	str r1, [r0, #4]
	movs r1, #5
	str r1, [r0]
	b 1f
	.ltorg
1:
#endif
	nop
#ifdef LONG_REGION
	/* A region longer than any 32-bit counter's period, run once (for
	 * tests/qemu/test_measure_long.py): two calls of a 2-instruction loop
	 * of 1,100,000,000 iterations, then the core idles at long_to. With
	 * -DLONG_ITERATIONS=N, N iterations per call instead (smaller regions
	 * of the same code, for tests/bench/bench_long_region.py). */
#ifndef LONG_ITERATIONS
#define LONG_ITERATIONS 1100000000
#endif
	.thumb_func
	.global long_from
long_from:
	ldr r0, =LONG_ITERATIONS
	bl long_loop
	ldr r0, =LONG_ITERATIONS
	bl long_loop
	.thumb_func
	.global long_to
long_to:
	b long_to
	.ltorg

	.thumb_func
	.global long_loop
long_loop:
1:	subs r0, r0, #1
	bne 1b
	bx lr
#endif
	.thumb_func
	.global region_from
region_from:
	bl work
	bl work
	.thumb_func
	.global region_to
region_to:
	b region_from

#ifdef FAR_WORK
	.balign 8192
#endif
	.thumb_func
	.global work
work:
	.rept 1000
	nop
	.endr
	bx lr

	.thumb_func
	.global fault
fault:
	b fault
