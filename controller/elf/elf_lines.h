/*
 * Source lines to addresses, from the DWARF line table (libdw): what lets a
 * user say `from crc32.c:12` instead of an address.
 */
#ifndef BENCHRACK_ELF_LINES_H
#define BENCHRACK_ELF_LINES_H

#include <stdint.h>

#include "common/error.h"
#include "elf/elf_file.h"

/*
 * Resolves file:line to an address: the lowest address of a line-table row
 * that begins a statement (is_stmt) of that line, in every compilation unit
 * (so a line of an inline function in a header resolves to its first copy).
 * file is matched against the line table's paths as a suffix on a path
 * component boundary: "crc32.c" matches "/src/lib/crc32.c", and so does
 * "lib/crc32.c", but not "/src/mycrc32.c". Stores the address (a byte
 * address, as Thumb code has no Thumb bit in DWARF) in *address and returns
 * BR_OK. Otherwise returns BR_ERR_INPUT with a message that says why: no
 * debug information (rebuild with -g), no such file, file matching several
 * different paths (give more of the path), or no code at that line (the
 * message names the nearest lines before and after that have code).
 */
br_status_t br_elf_line_address(const br_elf_t *elf, const char *file, unsigned line,
                                uint32_t *address, br_error_t *err);

#endif
