/* malloc_leak: the malloc/free pair with a classic bug — each iteration frees
 * the block the previous one allocated, and the last block is never freed.
 * One slot is live at the end: the stub's figures report it as a leak. */
#include <stddef.h>

#include "bench_heap.h"
#include "benches.h"
#include "heap_pool.h"

#define MALLOC_LEAK_BYTES 24U

void bench_malloc_leak(br_run_t *run)
{
	void *kept = NULL;

	heap_pool_reset();
	BR_BENCH_LOOP(run) {
		bench_free(kept);
		kept = bench_malloc(MALLOC_LEAK_BYTES);
		BR_SINK(kept);
	}
}
