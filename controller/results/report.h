/*
 * What the outputs write: per board, the run record, what it was compared
 * with and what the gate found. Every output format (format.h) and the
 * terminal table take an array of these, one per board, and nothing else.
 */
#ifndef BENCHRACK_RESULTS_REPORT_H
#define BENCHRACK_RESULTS_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "results/diff.h"
#include "results/gate.h"
#include "results/record.h"

typedef struct br_report {
	const br_run_record_t *run;
	const char *run_path;      /* the results/runs file, or NULL */
	const br_diff_t *diff;     /* NULL when nothing was compared */
	const char *baseline_path; /* what diff compared against, or NULL */
	const br_gate_t *gate;     /* NULL unless checked */
	bool figures;              /* show the run's own figures (run, check; not diff) */
} br_report_t;

typedef enum br_report_verdict {
	BR_REPORT_PASS,  /* everything measured, nothing failed */
	BR_REPORT_FAIL,  /* a budget, a regression, or a budgeted figure not measured */
	BR_REPORT_ERROR, /* a run failed or a bench could not run */
} br_report_verdict_t;

/* The verdict over all reports: ERROR before FAIL before PASS. */
br_report_verdict_t br_report_verdict(const br_report_t *reports, size_t count);

/* "pass", "fail", "error". */
const char *br_report_verdict_name(br_report_verdict_t verdict);

/* The diff row of bench and metric in report, or NULL. */
const br_diff_row_t *br_report_diff_row(const br_report_t *report, const char *bench,
                                        br_metric_t metric);

/* True when report's gate has a finding for bench and metric name. */
bool br_report_has_finding(const br_report_t *report, const char *bench, const char *metric);

/* A figure as text: whole numbers without decimals, others with one; from
 * 1e15 up, the fewest significant digits that read back as v (1e+40). */
void br_report_figure(double v, char *buf, size_t cap);

#endif
