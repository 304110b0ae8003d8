/*
 * Files that are either wholly written or not there: write to a temporary
 * file in the same directory, flush and fsync it, rename it over the target,
 * fsync the directory. A crash leaves the old file or the new one, never half.
 * Only a regular file or a new name is replaced so (issue 31): a device or a
 * FIFO being read is written through, like stdout; a symbolic link, a
 * directory or a FIFO nobody reads is refused, never replaced.
 */
#ifndef BENCHRACK_RESULTS_ATOMIC_FILE_H
#define BENCHRACK_RESULTS_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"

typedef struct br_atomic_file {
	FILE *stream;         /* write the contents here */
	char path[1024];      /* the final name */
	char temp_path[1040]; /* where the contents go until commit */
	bool through;         /* path is a device or FIFO, written directly */
} br_atomic_file_t;

/* Opens a temporary file beside path for writing. BR_ERR_INPUT names the path on failure. */
br_status_t br_atomic_file_open(br_atomic_file_t *f, const char *path, br_error_t *err);

/* Flushes, fsyncs and renames the temporary file to the final path (a
 * device or FIFO: flushes and closes it). A failed write names the path and,
 * for ENOSPC, "no space left". */
br_status_t br_atomic_file_commit(br_atomic_file_t *f, br_error_t *err);

/* Drops the temporary file (after an error); the final path is untouched. */
void br_atomic_file_abort(br_atomic_file_t *f);

#endif
