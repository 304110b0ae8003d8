/*
 * A size diff of two ELFs (measure/size_diff.h) written out: a table for a
 * terminal, JSON (kind "size_diff", results/SCHEMA.md) and Markdown for a
 * pull-request comment. Each shows the totals, then by symbol, by section
 * and by compile unit the rows that changed, largest change first, each in
 * flash and RAM bytes (old, new, change), and how many rows did not change.
 */
#ifndef BENCHRACK_RUN_SIZE_DIFF_REPORT_H
#define BENCHRACK_RUN_SIZE_DIFF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"
#include "measure/size_diff.h"

typedef enum br_size_diff_format {
	BR_SIZE_DIFF_TABLE = 0,
	BR_SIZE_DIFF_JSON,
	BR_SIZE_DIFF_MARKDOWN,
} br_size_diff_format_t;

/* The format named name ("table", "json", "markdown"); false when none is. */
bool br_size_diff_format_parse(const char *name, br_size_diff_format_t *out);

/* Writes d in format fmt to out. */
void br_size_diff_write(const br_size_diff_t *d, br_size_diff_format_t fmt, FILE *out);

/* Writes d in format fmt to the file at path, atomically (results/atomic_file.h).
 * Errors: the file's, naming it. */
br_status_t br_size_diff_save(const br_size_diff_t *d, br_size_diff_format_t fmt, const char *path,
                              br_error_t *err);

#endif
