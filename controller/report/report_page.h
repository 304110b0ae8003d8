/*
 * What one HTML report shows, gathered before anything is written: the run
 * history (run records, oldest first), the baselines, per board and suite
 * the latest run with its comparison and gate, rack documents with their
 * board × bench matrix, and profiles. Filled from files by `benchrack
 * report`, or from the reports of one `run`, `check` or `rack` (--format
 * html); finished by report_gather.h (which reads racks, report_rack.h, and
 * sizes, report_sizes.h: both build on this file), written by report_html.h.
 * Nothing here talks to a target.
 */
#ifndef BENCHRACK_REPORT_REPORT_PAGE_H
#define BENCHRACK_REPORT_REPORT_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "yaml/yaml_tree.h"
#include "report/report_profile.h"
#include "results/diff.h"
#include "results/gate.h"
#include "results/record.h"
#include "results/report.h"

#define BR_PAGE_PATH_BYTES 1024U
#define BR_PAGE_NAME_BYTES 256U
#define BR_PAGE_TEXT_BYTES 1024U

/* A run record or a baseline in the page. */
typedef struct br_page_record {
	br_run_record_t *rec; /* owned when owned, else the caller's (a br_report_t's) */
	bool owned;
	char path[BR_PAGE_PATH_BYTES];
	char series[BR_RECORD_NAME]; /* the board as the page names it: a rack's name for it, else
	                                the record's board; runs of one series and suite form a
	                                history */
} br_page_record_t;

/* One function or object of the firmware, by size. */
typedef struct br_page_symbol {
	char name[BR_PAGE_NAME_BYTES];
	char kind[16];    /* "function" or "object" */
	char section[32]; /* where it is in flash: ".text", ".rodata", ... */
	unsigned long long size;
} br_page_symbol_t;

/* What a bench adds to the firmware's text over the empty bench. */
typedef struct br_page_bench_text {
	char bench[BR_RECORD_NAME];
	long long text;
} br_page_bench_text_t;

/* The newest run of one board and suite, compared and gated. */
typedef struct br_page_latest {
	size_t run; /* index into runs */
	bool has_baseline;
	size_t baseline;       /* index into baselines */
	const br_diff_t *diff; /* NULL when no baseline was compared */
	const br_gate_t *gate; /* NULL when not gated */
	br_diff_t own_diff;    /* what diff points at when the page computed it */
	br_gate_t own_gate;
	bool owns;                 /* own_diff and own_gate are filled */
	br_page_symbol_t *symbols; /* biggest functions and objects of its firmware, or NULL */
	size_t symbol_count;
	br_page_bench_text_t *bench_text; /* per bench text over the empty bench, or NULL */
	size_t bench_text_count;
} br_page_latest_t;

/* A suite of a rack's board, as the rack document records it. */
typedef struct br_page_rack_suite {
	char suite[BR_PAGE_PATH_BYTES];
	char outcome[16]; /* "pass", "regression", "infra", "not-run" */
	char reason[BR_PAGE_TEXT_BYTES];
	unsigned attempts;
	char **failed; /* reasons of the failed attempts */
	size_t failed_count;
	char run_path[BR_PAGE_PATH_BYTES]; /* "" when none */
	bool has_run;
	size_t run; /* index into runs when has_run */
} br_page_rack_suite_t;

typedef struct br_page_rack_board {
	char name[BR_RECORD_NAME];
	char board_file[BR_PAGE_PATH_BYTES];
	char outcome[16];
	bool probed, healthy;
	char health_reason[BR_PAGE_TEXT_BYTES];
	char **health_failed;
	size_t health_failed_count;
	br_page_rack_suite_t *suites;
	size_t suite_count;
} br_page_rack_board_t;

/* One cell of a rack matrix: a board's median of a bench against the rack's. */
typedef struct br_page_cell {
	bool known;
	double median;
	double ratio; /* median / rack median */
	bool off;     /* |ratio - 1| beyond the limit */
} br_page_cell_t;

