/*
 * Stack high-water measurement by painting (see stack.h).
 *
 * Painting and scanning happen around the bench call, outside its timed
 * iterations, with plain byte loops through volatile pointers: no library
 * call, and the compiler can neither drop the paint nor assume it survived.
 */
#include "stack.h"

#include "linker_symbols.h"

/* The current stack pointer. Inside br_stack_measure (whose frame is fixed
 * after its prologue) this is also the SP at the bench call. */
static inline __attribute__((always_inline)) uintptr_t br_stack_pointer_get(void)
{
	uintptr_t sp;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	return sp;
}

uint32_t br_stack_measure(void (*fn)(br_run_t *run), br_run_t *run)
{
	const uintptr_t call_sp = br_stack_pointer_get();
	const uintptr_t limit = (uintptr_t)br_ld_stack_limit;
	const uintptr_t paint_top = call_sp - BR_STACK_GUARD_BYTES;
	uintptr_t address;

	for (address = limit; address < paint_top; address++)
		*(volatile uint8_t *)address = BR_STACK_PAINT;

	fn(run);

	/* Start the scan from a value the compiler cannot relate to the paint
	 * loop's bounds; otherwise GCC duplicates the call into both outcomes of
	 * the first loop's entry test. */
	address = limit;
	__asm__("" : "+r"(address));
	for (; address < paint_top; address++) {
		if (*(volatile const uint8_t *)address != BR_STACK_PAINT)
			break;
	}
	/* A byte of the overflow band lost its paint (or there was no room to
	 * paint): the stack ran past the region (benchrack/stack_paint.h). */
	if (address - limit < BR_STACK_OVERFLOW_BAND)
		return BR_CB_NOT_MEASURED;
	return (uint32_t)(call_sp - address);
}
