/*
 * A plain firmware for any Cortex-M machine of QEMU (tests/machines): its
 * own vector table and linker script (fw_machine.ld, the machine's memory
 * map given by --defsym), no stub, no C. ARMv6-M code (.cpu cortex-m0), so
 * the one source runs on every core from M0 to M55.
 *   work            1000 nops and a return: 1001 instructions a call
 *   region_from .. region_to
 *                   two calls of work (bl, work, bl, work), then round again
 * The counts are what the tests take from QEMU's own execution trace, never
 * from this comment. Built with -DSTART_SYSTICK, it starts SysTick first.
 */
	.syntax unified
	.cpu cortex-m0
	.thumb

	.section .vectors, "a"
	.global vectors
vectors:
	.word __stack_top
	.word reset
	.rept 14
	.word fault
	.endr

	.text
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
	.thumb_func
	.global region_from
region_from:
	bl work
	bl work
	.thumb_func
	.global region_to
region_to:
	b region_from

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
