/* The pool allocator wrapped by the stub's heap hooks (see bench_heap.h). */
#include "bench_heap.h"

#include "benchrack/heap.h"
#include "heap_pool.h"

void *bench_malloc(uint32_t bytes)
{
	void *ptr = heap_pool_alloc(bytes);

	BR_HEAP_ALLOC(ptr, HEAP_POOL_SLOT_BYTES);
	return ptr;
}

void bench_free(void *ptr)
{
	BR_HEAP_FREE(ptr, HEAP_POOL_SLOT_BYTES);
	heap_pool_free(ptr);
}
