/* See mem_copy.h. The loops stay loops: the cross file switches off the
 * pass that would turn them into a call of the memcpy this image lacks
 * (tests/firmware/freestanding.py checks every image). */
#include "mem_copy.h"
#include "keep_whole.h"

#include <stddef.h>

#define MEM_COPY_WORD_BYTES 4U
#define MEM_COPY_ALIGN_MASK 3U

BENCH_KEEP_WHOLE void *mem_copy(void *dst, const void *src, uint32_t len)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if ((((uintptr_t)d | (uintptr_t)s) & MEM_COPY_ALIGN_MASK) == 0U) {
		for (; len >= MEM_COPY_WORD_BYTES; len -= MEM_COPY_WORD_BYTES) {
			*(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
			d += MEM_COPY_WORD_BYTES;
			s += MEM_COPY_WORD_BYTES;
		}
	}
	for (; len > 0U; len--)
		*d++ = *s++;
	return dst;
}
