/*
 * recursion: recursion_descend to the depth the host asks for (the request's
 * argument; RECURSION_DEFAULT_DEPTH when it sends none). Its stack figure
 * grows by exactly one frame of recursion_descend per level; a depth whose
 * frames do not fit the stack region reports "not measured".
 *
 * The depth is capped at RECURSION_MAX_DEPTH: frames past the painted region
 * land in the free RAM between .bss and the stack, and the cap keeps them
 * there (128 KiB of SRAM, a few KiB of .data and .bss, frames of at most
 * 32 bytes at -O0).
 */
#include "benches.h"
#include "recursion_descend.h"

#define RECURSION_DEFAULT_DEPTH 8U
#define RECURSION_MAX_DEPTH 2048U

void bench_recursion(br_run_t *run)
{
	uint32_t depth = br_run_argument(run, RECURSION_DEFAULT_DEPTH);

	if (depth > RECURSION_MAX_DEPTH)
		depth = RECURSION_MAX_DEPTH;
	BR_BENCH_LOOP(run) {
		BR_SINK(recursion_descend(depth));
	}
}
