/*
 * Test firmware: an endless loop calling two marker functions, for the
 * breakpoint tests and the per-halt benchmark. br_loop_count counts the
 * iterations, so a reader can tell which iteration a halt belongs to; the
 * markers are real functions (noipa) a debugger breaks on.
 */
#include <stdint.h>

#include "main.h"

volatile uint32_t br_loop_count;
/* A flash-resident table the differential memory test reads. */
const uint8_t br_loop_pattern[6000] = {
    [0] = 1, [1] = 2, [2047] = 0xAA, [2048] = 0x55, [4095] = 0x7D, [4096] = 0x23, [5999] = 0x24};

__attribute__((noipa, used)) void br_loop_marker_a(void);
__attribute__((noipa, used)) void br_loop_marker_b(void);
__attribute__((noipa, used)) void br_loop_sites(void);

/* br_loop_sites' calls per pass from its first call site (volatile: the
 * loop stays one call instruction). */
volatile uint32_t br_loop_site_repeat = 3U;

__attribute__((noipa, used)) void br_loop_marker_a(void)
{
	__asm__ volatile("nop" : : : "memory");
}

__attribute__((noipa, used)) void br_loop_marker_b(void)
{
	__asm__ volatile("nop" : : : "memory");
}

/* Called from two places in turn: three times from one, once from another
 * (a function whose return address changes now and then). */
__attribute__((noipa, used)) void br_loop_sites(void)
{
	__asm__ volatile("nop" : : : "memory");
}

_Noreturn void br_main(void)
{
	/* Keep the table: the linker drops unreferenced sections. */
	(void)*(const volatile uint8_t *)&br_loop_pattern[0];
	for (;;) {
		br_loop_count = br_loop_count + 1U;
		br_loop_marker_a();
		br_loop_marker_b();
		for (uint32_t i = 0; i < br_loop_site_repeat; i++)
			br_loop_sites();
		br_loop_sites();
	}
}
