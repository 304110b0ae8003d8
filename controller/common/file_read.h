/*
 * Reading a whole input file (a configuration, a record, a spool item) into
 * memory, bounded: what every reader of such a file needs first.
 */
#ifndef BENCHRACK_COMMON_FILE_READ_H
#define BENCHRACK_COMMON_FILE_READ_H

#include <stddef.h>

#include "common/error.h"

/*
 * Reads the regular file at path, at most max_bytes long, into *data
 * (malloc'd, NUL-terminated after its *size bytes; the caller frees).
 * BR_ERR_INPUT naming path and the reason otherwise (cannot be read, not a
 * regular file, too large), *data then NULL.
 */
br_status_t br_file_read_all(const char *path, size_t max_bytes, unsigned char **data,
			     size_t *size, br_error_t *err);

#endif
