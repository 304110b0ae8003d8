/*
 * A bench's size (DESIGN.md, "Size"): the text/data/bss of the image built
 * with that bench alone, less those of the image built the same way with the
 * empty bench (benches/: bench-<name>-O<level>.elf against
 * bench-empty-O<level>.elf); and, broken down by symbol, the functions and
 * data objects in flash or RAM the bench image has that the empty one lacks
 * or has smaller (its own code, tables and buffers), aliases folded
 * (elf/elf_symbol_sizes.h).
 */
#ifndef BENCHRACK_MEASURE_BENCH_SIZE_H
#define BENCHRACK_MEASURE_BENCH_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_sizes.h"
#include "elf/elf_symbol_sizes.h"

typedef struct br_bench_size {
	br_elf_sizes_t bench;    /* of the bench's image */
	br_elf_sizes_t empty;    /* of the empty bench's image */
	int64_t text, data, bss; /* bench - empty */
} br_bench_size_t;

typedef struct br_size_symbol {
	char name[BR_ELF_SIZED_NAMES];     /* every name of it: "a, b" (aliases) */
	char section[BR_ELF_SECTION_NAME]; /* where it is: ".text", ".rodata", ... */
	bool is_function;                  /* code, or else a data object */
	br_elf_memory_t memory;            /* flash, RAM or both (.data) */
	uint32_t size;                     /* bytes in the bench's image */
	uint32_t empty_size;               /* bytes in the empty image (0: not there) */
} br_size_symbol_t;

/*
 * The image of bench built the same way as elf: bench-<bench>-<rest> in
 * elf's folder, for an elf named suite-<rest> or bench-<other>-<rest> (the
 * benches/ build writes them side by side). Writes it into out and returns
 * true when that file is there and readable; false otherwise.
 */
bool br_bench_size_sibling(const char *elf, const char *bench, char *out, size_t cap);

/* The text/data/bss of the ELF at path (elf/elf_sizes.h). Errors: the ELF's. */
br_status_t br_bench_size_elf(const char *path, br_elf_sizes_t *out, br_error_t *err);

/* Sizes both images and their difference into *out. Errors: the ELF's. */
br_status_t br_bench_size_compute(const char *bench_elf, const char *empty_elf,
                                  br_bench_size_t *out, br_error_t *err);

/*
 * The functions and data objects in bench_elf's flash and RAM that empty_elf
 * (may be NULL: every one counts) lacks or has smaller, largest growth
 * first, ties by name; an entry of the empty image is the same when its
 * first name is. *out is allocated (free() it), *count its length. Their
 * sizes sum to at most bench_elf's text + data + bss.
 */
br_status_t br_bench_size_symbols(const char *bench_elf, const char *empty_elf,
                                  br_size_symbol_t **out, size_t *count, br_error_t *err);

#endif
