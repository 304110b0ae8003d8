/*
 * What a firmware's memory holds, by symbol: every function and every data
 * object (lookup tables, const arrays, .data, .bss buffers) in an allocated
 * section, each with its size, its section and the memory it takes (flash,
 * RAM, or both for .data: elf/elf_sizes.h).
 *
 * Symbols that cover the same bytes are one entry: aliases at one address
 * (`__aeabi_dadd` and `__adddf3`) and a symbol lying inside another are
 * folded into a single entry naming all of them, and every entry is clipped
 * to its section. So entries never overlap and their sizes sum to at most
 * the sizes of the sections they are in: a breakdown that adds up.
 */
#ifndef BENCHRACK_ELF_SYMBOL_SIZES_H
#define BENCHRACK_ELF_SYMBOL_SIZES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_file.h"
#include "elf/elf_sizes.h"

/* The longest list of names one entry keeps; a longer one ends in ", ...". */
#define BR_ELF_SIZED_NAMES 512U
#define BR_ELF_SECTION_NAME 32U

typedef struct br_elf_sized {
	char name[BR_ELF_SIZED_NAMES];     /* the first of names: what the entry is matched by */
	char names[BR_ELF_SIZED_NAMES];    /* "a, b": global names first, then weak, then
	                                      local, by name, each once (demangled) */
	char section[BR_ELF_SECTION_NAME]; /* ".text", ".rodata", ... (cut to fit) */
	uint32_t address;                  /* byte address (Thumb bit cleared) */
	uint32_t size;                     /* bytes, within the section */
	bool is_function;                  /* any of the names is a function (STT_FUNC) */
	br_elf_memory_t memory;            /* its section's */
} br_elf_sized_t;

/*
 * The functions and objects of elf's allocated (SHF_ALLOC) sections, .bss
 * and other SHT_NOBITS ones included, folded and clipped as above, largest first (ties by address),
 * into a new array *out of *count entries (free() it; NULL when none).
 * Symbols of size 0 and those outside every such section are left out; a
 * stripped file gives none. BR_OK, or BR_ERR_INPUT naming the file when a
 * section header cannot be read.
 */
br_status_t br_elf_symbol_sizes(const br_elf_t *elf, br_elf_sized_t **out, size_t *count,
                                br_error_t *err);

#endif
