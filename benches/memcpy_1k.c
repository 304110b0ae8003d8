/* memcpy_1k: mem_copy of 1 KiB between two word-aligned buffers in RAM. */
#include "benches.h"
#include "mem_copy.h"

#define MEMCPY_1K_BYTES 1024U

static uint32_t memcpy_1k_source[MEMCPY_1K_BYTES / sizeof(uint32_t)];
static uint32_t memcpy_1k_destination[MEMCPY_1K_BYTES / sizeof(uint32_t)];

void bench_memcpy_1k(br_run_t *run)
{
	BR_BENCH_LOOP(run) {
		BR_SINK(mem_copy(memcpy_1k_destination, memcpy_1k_source, MEMCPY_1K_BYTES));
	}
}
