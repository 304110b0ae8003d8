/*
 * Start-up: the vector table and the reset handler.
 *
 * On Cortex-M the hardware loads SP from vector 0 and jumps to vector 1 (ARMv7-M
 * Architecture Reference Manual, B1.5.5 "Reset behavior"), so the reset handler
 * is a plain C function. It copies .data and zeroes .bss with word loops and
 * enters br_main (main.h): the runner in stub images, the firmware's own loop
 * in images built without the runner (benches/plain/).
 *
 * The loops must stay loops: this image has no memcpy or memset to call. The
 * cross file switches off the pass that turns loop idioms into such calls
 * (-fno-tree-loop-distribute-patterns), and the bounds are compared as
 * integers, a form that pass does not recognise even when it is on (with it
 * on and plain pointer comparisons, -O2/-O3/-Os images fail to link:
 * undefined memcpy and memset). tests/firmware/freestanding.py checks every
 * image.
 */
#include <stdint.h>

#include "linker_symbols.h"
#include "main.h"

/* Exception numbers (ARMv7-M ARM, B1.5.2 "Exception number definition");
 * index 0 of the table holds the initial stack pointer. */
enum br_exception {
	BR_VECTOR_INITIAL_SP = 0,
	BR_EXCEPTION_RESET = 1,
	BR_EXCEPTION_NMI = 2,
	BR_EXCEPTION_HARDFAULT = 3,
	BR_EXCEPTION_MEMMANAGE = 4,
	BR_EXCEPTION_BUSFAULT = 5,
	BR_EXCEPTION_USAGEFAULT = 6,
	BR_EXCEPTION_SVCALL = 11,
	BR_EXCEPTION_DEBUGMONITOR = 12,
	BR_EXCEPTION_PENDSV = 14,
	BR_EXCEPTION_SYSTICK = 15,
	BR_EXCEPTION_COUNT = 16, /* the stub enables no external interrupt */
};

/* One vector table entry: the initial SP in entry 0, handlers elsewhere. */
typedef union br_vector {
	void (*handler)(void);
	uint8_t *stack_top;
} br_vector_t;

void br_reset_handler(void);

/* Handler for every exception nobody else handles: park the core where a
 * debugger halt shows the PC in it. */
void br_default_handler(void);
void br_default_handler(void)
{
	for (;;) {
	}
}

/* Weak: a bench or board file may define its own. */
#define BR_WEAK_HANDLER __attribute__((weak, alias("br_default_handler")))
void br_nmi_handler(void) BR_WEAK_HANDLER;
void br_hardfault_handler(void) BR_WEAK_HANDLER;
void br_memmanage_handler(void) BR_WEAK_HANDLER;
void br_busfault_handler(void) BR_WEAK_HANDLER;
void br_usagefault_handler(void) BR_WEAK_HANDLER;
void br_svcall_handler(void) BR_WEAK_HANDLER;
void br_debugmonitor_handler(void) BR_WEAK_HANDLER;
void br_pendsv_handler(void) BR_WEAK_HANDLER;
void br_systick_handler(void) BR_WEAK_HANDLER;

/* Placed first in flash by the linker script (section .br_vectors). */
__attribute__((section(".br_vectors"), used)) const br_vector_t br_vectors[BR_EXCEPTION_COUNT] = {
    [BR_VECTOR_INITIAL_SP] = {.stack_top = br_ld_stack_top},
    [BR_EXCEPTION_RESET] = {.handler = br_reset_handler},
    [BR_EXCEPTION_NMI] = {.handler = br_nmi_handler},
    [BR_EXCEPTION_HARDFAULT] = {.handler = br_hardfault_handler},
    [BR_EXCEPTION_MEMMANAGE] = {.handler = br_memmanage_handler},
    [BR_EXCEPTION_BUSFAULT] = {.handler = br_busfault_handler},
    [BR_EXCEPTION_USAGEFAULT] = {.handler = br_usagefault_handler},
    [BR_EXCEPTION_SVCALL] = {.handler = br_svcall_handler},
    [BR_EXCEPTION_DEBUGMONITOR] = {.handler = br_debugmonitor_handler},
    [BR_EXCEPTION_PENDSV] = {.handler = br_pendsv_handler},
    [BR_EXCEPTION_SYSTICK] = {.handler = br_systick_handler},
};

/* Entered by the hardware with SP loaded: initialise RAM, run the stub. The
 * bounds belong to no C object, hence compared as integers (see above). */
void br_reset_handler(void)
{
	const uint32_t *src = br_ld_data_load;
	uint32_t *dst;

	for (dst = br_ld_data_start; (uintptr_t)dst < (uintptr_t)br_ld_data_end; dst++) {
		*dst = *src;
		src++;
	}
	for (dst = br_ld_bss_start; (uintptr_t)dst < (uintptr_t)br_ld_bss_end; dst++)
		*dst = 0U;
	br_main();
}
