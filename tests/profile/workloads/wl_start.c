/*
 * The workloads' start-up (workload.h): the vector table (the stack's top,
 * then the reset handler, then a fault loop for every other exception), the
 * reset handler copying .data and zeroing .bss, and the two markers that
 * bound the region the tests profile (--from region_start --to
 * region_stop).
 */
#include <stdint.h>

#include "workload.h"

#define WL_VECTORS 16U

extern uint32_t __stack_top;
extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];

volatile uint32_t wl_sink;

static uint32_t wl_seed;

void Reset_Handler(void);
void wl_fault(void);

__attribute__((section(".vectors"), used)) const uintptr_t wl_vectors[WL_VECTORS] = {
    (uintptr_t)&__stack_top, (uintptr_t)Reset_Handler, (uintptr_t)wl_fault, (uintptr_t)wl_fault,
    (uintptr_t)wl_fault,     (uintptr_t)wl_fault,      (uintptr_t)wl_fault, (uintptr_t)wl_fault,
    (uintptr_t)wl_fault,     (uintptr_t)wl_fault,      (uintptr_t)wl_fault, (uintptr_t)wl_fault,
    (uintptr_t)wl_fault,     (uintptr_t)wl_fault,      (uintptr_t)wl_fault, (uintptr_t)wl_fault,
};

WL_KEEP void wl_fault(void)
{
	for (;;)
		wl_sink = 0xdeadU;
}

/* The markers: different bodies, so the linker never folds them into one. */
WL_KEEP void region_start(void)
{
	wl_sink = 1U;
}

WL_KEEP void region_stop(void)
{
	wl_sink = wl_sink + 2U;
}

void wl_srand(uint32_t seed)
{
	wl_seed = seed;
}

WL_KEEP uint32_t wl_rand(void)
{
	wl_seed = (wl_seed * 1103515245U + 12345U) & 0x7fffffffU;
	return wl_seed >> 16;
}

void Reset_Handler(void)
{
	uint32_t *src = __data_load;
	for (uint32_t *dst = __data_start; dst < __data_end; dst++, src++)
		*dst = *src;
	for (uint32_t *dst = __bss_start; dst < __bss_end; dst++)
		*dst = 0U;
	wl_init();
	for (;;) {
		region_start();
		wl_benchmark();
		region_stop();
	}
}
