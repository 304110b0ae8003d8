/*
 * Symbols of a firmware ELF: by name (breakpoints, the stub's control block),
 * by address (naming a PC in messages), and all functions in turn (per-symbol
 * size breakdowns). Every address is a byte address: the Thumb bit of ARM
 * function symbols is cleared and reported separately.
 */
#ifndef BENCHRACK_ELF_SYMBOLS_H
#define BENCHRACK_ELF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_file.h"

typedef struct br_elf_symbol {
	uint32_t address; /* Thumb bit cleared */
	uint32_t size;    /* st_size: bytes of code or data; 0 when the assembler gave none */
	bool is_function; /* STT_FUNC */
	bool is_thumb;    /* a function whose st_value had bit 0 set */
} br_elf_symbol_t;

/* A function symbol, as the reverse lookup and the iterator return it. */
typedef struct br_elf_function {
	const char *name; /* owned by the br_elf_t; valid until br_elf_close */
	uint32_t address; /* Thumb bit cleared */
	uint32_t size;
} br_elf_function_t;

/*
 * Looks up the defined symbol called name (functions, objects, linker-script
 * symbols such as _estack; not section, file or ARM mapping symbols). A
 * global or weak definition wins over file-local ones; several file-local
 * definitions at different addresses and none global are ambiguous. Fills
 * *out and returns BR_OK; otherwise returns BR_ERR_INPUT with a message naming
 * the symbol and the file (not found, ambiguous, or no symbol table).
 */
br_status_t br_elf_symbol_find(const br_elf_t *elf, const char *name, br_elf_symbol_t *out,
                               br_error_t *err);

/*
 * Finds the function containing address: address in [start, start + size),
 * or equal to start for a function of size 0. A global definition wins over a
 * local alias. Returns true and fills *out, or false when no function symbol
 * covers address (or the file has no symbol table).
 */
bool br_elf_symbol_at(const br_elf_t *elf, uint32_t address, br_elf_function_t *out);

/*
 * Writes "0x08000124 (crc32_update+0x4)" for an address inside a function, or
 * "0x08000124" otherwise, into buf (always terminated; truncated to size).
 * For messages.
 */
void br_elf_symbol_describe(const br_elf_t *elf, uint32_t address, char *buf, size_t size);

/* Iterator over the function symbols (STT_FUNC, defined), in symbol table
 * order. Set up with br_elf_functions_begin; valid while the br_elf_t is. */
typedef struct br_elf_function_iter {
	const br_elf_t *elf;
	size_t next; /* symbol table index to look at next */
} br_elf_function_iter_t;

/* Starts iterating the function symbols of elf. */
void br_elf_functions_begin(const br_elf_t *elf, br_elf_function_iter_t *it);

/* Fills *out with the next function symbol and returns true, or returns false
 * when there are no more (at once for a stripped file). */
bool br_elf_functions_next(br_elf_function_iter_t *it, br_elf_function_t *out);

#endif
