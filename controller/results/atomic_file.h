/*
 * Files that are either wholly written or not there: write to a temporary
 * file in the same directory, flush and fsync it, rename it over the target,
 * fsync the directory. A crash leaves the old file or the new one, never half.
 */
#ifndef BENCHRACK_RESULTS_ATOMIC_FILE_H
#define BENCHRACK_RESULTS_ATOMIC_FILE_H

#include <stdio.h>

#include "common/error.h"

typedef struct br_atomic_file {
	FILE *stream;          /* write the contents here */
	char path[1024];       /* the final name */
	char temp_path[1040];  /* where the contents go until commit */
} br_atomic_file_t;

/* Opens a temporary file beside path for writing. BR_ERR_INPUT names the path on failure. */
br_status_t br_atomic_file_open(br_atomic_file_t *f, const char *path, br_error_t *err);

/* Flushes, fsyncs and renames the temporary file to the final path. */
br_status_t br_atomic_file_commit(br_atomic_file_t *f, br_error_t *err);

/* Drops the temporary file (after an error); the final path is untouched. */
void br_atomic_file_abort(br_atomic_file_t *f);

#endif
