/*
 * Where results go on the command line: the aligned table on stdout (colour
 * only on a TTY and never with NO_COLOR), a --format on stdout instead or in
 * --output FILE (written atomically), and progress on stderr while a long
 * run goes on (only on a TTY, so logs stay clean).
 */
#ifndef BENCHRACK_CLI_OUTPUT_H
#define BENCHRACK_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/error.h"
#include "results/format.h"
#include "results/report.h"

/*
 * The format to write: format by name, or inferred from output's extension
 * (.json json, .csv csv, .xml junit, .md markdown, .html html) when format is NULL; NULL
 * in *out when neither asks for one. An unknown name, or an output whose
 * extension says nothing, is BR_ERR_USAGE listing the formats.
 */
br_status_t br_cli_output_format(const char *format, const char *output, const br_format_t **out,
				 br_error_t *err);

/*
 * Writes reports: the table to stdout unless the format goes to stdout, and
 * the format (when one is asked for) to output, or stdout without output.
 */
br_status_t br_cli_output_write(const br_report_t *reports, size_t count, const char *format,
				const char *output, br_error_t *err);

/* The same, where --format html also shows the rack document at
 * rack_document (NULL: none). */
br_status_t br_cli_output_write_rack(const br_report_t *reports, size_t count, const char *format,
				     const char *output, const char *rack_document, br_error_t *err);

/* True when stream is a terminal and NO_COLOR is unset or empty (no-color.org). */
bool br_cli_colour(FILE *stream);

/* What the firmware prints (semihosting), passed on to stderr as
 * "firmware: ..." (a br_target_output_fn). */
void br_cli_firmware_output(void *ctx, int fd, const char *text, size_t len);

/* "[index+1/count] name" on stderr, rewritten in place; only on a TTY. */
void br_cli_progress(unsigned index, unsigned count, const char *name);

/* A long load's progress, "loading: N of M bytes" on stderr, rewritten in
 * place; only on a TTY (a br_image_progress_fn). */
void br_cli_load_progress(void *ctx, size_t done, size_t total);

/* Clears the progress line, if one is showing. */
void br_cli_progress_done(void);

#endif
