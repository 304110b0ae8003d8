/*
 * The profiler's fixture (issue 26): a firmware of its own (vector table,
 * linker script fw_region.ld, no stub, no C). Reset_Handler runs, forever:
 *   region_start, then ROUNDS calls of step, then region_stop;
 * step calls heavy, then light. heavy is a 1499-pass loop (3001
 * instructions a call, its return included), light a 499-pass one (1001):
 * heavy holds 3/4 of the two leaves' instructions. Then tail_caller, which
 * tail-calls light (b light), and round again from tail_return. Every function carries
 * CFI (.debug_frame) and line numbers (-g). ROUNDS is 5 unless -DROUNDS=N
 * (the 10 M-instruction region: 2500). The counts the tests assert come
 * from QEMU's own execution trace, never from this comment.
 */
	.syntax unified
	.cpu cortex-m4
	.thumb
	.cfi_sections .debug_frame

#ifndef ROUNDS
#define ROUNDS 5
#endif

	.section .vectors, "a"
	.global vectors
vectors:
	.word __stack_top
	.word Reset_Handler
	.rept 14
	.word fault
	.endr

	.text
	.thumb_func
	.global Reset_Handler
	.type Reset_Handler, %function
Reset_Handler:
	.cfi_startproc
	bl region_start
	ldr r4, =ROUNDS
1:	bl step
	subs r4, r4, #1
	bne 1b
	bl region_stop
	bl tail_caller
	.ltorg
	.cfi_endproc
	.size Reset_Handler, . - Reset_Handler

	/* Where tail_caller's call returns: round again. */
	.thumb_func
	.global tail_return
	.type tail_return, %function
tail_return:
	.cfi_startproc
	b Reset_Handler
	.cfi_endproc
	.size tail_return, . - tail_return

	/* A tail call: light runs for tail_caller and returns to its caller. */
	.thumb_func
	.global tail_caller
	.type tail_caller, %function
tail_caller:
	.cfi_startproc
	b light
	.cfi_endproc
	.size tail_caller, . - tail_caller

	.thumb_func
	.global region_start
	.type region_start, %function
region_start:
	.cfi_startproc
	bx lr
	.cfi_endproc
	.size region_start, . - region_start

	.thumb_func
	.global region_stop
	.type region_stop, %function
region_stop:
	.cfi_startproc
	bx lr
	.cfi_endproc
	.size region_stop, . - region_stop

	.thumb_func
	.global step
	.type step, %function
step:
	.cfi_startproc
	push {r3, lr}
	.cfi_def_cfa_offset 8
	.cfi_offset r3, -8
	.cfi_offset lr, -4
	bl heavy
	bl light
	pop {r3, pc}
	.cfi_endproc
	.size step, . - step

	/* A leaf of 2 x passes + 3 instructions a call (its return included). */
	.macro leaf name, passes
	.thumb_func
	.global \name
	.type \name, %function
\name:
	.cfi_startproc
	ldr r0, =\passes
	nop
1:	subs r0, r0, #1
	bne 1b
	bx lr
	.ltorg
	.cfi_endproc
	.size \name, . - \name
	.endm

	leaf heavy, 1499
	leaf light, 499

	.thumb_func
	.global fault
	.type fault, %function
fault:
	b fault
	.size fault, . - fault
