/*
 * Which compile unit (source file, from DWARF: elfutils libdw) each address
 * of a firmware belongs to: the code ranges of every unit (DW_AT_low_pc /
 * DW_AT_high_pc or DW_AT_ranges) and the addresses of its variables
 * (DW_TAG_variable with a DW_OP_addr location), so that a size breakdown can
 * be summed by unit the way bloaty's "compileunits" is.
 */
#ifndef BENCHRACK_ELF_UNITS_H
#define BENCHRACK_ELF_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_file.h"

typedef struct br_elf_units br_elf_units_t;

/*
 * Reads the compile units of elf into a new map *out (br_elf_units_free()
 * it). A file without DWARF gives an empty map (every lookup then answers
 * NULL); a unit libdw cannot read is left out, so its addresses answer NULL
 * too: the breakdown then names them "no compile unit", never a wrong one.
 */
br_elf_units_t *br_elf_units_read(const br_elf_t *elf);

/* The name (DW_AT_name, as compiled) of the unit holding the byte at
 * address, or NULL when none does. The string lives as long as the map. */
const char *br_elf_units_find(const br_elf_units_t *units, uint32_t address);

void br_elf_units_free(br_elf_units_t *units);

#endif
