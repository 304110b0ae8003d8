/*
 * A size diff of two ELFs (measure/size_diff.h) written out: a table for a
 * terminal, JSON (kind "size_diff", results/SCHEMA.md) and Markdown for a
 * pull-request comment. Each shows the totals, then by symbol, by section
 * and by compile unit the rows that changed, largest change first, each in
 * flash and RAM bytes (old, new, change), and how many rows did not change.
 */
#ifndef BENCHRACK_REPORT_REPORT_SIZE_DIFF_H
#define BENCHRACK_REPORT_REPORT_SIZE_DIFF_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"
#include "measure/size_diff.h"

/* The formats of a size diff (`diff OLD.elf NEW.elf --format`), declared
 * once, here, as X(ID, name). */
#define BR_SIZE_DIFF_FORMAT_LIST(X)                                                                \
	X(TABLE, "table")                                                                          \
	X(JSON, "json")                                                                            \
	X(MARKDOWN, "markdown")

#define BR_SIZE_DIFF_ENUM_ROW(id, name) BR_SIZE_DIFF_##id,
typedef enum br_size_diff_format {
	BR_SIZE_DIFF_FORMAT_LIST(BR_SIZE_DIFF_ENUM_ROW)
} br_size_diff_format_t;
#undef BR_SIZE_DIFF_ENUM_ROW

/* The format named name in BR_SIZE_DIFF_FORMAT_LIST; false when none is. */
bool br_size_diff_format_parse(const char *name, br_size_diff_format_t *out);

/* "table, json, markdown": for help texts and messages. */
const char *br_size_diff_format_names(void);

/* Writes d in format fmt to out. */
void br_size_diff_write(const br_size_diff_t *d, br_size_diff_format_t fmt, FILE *out);

/* Writes d in format fmt to the file at path, atomically (results/atomic_file.h).
 * Errors: the file's, naming it. */
br_status_t br_size_diff_save(const br_size_diff_t *d, br_size_diff_format_t fmt, const char *path,
                              br_error_t *err);

#endif
