/*
 * The GNU build-id of a firmware ELF (ld --build-id): what ties a result to
 * the exact binary it came from.
 */
#ifndef BENCHRACK_ELF_BUILD_ID_H
#define BENCHRACK_ELF_BUILD_ID_H

#include <stddef.h>

#include "common/error.h"
#include "elf/elf_file.h"

/* The longest build-id accepted, in bytes (sha1 gives 20, md5 and uuid 16). */
#define BR_ELF_BUILD_ID_MAX_BYTES 64U
/* A buffer that holds any accepted build-id as hex, with its terminator. */
#define BR_ELF_BUILD_ID_HEX_SIZE (2U * BR_ELF_BUILD_ID_MAX_BYTES + 1U)

/*
 * Writes the build-id of elf (the NT_GNU_BUILD_ID note owned by "GNU", looked
 * for in SHT_NOTE sections, then in PT_NOTE segments) into hex as lower-case
 * hex digits, the way `readelf -n` prints it; hex is "" when the file has
 * none, which is not an error. hex is the caller's, of hex_size bytes (use
 * BR_ELF_BUILD_ID_HEX_SIZE). Returns BR_OK, BR_ERR_INPUT when the note is
 * longer than BR_ELF_BUILD_ID_MAX_BYTES, or BR_ERR_USAGE when
 * hex_size is too small for the note.
 */
br_status_t br_elf_build_id(const br_elf_t *elf, char *hex, size_t hex_size, br_error_t *err);

#endif
