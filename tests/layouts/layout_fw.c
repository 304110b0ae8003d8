/*
 * A plain firmware as vendors' projects start it: its own vector table and
 * reset handler (no benchrack stub, no benchrack start-up code), .data copied
 * and .bss zeroed from linker symbols, C constructors run from .init_array,
 * then main. One source, linked by each of the vendor-style linker scripts
 * beside it (README.md there); the section the vector table goes in is the
 * script's (LAYOUT_VECTOR_SECTION), the symbol names are the ones every
 * script here defines.
 *
 * What the tests measure (tests/layouts/test_layouts.py), each cost taken
 * from the disassembly:
 *   layout_fixed   straight-line, called once per round of main's loop
 *   layout_other   straight-line, called once per round after layout_fixed
 *   layout_never   never called (plain_never_flag-style): a `to:` never reached
 * Built with -DLAYOUT_ONCE, main calls layout_fixed once and idles in an
 * endless loop. Built with -DLAYOUT_FAULT, main runs a few rounds and then executes an
 * undefined instruction: the core sits in HardFault_Handler from then on.
 */
#include <stdint.h>

#ifndef LAYOUT_VECTOR_SECTION
#error "LAYOUT_VECTOR_SECTION: the section the linker script puts first"
#endif

/* The linker script's symbols (every script here defines all of them). */
extern uint32_t _estack;
extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss;
typedef void (*layout_init_fn)(void);
extern layout_init_fn __init_array_start[], __init_array_end[];

void Reset_Handler(void);
void Default_Handler(void);
void HardFault_Handler(void);
int main(void);
uint32_t layout_fixed(uint32_t x);
uint32_t layout_other(uint32_t x);
void layout_never(void);

typedef union layout_vector {
	void (*handler)(void);
	uint32_t *stack_top;
} layout_vector_t;

#define LAYOUT_VECTORS 16

__attribute__((section(LAYOUT_VECTOR_SECTION), used))
const layout_vector_t layout_vectors[LAYOUT_VECTORS] = {
    [0] = {.stack_top = &_estack},
    [1] = {.handler = Reset_Handler},
    [2] = {.handler = Default_Handler},
    [3] = {.handler = HardFault_Handler},
    [4] = {.handler = Default_Handler},
    [5] = {.handler = Default_Handler},
    [6] = {.handler = Default_Handler},
    [11] = {.handler = Default_Handler},
    [12] = {.handler = Default_Handler},
    [14] = {.handler = Default_Handler},
    [15] = {.handler = Default_Handler},
};

void Default_Handler(void)
{
	for (;;) {
	}
}

void HardFault_Handler(void)
{
	for (;;) {
	}
}

void Reset_Handler(void)
{
	uint32_t *src = &_sidata;
	for (uint32_t *dst = &_sdata; (uintptr_t)dst < (uintptr_t)&_edata;)
		*dst++ = *src++;
	for (uint32_t *dst = &_sbss; (uintptr_t)dst < (uintptr_t)&_ebss;)
		*dst++ = 0U;
	for (layout_init_fn *f = __init_array_start; f < __init_array_end; f++)
		(*f)();
	(void)main();
	for (;;) {
	}
}

volatile uint32_t layout_sink;
volatile uint32_t layout_never_flag;
uint32_t layout_seed = 0x2545F491U; /* .data: copied by Reset_Handler */
static uint32_t layout_constructed;  /* .bss: set by the constructor */

/* A constructor: .init_array is not empty, as in any C++ or
 * __attribute__((constructor)) firmware. */
__attribute__((constructor)) static void layout_construct(void)
{
	layout_constructed = layout_seed ^ 0x5A5A5A5AU;
}

__attribute__((noipa)) uint32_t layout_fixed(uint32_t x)
{
	x = x * 0x9E3779B1U + 0x7F4A7C15U;
	x ^= x >> 15U;
	x *= 0x85EBCA6BU;
	return x ^ (x >> 13U);
}

__attribute__((noipa)) uint32_t layout_other(uint32_t x)
{
	x ^= x << 7U;
	x ^= x >> 9U;
	return x + 0x68E31DA4U;
}

__attribute__((noipa)) void layout_never(void)
{
	layout_sink = 0U;
}

int main(void)
{
	uint32_t round = 0U;
	layout_sink = layout_constructed;
#ifdef LAYOUT_ONCE
	layout_sink = layout_fixed(layout_sink);
	for (;;) {
	}
#endif
	for (;;) {
		layout_sink = layout_fixed(layout_sink);
		layout_sink = layout_other(layout_sink);
		if (layout_never_flag != 0U)
			layout_never();
		round++;
#ifdef LAYOUT_FAULT
		if (round == 4U)
			__builtin_trap(); /* UDF: a UsageFault, escalated to HardFault */
#endif
	}
}
