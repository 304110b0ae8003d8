/*
 * What changed in size between two builds of a firmware (`benchrack diff
 * OLD.elf NEW.elf`), the way bloaty's `new.elf -- old.elf` shows it: by
 * symbol (aliases folded, elf/elf_symbol_sizes.h), by section, and by
 * compile unit (DWARF, elf/elf_units.h), each in flash and RAM bytes
 * (elf/elf_sizes.h: text in flash, .data in both, .bss in RAM).
 *
 * A symbol of one image is the same as one of the other when their first
 * names are (the global name of a folded entry); a section when its name is.
 * The compile-unit view sums the symbols of each unit, so bytes no symbol
 * covers (padding, the vector table when it has no symbol) count only in
 * the section view; symbols of no unit (no -g, assembly) count under
 * BR_SIZE_NO_UNIT.
 */
#ifndef BENCHRACK_MEASURE_SIZE_DIFF_H
#define BENCHRACK_MEASURE_SIZE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_symbol_sizes.h"

#define BR_SIZE_UNIT_BYTES 256U
#define BR_SIZE_NO_UNIT "(no compile unit)"

typedef enum br_size_view {
	BR_SIZE_BY_SYMBOL = 0,
	BR_SIZE_BY_SECTION,
	BR_SIZE_BY_UNIT,
	BR_SIZE_VIEWS,
} br_size_view_t;

typedef struct br_size_row {
	char name[BR_ELF_SIZED_NAMES];     /* symbol: its names ("a, b"); section,
	                                      unit: its name */
	char section[BR_ELF_SECTION_NAME]; /* symbol: its section (the new one's when
	                                      in both); else "" */
	char unit[BR_SIZE_UNIT_BYTES];     /* symbol: its compile unit; else "" */
	bool is_function;                  /* symbol: code, or else a data object */
	bool in_old, in_new;               /* present in each image */
	uint64_t old_flash, old_ram;       /* bytes in the old image (0: absent) */
	uint64_t new_flash, new_ram;       /* bytes in the new one */
} br_size_row_t;

typedef struct br_size_table {
	br_size_row_t *rows; /* the rows that changed, largest change first */
	size_t count;
	size_t unchanged; /* rows in both images at the same size, left out */
} br_size_table_t;

typedef struct br_size_diff {
	const char *old_elf, *new_elf; /* as given */
	br_size_table_t views[BR_SIZE_VIEWS];
	br_size_row_t total; /* the images: flash text + data, RAM data + bss */
} br_size_diff_t;

/* New minus old flash (or RAM) bytes of a row. */
int64_t br_size_row_flash_change(const br_size_row_t *row);
int64_t br_size_row_ram_change(const br_size_row_t *row);

/* "symbols", "sections" or "compile_units". */
const char *br_size_view_name(br_size_view_t view);

/*
 * Compares the images at old_elf and new_elf into *out (br_size_diff_free()
 * it), each view sorted by the absolute change of flash plus RAM, largest
 * first, ties by name. Errors: the ELFs' (a missing file, a corrupt or
 * truncated one), naming the file.
 */
br_status_t br_size_diff_compute(const char *old_elf, const char *new_elf, br_size_diff_t *out,
                                 br_error_t *err);

void br_size_diff_free(br_size_diff_t *d);

#endif
