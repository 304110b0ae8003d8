/*
 * The profiler's unit tests on the real fixture image (fw_region.S): the
 * image named on the command line, and its symbols' addresses.
 */
#ifndef BENCHRACK_TESTS_PROFILE_FIXTURE_ELF_H
#define BENCHRACK_TESTS_PROFILE_FIXTURE_ELF_H

#include <stdio.h>

#include "check.h"
#include "elf/elf_symbols.h"

/* The ELF argv[1] names, or NULL after saying why (usage or open error). */
static inline br_elf_t *fixture_elf_open(int argc, char **argv)
{
	br_elf_t *elf = NULL;
	br_error_t err;
	if (argc != 2) {
		fprintf(stderr, "usage: %s FW_PROFILE_REGION_ELF\n", argv[0]);
		return NULL;
	}
	if (br_elf_open(argv[1], &elf, &err) != BR_OK) {
		fprintf(stderr, "%s\n", err.message);
		return NULL;
	}
	return elf;
}

/* The address of the symbol name (Thumb bit cleared); a check if missing. */
static inline uint32_t fixture_sym(const br_elf_t *elf, const char *name)
{
	br_elf_symbol_t s;
	br_error_t err;
	CHECK(br_elf_symbol_find(elf, name, &s, &err) == BR_OK);
	return s.address & ~1U;
}

#endif
