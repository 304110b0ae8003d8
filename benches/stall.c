/*
 * stall: never returns. The gate tests list it after benches that finish, to
 * stop a suite in its middle and check that what finished is on disk.
 */
#include "gate_benches.h"

void bench_stall(br_run_t *run)
{
	(void)run;
	for (;;)
		__asm__ volatile("nop");
}
