/*
 * The benches of this repository, one per file. Each runs its measured work in
 * BR_BENCH_LOOP (benchrack/bench.h); default_suite.c lists them for the suite
 * image, single_suite.c picks one for a single-bench image.
 */
#ifndef BENCHES_BENCHES_H
#define BENCHES_BENCHES_H

#include "benchrack/bench.h"

/* The baseline: an empty body. Its count is the loop's own overhead. */
void bench_empty(br_run_t *run);

/* Exactly NOP1000_COUNT `nop` instructions per iteration. */
void bench_nop1000(br_run_t *run);

/* CRC-32/IEEE of the first 64 bytes of crc32_input. */
void bench_crc32_64(br_run_t *run);

/* CRC-32/IEEE of the first 256 bytes of crc32_input. */
void bench_crc32_256(br_run_t *run);

/* One bench_malloc and its bench_free per iteration: peak one slot, none live. */
void bench_malloc_free(br_run_t *run);

/* The pair with the last block never freed: one slot live at the end, a leak. */
void bench_malloc_leak(br_run_t *run);

/* recursion_descend to the request's argument as depth (default 8). */
void bench_recursion(br_run_t *run);

/* mem_copy of 1 KiB, word-aligned. */
void bench_memcpy_1k(br_run_t *run);

#endif
