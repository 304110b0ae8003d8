/*
 * A small fixed-slot allocator (heap_pool.c): HEAP_POOL_SLOTS slots of
 * HEAP_POOL_SLOT_BYTES each, in .bss, handed out from a free list. Every
 * allocation and release costs the same few instructions, whatever the
 * pool's state, so a bench that allocates measures a constant. It knows
 * nothing about measuring: bench_heap.h wraps it with the stub's hooks.
 */
#ifndef BENCHES_HEAP_POOL_H
#define BENCHES_HEAP_POOL_H

#include <stdint.h>

#define HEAP_POOL_SLOT_BYTES 32U
#define HEAP_POOL_SLOTS 16U

/* Makes every slot free again (what a bench does in its set-up: whatever an
 * earlier run leaked is reclaimed). */
void heap_pool_reset(void);

/* A slot for bytes (1..HEAP_POOL_SLOT_BYTES), 8-byte aligned, or NULL when
 * bytes is 0 or too large or every slot is taken. */
void *heap_pool_alloc(uint32_t bytes);

/* Returns the slot at ptr (from heap_pool_alloc) to the pool; NULL is
 * ignored. */
void heap_pool_free(void *ptr);

#endif
