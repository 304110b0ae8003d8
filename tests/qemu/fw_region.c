/*
 * Test firmware for `benchrack gdb` (test_gdb_cmd.py): an endless loop whose
 * work lies between two marker functions a debugger breaks on, region_start
 * and region_stop (real functions, noipa, never inlined away).
 */
#include <stdint.h>

#include "main.h"

volatile uint32_t region_rounds;

__attribute__((noipa, used)) void region_start(void);
__attribute__((noipa, used)) void region_stop(void);

__attribute__((noipa, used)) void region_start(void)
{
	__asm__ volatile("nop" : : : "memory");
}

__attribute__((noipa, used)) void region_stop(void)
{
	__asm__ volatile("nop" : : : "memory");
}

_Noreturn void br_main(void)
{
	for (;;) {
		region_start();
		region_rounds = region_rounds + 1U;
		region_stop();
	}
}
