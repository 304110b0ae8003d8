/*
 * For tests that drive a real target: the address of a symbol of a firmware
 * ELF, or the end of the test (the firmware is not the one it was built for).
 */
#ifndef BENCHRACK_TESTS_ELF_SYM_H
#define BENCHRACK_TESTS_ELF_SYM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "elf/elf_file.h"
#include "elf/elf_symbols.h"

/*
 * Returns the address of name in the ELF at elf_path. When the file cannot be
 * read or has no such symbol, prints "NAME: why" on stderr and exits with
 * exit_code.
 */
static inline uint32_t test_elf_sym_address(const char *elf_path, const char *name, int exit_code)
{
	br_elf_t *elf = NULL;
	br_error_t err;
	br_elf_symbol_t s = {0};
	if (br_elf_open(elf_path, &elf, &err) != BR_OK ||
	    br_elf_symbol_find(elf, name, &s, &err) != BR_OK) {
		fprintf(stderr, "%s: %s\n", name, err.message);
		exit(exit_code);
	}
	br_elf_close(elf);
	return s.address;
}

#endif
