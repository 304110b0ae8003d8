/*
 * The report as one self-contained HTML page: the template
 * (assets/page.html) with its style, the data of report_data.h as JSON, the
 * charting libraries and the page's script inlined. The page fetches
 * nothing: a Content-Security-Policy of default-src 'none' forbids it, and
 * there is no link or source to anything outside the file.
 */
#ifndef BENCHRACK_REPORT_REPORT_HTML_H
#define BENCHRACK_REPORT_REPORT_HTML_H

#include <stdio.h>

#include "common/error.h"
#include "report/report_page.h"

/* Writes page (finished: br_page_finish) to out. BR_ERR_INFRA when the
 * data cannot be assembled in memory. */
br_status_t br_report_html_write(const br_page_t *page, FILE *out, br_error_t *err);

/*
 * Copies the JSON text json (len bytes, as br_json_* writes it) to out
 * without the whitespace between tokens, and with every '<' written as
 * \u003c, so that nothing in it can end the script element it sits in.
 */
void br_report_html_embed_json(const char *json, size_t len, FILE *out);

#endif
