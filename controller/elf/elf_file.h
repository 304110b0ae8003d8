/*
 * Opening a firmware ELF: a 32-bit little-endian ARM executable, as a
 * Cortex-M toolchain links it. Everything else in controller/elf reads from
 * the br_elf_t this returns.
 */
#ifndef BENCHRACK_ELF_FILE_H
#define BENCHRACK_ELF_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

typedef struct br_elf br_elf_t;

/*
 * Opens the ELF at path and checks that it is firmware this tool can measure:
 * an ELF (not .bin or .hex), for ARM (EM_ARM), 32-bit, little-endian, a linked
 * executable (ET_EXEC, not an object file), with every loadable segment inside
 * the file. On success stores a new handle in *out (the caller owns it and
 * frees it with br_elf_close) and returns BR_OK. Otherwise returns
 * BR_ERR_INPUT with a one-line message naming path, what is wrong and what to
 * do, and leaves *out NULL.
 */
br_status_t br_elf_open(const char *path, br_elf_t **out, br_error_t *err);

/* True when the file at path begins with the ELF magic (\177ELF): what a
 * command taking either an ELF or a record tells them apart by. */
bool br_elf_file_is_elf(const char *path);

/* Releases everything br_elf_open took. elf may be NULL. Names and data
 * pointers obtained from elf are invalid afterwards. */
void br_elf_close(br_elf_t *elf);

/* The path the file was opened with (owned by elf). */
const char *br_elf_path(const br_elf_t *elf);

/* The entry point from the ELF header, with the Thumb bit (bit 0) cleared:
 * a byte address, like every address controller/elf returns. */
uint32_t br_elf_entry(const br_elf_t *elf);

#endif
