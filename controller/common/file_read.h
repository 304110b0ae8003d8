/*
 * Reading a whole input file (a configuration, a record, a spool item) into
 * memory, bounded: what every reader of such a file needs first.
 */
#ifndef BENCHRACK_COMMON_FILE_READ_H
#define BENCHRACK_COMMON_FILE_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/*
 * Reads the regular file at path, at most max_bytes long, into *data
 * (malloc'd, NUL-terminated after its *size bytes; the caller frees).
 * BR_ERR_INPUT naming path and the reason otherwise (cannot be read, not a
 * regular file, too large), *data then NULL. Symbolic links are followed;
 * nothing blocks (br_file_open_regular).
 */
br_status_t br_file_read_all(const char *path, size_t max_bytes, unsigned char **data, size_t *size,
                             br_error_t *err);

/*
 * Opens path for reading without ever blocking (O_NONBLOCK: a FIFO or a
 * device opens at once) and checks with fstat, before any read, that it is
 * a regular file; with nofollow a symbolic link is refused by name, never
 * followed (O_NOFOLLOW), so nothing of its target is read or quoted. Returns
 * the descriptor (blocking again, close-on-exec), or -1 with BR_ERR_INPUT in
 * err naming path and what it is (a FIFO, a device, a directory, a link).
 */
int br_file_open_regular(const char *path, bool nofollow, br_error_t *err);

/* br_file_read_all with the choice of br_file_open_regular's nofollow (for
 * the files benchrack writes itself: records, baselines, spool items). */
br_status_t br_file_read_regular(const char *path, bool nofollow, size_t max_bytes,
                                 unsigned char **data, size_t *size, br_error_t *err);

#endif
