/*
 * A firmware that sleeps in its region (issue 26; its own vector table, the
 * linker script workloads/wl.ld, no stub). Reset_Handler runs region_start,
 * then three times: (when WAKE is defined) SysTick started (reload 2000,
 * the processor clock, its interrupt on), WFI, then work (a 100-pass loop);
 * then region_stop, and round again. SysTick_Handler counts its calls and
 * stops SysTick, so that each WFI is woken by exactly one tick whatever the
 * host's delays (under -icount, time runs with the host's only while the
 * core sleeps). Built without WAKE nothing wakes the core: the first WFI
 * sleeps for ever. The
 * tests' counts come from QEMU's own trace, never from this comment.
 */
	.syntax unified
	.cpu cortex-m4
	.thumb

	.section .vectors, "a"
	.global vectors
vectors:
	.word __stack_top
	.word Reset_Handler
	.rept 13
	.word fault
	.endr
	.word SysTick_Handler

	.text
	.thumb_func
	.global Reset_Handler
	.type Reset_Handler, %function
Reset_Handler:
	bl region_start
	movs r4, #3
1:
#ifdef WAKE
	ldr r0, =0xE000E010 /* SYST_CSR; SYST_RVR, SYST_CVR follow */
	ldr r1, =2000
	str r1, [r0, #4]
	movs r1, #0
	str r1, [r0, #8]
	movs r1, #7 /* ENABLE, TICKINT, CLKSOURCE */
	str r1, [r0]
#endif
	wfi
	bl work
	subs r4, r4, #1
	bne 1b
	bl region_stop
	b Reset_Handler
	.ltorg
	.size Reset_Handler, . - Reset_Handler

	.thumb_func
	.global region_start
	.type region_start, %function
region_start:
	bx lr
	.size region_start, . - region_start

	.thumb_func
	.global region_stop
	.type region_stop, %function
region_stop:
	nop
	bx lr
	.size region_stop, . - region_stop

	.thumb_func
	.global work
	.type work, %function
work:
	movs r0, #100
2:	subs r0, r0, #1
	bne 2b
	bx lr
	.size work, . - work

	.thumb_func
	.global SysTick_Handler
	.type SysTick_Handler, %function
SysTick_Handler:
	ldr r0, =ticks
	ldr r1, [r0]
	adds r1, r1, #1
	str r1, [r0]
	ldr r0, =0xE000E010
	movs r1, #0 /* SysTick off until the next WFI arms it */
	str r1, [r0]
	bx lr
	.ltorg
	.size SysTick_Handler, . - SysTick_Handler

	.thumb_func
	.global fault
	.type fault, %function
fault:
	b fault
	.size fault, . - fault

	.bss
	.global ticks
ticks:
	.word 0
