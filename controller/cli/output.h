/*
 * The terminal side of the command line: colour only on a TTY and never
 * with NO_COLOR (the outputs themselves are report/report_output.h), what
 * the firmware prints, and progress on stderr while a long run goes on
 * (only on a TTY, so logs stay clean).
 */
#ifndef BENCHRACK_CLI_OUTPUT_H
#define BENCHRACK_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run/image_load.h"

/* True when stream is a terminal and NO_COLOR is unset or empty (no-color.org). */
bool br_cli_colour(FILE *stream);

/* What the firmware prints (semihosting), passed on to stderr as
 * "firmware: ..." (a br_target_output_fn). */
void br_cli_firmware_output(void *ctx, int fd, const char *text, size_t len);

/* "[index+1/count] name" on stderr, rewritten in place; only on a TTY. */
void br_cli_progress(void *ctx, unsigned index, unsigned count, const char *name);

/* A long load's progress, "loading: N of M bytes" on stderr, rewritten in
 * place; only on a TTY (a br_image_progress_fn). */
void br_cli_load_progress(void *ctx, size_t done, size_t total);

/* A load is over: one line on stderr, "loaded PATH: N bytes in K segments
 * written (F to flash), verified by qCRC" or "... already on the target
 * (...), nothing written"; only on a TTY (a br_image_loaded_fn). */
void br_cli_load_done(void *ctx, const char *path, const br_image_load_result_t *load);

/* Clears the progress line, if one is showing. */
void br_cli_progress_done(void *ctx);

#endif
