/* The heap figures of the bench running on the host (host_heap.c). */
#ifndef BENCHES_HOST_HEAP_H
#define BENCHES_HOST_HEAP_H

#include <stdint.h>

typedef struct br_host_heap {
	uint32_t peak;   /* bytes */
	uint32_t live;   /* bytes still allocated */
	uint32_t allocs; /* allocations */
} br_host_heap_t;

/* Counted by benchrack/heap.h's hooks; zeroed by the runner before a bench. */
extern br_host_heap_t br_host_heap;

#endif
