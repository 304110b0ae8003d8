/* Heap accounting for benches (see benchrack/heap.h). The figures live in the
 * control block's result area; the runner zeroes them before each bench. */
#include "benchrack/heap.h"

#include <stddef.h>

#include "runner.h"

void br_heap_alloc_record(const void *ptr, uint32_t bytes)
{
	br_result_t *result = &br_control_state.result;

	if (ptr == NULL)
		return;
	result->heap_allocs++;
	result->heap_live += bytes;
	if (result->heap_live > result->heap_peak)
		result->heap_peak = result->heap_live;
}

void br_heap_free_record(const void *ptr, uint32_t bytes)
{
	br_result_t *result = &br_control_state.result;

	if (ptr == NULL)
		return;
	if (bytes > result->heap_live)
		bytes = result->heap_live;
	result->heap_live -= bytes;
}
