/*
 * benchrack heap accounting — the stub counts, the bench allocates.
 *
 * The stub has no allocator of its own. A bench that allocates reports each
 * allocation and each release through BR_HEAP_ALLOC / BR_HEAP_FREE; the stub
 * keeps the live byte count, its peak and the number of allocations in the
 * result area of the control block (heap_live, heap_peak, heap_allocs), zeroed
 * before every request. Live bytes left when the bench returns are a leak.
 */
#ifndef BENCHRACK_HEAP_H
#define BENCHRACK_HEAP_H

#include <stdint.h>

/* Record that `bytes` were allocated at ptr; a NULL ptr (failed allocation)
 * is not counted. */
void br_heap_alloc_record(const void *ptr, uint32_t bytes);

/* Record that the `bytes` allocated at ptr were released; NULL is ignored.
 * Releasing more than is live saturates the live count at 0. */
void br_heap_free_record(const void *ptr, uint32_t bytes);

/* Report an allocation of `bytes` at ptr (after the allocator returned it). */
#define BR_HEAP_ALLOC(ptr, bytes) br_heap_alloc_record((ptr), (bytes))

/* Report the release of the `bytes` allocated at ptr (before freeing it). */
#define BR_HEAP_FREE(ptr, bytes) br_heap_free_record((ptr), (bytes))

#endif
