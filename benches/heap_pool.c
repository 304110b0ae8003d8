/* The fixed-slot allocator (see heap_pool.h): a singly linked free list
 * threaded through the free slots themselves. */
#include "heap_pool.h"

#include <stddef.h>

/* A free slot holds the link to the next free one; a taken slot, user data. */
typedef union heap_pool_slot {
	union heap_pool_slot *next_free;
	uint64_t align; /* 8-byte alignment, as AAPCS gives malloc */
	uint8_t bytes[HEAP_POOL_SLOT_BYTES];
} heap_pool_slot_t;

_Static_assert(sizeof(heap_pool_slot_t) == HEAP_POOL_SLOT_BYTES, "slot size");

static heap_pool_slot_t heap_pool_slots[HEAP_POOL_SLOTS];
static heap_pool_slot_t *heap_pool_free_list;

void heap_pool_reset(void)
{
	uint32_t i;

	heap_pool_free_list = NULL;
	for (i = HEAP_POOL_SLOTS; i > 0U; i--) {
		heap_pool_slots[i - 1U].next_free = heap_pool_free_list;
		heap_pool_free_list = &heap_pool_slots[i - 1U];
	}
}

__attribute__((noinline)) void *heap_pool_alloc(uint32_t bytes)
{
	heap_pool_slot_t *slot = heap_pool_free_list;

	if (bytes == 0U || bytes > HEAP_POOL_SLOT_BYTES || slot == NULL)
		return NULL;
	heap_pool_free_list = slot->next_free;
	return slot;
}

__attribute__((noinline)) void heap_pool_free(void *ptr)
{
	heap_pool_slot_t *slot = ptr;

	if (slot == NULL)
		return;
	slot->next_free = heap_pool_free_list;
	heap_pool_free_list = slot;
}
