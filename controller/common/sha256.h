/*
 * SHA-256 (FIPS 180-4) of a buffer or a file: the content hash that names a
 * firmware ELF linked without a GNU build-id note.
 */
#ifndef BENCHRACK_COMMON_SHA256_H
#define BENCHRACK_COMMON_SHA256_H

#include <stddef.h>

#include "common/error.h"

#define BR_SHA256_BYTES 32U
/* The digest as lower-case hex, with its terminator. */
#define BR_SHA256_HEX_SIZE (2U * BR_SHA256_BYTES + 1U)

/* The SHA-256 of data[0..size) as lower-case hex into hex (BR_SHA256_HEX_SIZE bytes). */
void br_sha256_hex(const unsigned char *data, size_t size, char hex[BR_SHA256_HEX_SIZE]);

/*
 * The SHA-256 of the regular file at path (at most max_bytes long) as hex.
 * BR_ERR_INPUT naming path when it cannot be read (common/file_read.h).
 */
br_status_t br_sha256_file(const char *path, size_t max_bytes, char hex[BR_SHA256_HEX_SIZE],
                           br_error_t *err);

#endif
