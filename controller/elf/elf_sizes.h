/*
 * Code and data size of a firmware ELF, the way `arm-none-eabi-size` reports
 * it in its default (Berkeley) format, so the figures match what firmware
 * engineers already read.
 */
#ifndef BENCHRACK_ELF_SIZES_H
#define BENCHRACK_ELF_SIZES_H

#include <stdint.h>

#include "common/error.h"
#include "elf/elf_file.h"

typedef struct br_elf_sizes {
	uint64_t text; /* flash: code and read-only data */
	uint64_t data; /* flash and RAM: initialized writable data */
	uint64_t bss;  /* RAM: zero-initialized data */
} br_elf_sizes_t;

/*
 * Sums the sizes of the allocated sections (SHF_ALLOC) of elf, by the rule of
 * GNU size's Berkeley format (binutils size.c, berkeley_or_gnu_sum, with BFD's
 * mapping of ELF flags):
 *   text += executable (SHF_EXECINSTR) or read-only (no SHF_WRITE) sections,
 *           whatever their type (.text, .rodata, .ARM.exidx, notes);
 *   data += the other sections that have file contents (type != SHT_NOBITS):
 *           .data, .init_array;
 *   bss  += the rest: writable SHT_NOBITS (.bss, .noinit, the heap and stack
 *           reservations a linker script declares as sections).
 * Sections without SHF_ALLOC (debug info, symbols) count nowhere. Fills *out
 * and returns BR_OK, or BR_ERR_INPUT when a section header is unreadable.
 */
br_status_t br_elf_sizes_compute(const br_elf_t *elf, br_elf_sizes_t *out, br_error_t *err);

#endif
