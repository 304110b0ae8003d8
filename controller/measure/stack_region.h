/*
 * The stack region the controller paints in unmodified firmware: given on
 * the command line, or found in the ELF's linker-script symbols. Only this
 * region is painted (over a real probe, painting is slow).
 */
#ifndef BENCHRACK_MEASURE_STACK_REGION_H
#define BENCHRACK_MEASURE_STACK_REGION_H

#include <stdint.h>

#include "common/error.h"
#include "elf/elf_file.h"

typedef struct br_stack_region {
	uint32_t low;    /* lowest byte */
	uint32_t size;   /* bytes; low + size is one past the highest (the initial SP) */
	char source[96]; /* where it came from, for the report */
} br_stack_region_t;

/*
 * Finds the stack region in elf's symbols, trying in order the pairs that
 * linker scripts define: br_ld_stack_limit/br_ld_stack_top (benchrack's),
 * __StackLimit/__StackTop (CMSIS), _sstack/_estack, and _estack with
 * _Min_Stack_Size (STM32Cube; the reserved minimum, not all free RAM).
 * Returns BR_OK, or BR_ERR_USAGE saying which symbols were looked for and
 * to give --stack-region instead.
 */
br_status_t br_stack_region_from_elf(const br_elf_t *elf, br_stack_region_t *out, br_error_t *err);

/*
 * Parses "LOW:SIZE" (each 0x hex or decimal; SIZE may end in K) into *out.
 * The region must be non-empty, word-aligned at both ends and below 4 GiB.
 * Returns BR_OK or BR_ERR_USAGE.
 */
br_status_t br_stack_region_parse(const char *text, br_stack_region_t *out, br_error_t *err);

#endif
