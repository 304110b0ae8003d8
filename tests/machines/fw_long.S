/*
 * A region longer than any 32-bit counter's period, for a machine that is
 * not an STM32 (tests/qemu/test_measure_long.py, issue 29): from long_from
 * to long_to, two calls of a 2-instruction loop (subs, bne) of 1,100,000,000
 * iterations, then the core idles at long_to. Its own vector table and
 * fw_machine.ld; ARMv6-M code. The count is derived from the disassembly by
 * the test, never from this comment.
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
	nop
	.thumb_func
	.global long_from
long_from:
	ldr r0, =1100000000
	bl long_loop
	ldr r0, =1100000000
	bl long_loop
	.thumb_func
	.global long_to
long_to:
	b long_to
	.thumb_func
long_loop:
1:	subs r0, r0, #1
	bne 1b
	bx lr
	.thumb_func
fault:
	b fault
	.ltorg
