/*
 * A firmware on which the host's execution of an instruction must disagree
 * with a real step (tests/machines/test_host_check.py, issue 27): the stack
 * pointer is moved into flash, so check_from's push stores nothing when the
 * core runs it (QEMU ignores the core's writes to its flash) while the
 * debugger's write of the same bytes lands. Its own vector table, linked
 * with fw_machine.ld, no stub.
 *   check_from .. check_to   push, pop, nop: 3 instructions a pass
 */
#include "machine_vectors.inc"

	.thumb_func
	.global reset
reset:
	ldr r0, =flash_stack
	mov sp, r0
	.thumb_func
	.global check_from
check_from:
	push {r4, lr}
	pop {r4, r5}
	nop
	.thumb_func
	.global check_to
check_to:
	b check_from
	.ltorg

	.thumb_func
	.global fault
fault:
	b fault

	/* Where SP points: flash, 16 bytes of a known pattern below it. */
	.balign 16
	.word 0x11111111, 0x22222222, 0x33333333, 0x44444444
flash_stack:
	.word 0
