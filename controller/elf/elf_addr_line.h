/*
 * Addresses to source lines, from the DWARF line table (libdw): what names
 * the hottest lines of a profile.
 */
#ifndef BENCHRACK_ELF_ADDR_LINE_H
#define BENCHRACK_ELF_ADDR_LINE_H

#include <stdbool.h>
#include <stdint.h>

#include "elf/elf_file.h"

/*
 * Finds the line-table row covering address (a byte address): its source
 * file (libdw's memory, valid while elf is open; the full path as compiled)
 * and line. Returns false when the file has no line for it (no -g, or code
 * with no line information).
 */
bool br_elf_addr_line(const br_elf_t *elf, uint32_t address, const char **file, unsigned *line);

#endif
