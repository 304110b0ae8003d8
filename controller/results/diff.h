/*
 * Two records side by side (a baseline and a run, or two runs): per bench
 * and metric the old figure, the new one, the change in percent and a
 * verdict, "not distinguishable" where the p10-p90 bands overlap by more
 * than the medians differ (stats/compare.h). Every metric is lower-is-better
 * and each is its own fact: a bench that got faster and bigger shows both.
 */
#ifndef BENCHRACK_RESULTS_DIFF_H
#define BENCHRACK_RESULTS_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "results/record.h"

typedef enum br_metric {
	BR_METRIC_COUNT, /* the median per iteration, in the counter's unit */
	BR_METRIC_STACK, /* deepest stack, bytes */
	BR_METRIC_HEAP,  /* heap peak, bytes */
	BR_METRIC_TEXT,  /* the firmware's text, bytes (bench "(firmware)") */
} br_metric_t;

typedef enum br_change {
	BR_CHANGE_EQUAL,
	BR_CHANGE_BETTER,
	BR_CHANGE_WORSE,
	BR_CHANGE_NOT_DISTINGUISHABLE,
	BR_CHANGE_NEW,          /* only in the new record */
	BR_CHANGE_GONE,         /* only in the old record */
	BR_CHANGE_NOT_MEASURED, /* the new record has no figure (not run, stack overrun) */
} br_change_t;

#define BR_DIFF_FIRMWARE "(firmware)"

typedef struct br_diff_row {
	char bench[BR_RECORD_NAME];
	br_metric_t metric;
	char metric_name[32];   /* "instructions", "cycles", "stack_bytes", ... */
	bool has_old, has_new;
	double old_value, new_value;
	bool percent_defined;   /* false from 0, or when a side is missing */
	double percent;         /* 100 * (new - old) / old; +-INFINITY from 0 */
	br_change_t change;
	double old_p10, old_p90, new_p10, new_p90; /* bands (equal to the value for sizes) */
} br_diff_row_t;

typedef struct br_diff {
	br_diff_row_t *rows;
	size_t count;
} br_diff_t;

/*
 * Refuses to compare records of different boards, counters, units or
 * clocks: BR_ERR_INPUT naming old_name, both values, and what to do.
 */
br_status_t br_diff_check_compatible(const br_run_record_t *old_rec, const char *old_name,
				     const br_run_record_t *new_rec, br_error_t *err);

/*
 * Compares new_rec against old_rec into *out (free with br_diff_free): for
 * each bench of new_rec in its order its count, stack and heap rows, then
 * benches only old_rec has, then the firmware's text. Call
 * br_diff_check_compatible first.
 */
void br_diff_compute(const br_run_record_t *old_rec, const br_run_record_t *new_rec,
		     br_diff_t *out);

void br_diff_free(br_diff_t *diff);

/*
 * `benchrack diff OLD NEW`: both records read from their files
 * (results/record_read.h), refused when they do not fit
 * (br_diff_check_compatible), then compared into *out. On BR_OK the caller
 * frees old_rec, new_rec (br_run_record_free) and out; on a failure nothing
 * is left to free.
 */
br_status_t br_diff_files(const char *old_path, const char *new_path, br_run_record_t *old_rec,
			  br_run_record_t *new_rec, br_diff_t *out, br_error_t *err);

/* "equal", "better", "worse", "not distinguishable", "new", "gone", "not measured". */
const char *br_change_name(br_change_t change);

/* The name a metric goes by: for BR_METRIC_COUNT the first word of unit
 * ("instructions", "cycles"), else "stack_bytes", "heap_peak_bytes",
 * "text_bytes". Written into buf. */
void br_metric_name(br_metric_t metric, const char *unit, char *buf, size_t cap);

/* "+12.5%", "-3.0%", "0.0%", "new (was 0)", "-" into buf. */
void br_diff_format_percent(const br_diff_row_t *row, char *buf, size_t cap);

#endif
