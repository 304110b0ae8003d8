/*
 * The machine-readable outputs (--format NAME, --output FILE), one module
 * each: format_json.c, format_csv.c, format_junit.c, format_markdown.c,
 * format_bmf.c. Each writes every board's report to out, whole.
 */
#ifndef BENCHRACK_RESULTS_FORMAT_H
#define BENCHRACK_RESULTS_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "results/json_writer.h"
#include "results/report.h"

typedef void (*br_format_write_fn)(const br_report_t *reports, size_t count, FILE *out);

typedef struct br_format {
	const char *name;
	br_format_write_fn write;
} br_format_t;

/* The formats, each declared once, here, as X(ID, name, writer): --format
 * NAME picks one, its writer is br_format_WRITER_write, and every list of
 * them in a message is made from this list (report/report_output.h's
 * br_report_output_format_names, with its page; tests/style/check_closed_sets.py
 * fails on a name written elsewhere). */
#define BR_FORMAT_LIST(X)                                                                          \
	X(JSON, "json", json)                                                                      \
	X(CSV, "csv", csv)                                                                         \
	X(JUNIT, "junit", junit)                                                                   \
	X(MARKDOWN, "markdown", markdown)                                                          \
	X(BMF, "bmf", bmf)                                                                         \
	X(LAVA, "lava", lava)

#define BR_FORMAT_ENUM_ROW(id, name, writer) BR_FORMAT_##id,
typedef enum br_format_id { BR_FORMAT_LIST(BR_FORMAT_ENUM_ROW) BR_FORMAT_COUNT } br_format_id_t;
#undef BR_FORMAT_ENUM_ROW

/* The format called name, or NULL. */
const br_format_t *br_format_find(const char *name);

/* The format id names. */
const br_format_t *br_format_get(br_format_id_t id);

/* {"schema_version", "kind": "report", "verdict", "runs": [record + comparison + gate]},
 * valid against results/schema/benchrack.schema.json. */
void br_format_json_write(const br_report_t *reports, size_t count, FILE *out);

/* The "comparison" and "gate" keys of one report as --format json writes
 * them, into the object j has open (the HTML report embeds them too). */
void br_format_json_comparison(br_json_t *j, const br_report_t *r);
void br_format_json_gate(br_json_t *j, const br_report_t *r);

/* RFC 4180 CSV: one row per board, bench and metric, with a header row. */
void br_format_csv_write(const br_report_t *reports, size_t count, FILE *out);

/* JUnit XML: a testsuite per board, a testcase per bench; gate findings are
 * failures, benches not run are skipped, a failed run is an error. */
void br_format_junit_write(const br_report_t *reports, size_t count, FILE *out);

/* GitHub-flavoured Markdown: a heading and a table per board, then findings. */
void br_format_markdown_write(const br_report_t *reports, size_t count, FILE *out);

/* Bencher Metric Format: {bench: {measure: {value, lower_value, upper_value}}}. */
void br_format_bmf_write(const br_report_t *reports, size_t count, FILE *out);

/* LAVA test-case lines: `lava-test-case NAME --result pass|fail --measurement
 * VALUE --units UNIT`, one per bench and board (format_lava.c). */
void br_format_lava_write(const br_report_t *reports, size_t count, FILE *out);

#endif
