#include "report/report_output.h"

#include <string.h>

#include "report/report_gather.h"
#include "report/report_html.h"
#include "report/report_page.h"
#include "report/report_rack.h"
#include "results/atomic_file.h"
#include "results/table.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* --format html: one report page (controller/report) of the reports, and of
 * a rack's document when there is one. Written by page_write, not through
 * the table of results/format.h, since it can fail. */
static const br_format_t html_format = {BR_REPORT_PAGE_FORMAT, NULL};

/* results/format.h's names, then the page's. */
#define NAME_ROW(id, name, writer) name ", "
static const char format_names[] = BR_FORMAT_LIST(NAME_ROW) BR_REPORT_PAGE_FORMAT;

const char *br_report_output_format_names(void)
{
	return format_names;
}

bool br_report_output_is_page(const br_format_t *fmt)
{
	return fmt == &html_format;
}

static br_status_t page_write(const br_report_t *reports, size_t count, const char *rack_document,
                              FILE *out, br_error_t *err)
{
	br_page_t page;
	br_page_init(&page);
	for (size_t i = 0; i < count; i++)
		br_page_add_report(&page, &reports[i]);
	br_status_t st = BR_OK;
	if (rack_document != NULL)
		st = br_page_add_rack_file(&page, rack_document, err);
	if (st == BR_OK) {
		br_page_finish(&page);
		st = br_report_html_write(&page, out, err);
	}
	br_page_free(&page);
	return st;
}

static br_status_t format_write(const br_format_t *fmt, const br_report_t *reports, size_t count,
                                const char *rack_document, FILE *out, br_error_t *err)
{
	if (fmt == &html_format)
		return page_write(reports, count, rack_document, out, err);
	fmt->write(reports, count, out);
	return BR_OK;
}

br_status_t br_report_output_format(const char *format, const char *output, const br_format_t **out,
                                    br_error_t *err)
{
	*out = NULL;
	if (format == NULL && output != NULL) {
		/* PAGE: the page, else a format of results/format.h. */
		enum { PAGE = BR_FORMAT_COUNT };
		static const struct {
			const char *extension;
			unsigned format;
		} by_extension[] = {
		    {".json", BR_FORMAT_JSON},
		    {".csv", BR_FORMAT_CSV},
		    {".xml", BR_FORMAT_JUNIT},
		    {".md", BR_FORMAT_MARKDOWN},
		    {".markdown", BR_FORMAT_MARKDOWN},
		    {".html", PAGE},
		    {".htm", PAGE},
		};
		for (size_t i = 0; i < sizeof(by_extension) / sizeof(by_extension[0]); i++) {
			if (ends_with(output, by_extension[i].extension))
				format = by_extension[i].format == PAGE
				             ? html_format.name
				             : br_format_get((br_format_id_t)by_extension[i].format)
				                   ->name;
		}
		if (format == NULL)
			return br_error_set(err, BR_ERR_USAGE,
			                    "--output %s: say which format with --format (one of "
			                    "%s)",
			                    output, format_names);
	}
	if (format == NULL)
		return BR_OK;
	*out = strcmp(format, html_format.name) == 0 ? &html_format : br_format_find(format);
	if (*out == NULL)
		return br_error_set(err, BR_ERR_USAGE,
		                    "--format %s: unknown format; expected one of %s", format,
		                    format_names);
	return BR_OK;
}

br_status_t br_report_output_write(const br_report_t *reports, size_t count, const char *format,
                                   const char *output, const char *rack_document, FILE *console,
                                   bool colour, br_error_t *err)
{
	const br_format_t *fmt = NULL;
	br_status_t st = br_report_output_format(format, output, &fmt, err);
	if (st != BR_OK)
		return st;
	if (fmt == NULL || output != NULL)
		br_table_write(reports, count, colour, console);
	if (fmt == NULL)
		return BR_OK;
	if (output == NULL) {
		st = format_write(fmt, reports, count, rack_document, console, err);
		fflush(console);
		return st;
	}
	br_atomic_file_t f;
	st = br_atomic_file_open(&f, output, err);
	if (st != BR_OK)
		return st;
	st = format_write(fmt, reports, count, rack_document, f.stream, err);
	if (st != BR_OK) {
		br_atomic_file_abort(&f);
		return st;
	}
	return br_atomic_file_commit(&f, err);
}
