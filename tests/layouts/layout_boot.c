/*
 * A stand-in for a boot region below the application (nrf_like.ld): its
 * own vector table at the flash origin, where the core reads SP and PC at
 * reset, and a reset handler that moves VTOR to the application's table
 * (__app_start) and starts the application with its SP and reset handler.
 */
#include <stdint.h>

extern uint32_t _estack;
extern const uint32_t __app_start[];


__attribute__((section(".mbr_text"), noreturn, naked)) void layout_boot_reset(void);

typedef union layout_boot_vector {
	void (*handler)(void);
	uint32_t *stack_top;
} layout_boot_vector_t;

__attribute__((section(".mbr_vectors"), used))
const layout_boot_vector_t layout_boot_vectors[2] = {
    {.stack_top = &_estack},
    {.handler = layout_boot_reset},
};

void layout_boot_reset(void)
{
	__asm volatile("ldr r0, =__app_start\n"
	               "ldr r1, =0xE000ED08\n"
	               "str r0, [r1]\n"
	               "ldr r1, [r0]\n"
	               "msr msp, r1\n"
	               "ldr r1, [r0, #4]\n"
	               "bx r1\n");
}
