/*
 * Where a breakpoint goes, as a user names it: a function symbol, an address,
 * or file:line (DWARF line table). Resolved from the ELF alone, before any
 * server starts, so that a typo is a usage error, not a timeout.
 */
#ifndef BENCHRACK_MEASURE_LOCATION_H
#define BENCHRACK_MEASURE_LOCATION_H

#include <stdint.h>

#include "common/error.h"
#include "elf/elf_file.h"

#define BR_LOCATION_TEXT 160U

typedef struct br_location {
	uint32_t address;                /* Thumb bit cleared */
	char text[BR_LOCATION_TEXT];     /* as the user wrote it */
	char describe[BR_LOCATION_TEXT]; /* "0x08000124 (crc32_update+0x4)" */
} br_location_t;

/*
 * Resolves text in elf into *out:
 *   0x8000124, 134218020    an address (the Thumb bit, if set, is cleared);
 *   crc.c:42                file:line, the lowest is_stmt address of that line
 *                           (elf/elf_lines.h: errors name the nearest lines);
 *   crc32_update            a function symbol's entry.
 * A name that is data, not code, or that no symbol has, is BR_ERR_USAGE
 * naming it and the file; so is an address outside every function when the
 * file has a symbol table (a breakpoint there would never hit).
 */
br_status_t br_location_resolve(const br_elf_t *elf, const char *text, br_location_t *out,
                                br_error_t *err);

#endif