/* Boards × benches of one suite and unit: cells[row * bench_count + col]. */
typedef struct br_page_matrix {
	char suite[BR_RECORD_NAME];
	char unit[BR_RECORD_NAME];
	double off_percent; /* the suite's fail_on_regression_percent */
	char (*benches)[BR_RECORD_NAME];
	size_t bench_count;
	double *rack_median; /* per bench; NAN when no board measured it */
	size_t *rows;        /* index into the rack's boards */
	bool *row_off;
	size_t row_count;
	br_page_cell_t *cells;
} br_page_matrix_t;

typedef struct br_page_rack {
	br_yaml_doc_t doc; /* the document as read: embedded in the page as it is */
	char name[BR_RECORD_NAME];
	char path[BR_PAGE_PATH_BYTES];
	int exit_code;
	br_page_rack_board_t *boards;
	size_t board_count;
	br_page_matrix_t *matrices;
	size_t matrix_count;
} br_page_rack_t;

typedef struct br_page {
	br_page_record_t *runs;
	size_t run_count;
	br_page_record_t *baselines;
	size_t baseline_count;
	br_page_latest_t *latest;
	size_t latest_count;
	br_page_rack_t *racks;
	size_t rack_count;
	br_flame_t *profiles; /* flame graphs */
	size_t profile_count;
	char **warnings; /* what was left out and why, shown at the top */
	size_t warning_count;
	bool finished;
} br_page_t;

/* True when a and b belong to one history: the same series and suite. */
bool br_page_same_series(const br_page_record_t *a, const br_page_record_t *b);

/* An empty page. */
void br_page_init(br_page_t *page);

/* Frees what a rack of the page owns (its document, boards and matrices). */
void br_page_rack_free(br_page_rack_t *rack);

/* Frees everything the page owns (records it read, diffs and gates it made). */
void br_page_free(br_page_t *page);

/*
 * Reads the run record at path into the page's history. A file that does
 * not read as a run record (broken, a baseline, another schema) is left out
 * with a warning on the page, not an error: one bad file in a results folder
 * does not hide the rest. A path already in the page is not read twice.
 */
void br_page_add_run_file(br_page_t *page, const char *path);

/* The index of the run read from path (after br_page_finish: in time order);
 * false when no run of the page came from path. */
bool br_page_run_find(const br_page_t *page, const char *path, size_t *out);

/* Names the run read from path as series (a rack's name for its board). */
void br_page_run_name(br_page_t *page, const char *path, const char *series);

/* Every *.json file of dir as a run (br_page_add_run_file); a missing dir
 * adds nothing. BR_ERR_INPUT when dir exists but cannot be listed. */
br_status_t br_page_add_run_dir(br_page_t *page, const char *dir, br_error_t *err);

/* Every file matching the glob(3) pattern as a run; no match adds a warning. */
void br_page_add_run_glob(br_page_t *page, const char *pattern);

/* Every *.json file of dir as a baseline (kind "baseline"); others are
 * left out with a warning. A missing dir adds nothing. */
br_status_t br_page_add_baseline_dir(br_page_t *page, const char *dir, br_error_t *err);

/* The baseline at path (a run record is accepted as a baseline too). */
br_status_t br_page_add_baseline_file(br_page_t *page, const char *path, br_error_t *err);

/*
 * One report of `run`/`check` (or a rack board): its run record, comparison
 * and gate, borrowed (they must outlive the page). Its baseline record is
 * read from report->baseline_path when there is one.
 */
void br_page_add_report(br_page_t *page, const br_report_t *report);

/* Every profile in the file at path (report_profile.h: folded stacks or
 * speedscope). BR_ERR_INPUT naming the file when it does not read. */
br_status_t br_page_add_profile_file(br_page_t *page, const char *path, br_error_t *err);

/* Adds a warning shown at the top of the page (printf-style). */
void br_page_warn(br_page_t *page, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
