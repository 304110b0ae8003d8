/* malloc_free: one allocation and its release per iteration, through the
 * pool allocator and the stub's hooks. The heap figures show one slot at
 * peak and nothing live at the end. */
#include "bench_heap.h"
#include "benches.h"
#include "heap_pool.h"

#define MALLOC_FREE_BYTES 24U

void bench_malloc_free(br_run_t *run)
{
	heap_pool_reset();
	BR_BENCH_LOOP(run) {
		void *block = bench_malloc(MALLOC_FREE_BYTES);

		BR_SINK(block);
		bench_free(block);
	}
}
