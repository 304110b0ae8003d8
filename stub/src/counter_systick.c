/*
 * The board's free-running counter on a board without an instruction-exact
 * timer: SysTick on the processor clock (see counter.h and systick.h). Chosen
 * by the cross file's `counter = 'systick'` (stub/meson.build).
 *
 * Only the firmware can start it under QEMU (the host's writes to the system
 * control space change nothing there), and starting it arms one of QEMU's
 * virtual timers: counts on such a board are clock ticks, not exact
 * instruction counts (DESIGN.md, "The emulated board").
 */
#include "counter.h"

#include "systick.h"

void br_counter_enable(void)
{
	/* The full 24-bit period, no interrupt (TICKINT clear): a free-running
	 * down-counter the host reads as SYST_CVR. Order per B3.3.1: reload value,
	 * clear the current value, then enable. */
	SYST_RVR = SYST_RVR_RELOAD_MASK;
	SYST_CVR = 0U;
	SYST_CSR = SYST_CSR_CLKSOURCE_MASK | SYST_CSR_ENABLE_MASK;
}
