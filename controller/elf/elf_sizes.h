/*
 * Code and data size of a firmware ELF, the way `arm-none-eabi-size` reports
 * it in its default (Berkeley) format, so the figures match what firmware
 * engineers already read.
 */
#ifndef BENCHRACK_ELF_SIZES_H
#define BENCHRACK_ELF_SIZES_H

#include <stddef.h>
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

/* Where an allocated section's bytes go, by the rule above. */
typedef enum br_elf_memory {
	BR_ELF_MEMORY_FLASH = 0, /* text: stored in flash, read from there */
	BR_ELF_MEMORY_BOTH,      /* data: stored in flash, copied to RAM at startup */
	BR_ELF_MEMORY_RAM,       /* bss: RAM only, nothing stored */
} br_elf_memory_t;

/* The memory of an allocated section of flags sh_flags and type sh_type. */
br_elf_memory_t br_elf_section_memory(uint64_t sh_flags, uint32_t sh_type);

/* Bytes of flash and of RAM that size bytes in memory m take. */
uint64_t br_elf_memory_flash(br_elf_memory_t m, uint64_t size);
uint64_t br_elf_memory_ram(br_elf_memory_t m, uint64_t size);

/* "flash", "flash+ram" or "ram". */
const char *br_elf_memory_name(br_elf_memory_t m);

typedef struct br_elf_section_size {
	char name[32];          /* ".text", ... (cut to fit) */
	uint64_t size;          /* sh_size */
	br_elf_memory_t memory; /* by the rule above */
} br_elf_section_size_t;

/*
 * The allocated (SHF_ALLOC) sections of elf of non-zero size, in file order,
 * into a new array *out of *count (free() it; NULL when none). BR_OK, or
 * BR_ERR_INPUT naming the file when a section header is unreadable.
 */
br_status_t br_elf_sections_list(const br_elf_t *elf, br_elf_section_size_t **out, size_t *count,
                                 br_error_t *err);

#endif
