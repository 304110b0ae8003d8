/*
 * malloc and free as the heap benches call them: the pool allocator
 * (heap_pool.h) wrapped by the stub's accounting hooks (benchrack/heap.h), so
 * that the stub counts every slot taken and given back. A slot is
 * HEAP_POOL_SLOT_BYTES whatever was asked: that is what the heap holds.
 */
#ifndef BENCHES_BENCH_HEAP_H
#define BENCHES_BENCH_HEAP_H

#include <stdint.h>

/* heap_pool_alloc, reported with BR_HEAP_ALLOC (a NULL result is not). */
void *bench_malloc(uint32_t bytes);

/* BR_HEAP_FREE, then heap_pool_free; NULL is ignored. */
void bench_free(void *ptr);

#endif
