/*
 * The stub's heap hooks (benchrack/heap.h) on the host: the same figures, kept
 * in a host-side struct the runner zeroes before each bench (host_heap.h).
 */
#include "host_heap.h"

#include <stddef.h>

#include "benchrack/heap.h"

br_host_heap_t br_host_heap;

void br_heap_alloc_record(const void *ptr, uint32_t bytes)
{
	if (ptr == NULL)
		return;
	br_host_heap.allocs++;
	br_host_heap.live += bytes;
	if (br_host_heap.live > br_host_heap.peak)
		br_host_heap.peak = br_host_heap.live;
}

void br_heap_free_record(const void *ptr, uint32_t bytes)
{
	if (ptr == NULL)
		return;
	br_host_heap.live -= bytes < br_host_heap.live ? bytes : br_host_heap.live;
}
