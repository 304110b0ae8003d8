/*
 * Where the results of run, check, diff and rack go: the aligned table on
 * the console, or a --format (results/format.h, or html: one page of
 * report_page.h) on the console instead, or in --output FILE (written
 * atomically) beside the table.
 */
#ifndef BENCHRACK_REPORT_REPORT_OUTPUT_H
#define BENCHRACK_REPORT_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/error.h"
#include "results/format.h"
#include "results/report.h"

/* The one format this layer adds to results/format.h's: one HTML page
 * (report_page.h). */
#define BR_REPORT_PAGE_FORMAT "html"

/* "json, ..., lava, html": every format this layer writes, for help texts
 * and messages. */
const char *br_report_output_format_names(void);

/* True when fmt is the page (BR_REPORT_PAGE_FORMAT). */
bool br_report_output_is_page(const br_format_t *fmt);

/*
 * The format to write: format by name, or inferred from output's extension
 * (.json json, .csv csv, .xml junit, .md markdown, .html html) when format
 * is NULL; NULL in *out when neither asks for one. An unknown name, or an
 * output whose extension says nothing, is BR_ERR_USAGE listing the formats.
 */
br_status_t br_report_output_format(const char *format, const char *output, const br_format_t **out,
                                    br_error_t *err);

/*
 * Writes reports: the table to console (in colour when colour) unless the
 * format goes there, and the format (when one is asked for) to output, or
 * to console without output. With --format html the page also shows the
 * rack document at rack_document (NULL: none).
 */
br_status_t br_report_output_write(const br_report_t *reports, size_t count, const char *format,
                                   const char *output, const char *rack_document, FILE *console,
                                   bool colour, br_error_t *err);

#endif
