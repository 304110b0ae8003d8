/* This repository's memcpy (mem_copy.c): the firmware is freestanding, so
 * there is no C library's to call. */
#ifndef BENCHES_MEM_COPY_H
#define BENCHES_MEM_COPY_H

#include <stdint.h>

/*
 * Copies len bytes from src to dst (the ranges must not overlap) and returns
 * dst: a word at a time while both are 4-byte aligned, then byte by byte.
 * Never inlined, so its cost is one symbol's at every optimisation level.
 */
void *mem_copy(void *dst, const void *src, uint32_t len);

#endif
