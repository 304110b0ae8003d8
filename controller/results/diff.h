/*
 * Two records side by side (a baseline and a run, or two runs): per bench
 * and metric the old figure, the new one, the change and a verdict, each
 * metric judged by its own kind of evidence (results/metric_rule.h): exact
 * figures by their exact difference, noisy ones by a test: on the two sample
 * sets when both sides were measured interleaved in one run (check
 * --against; with both sides' launches known, each pair of launches
 * compared too, stats/paired_shift.h), else with the run as the unit against the runs a stored
 * baseline keeps (stats/run_shift.h), the samples' test having to agree:
 * better, worse or can't tell. Every metric is
 * lower-is-better and each is its own fact: a bench that got faster and
 * bigger shows both.
 */
#ifndef BENCHRACK_RESULTS_DIFF_H
#define BENCHRACK_RESULTS_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "results/metric_rule.h"
#include "results/record.h"
#include "stats/run_shift.h"
#include "stats/shift.h"

typedef enum br_change {
	BR_CHANGE_EQUAL,
	BR_CHANGE_BETTER,
	BR_CHANGE_WORSE,
	BR_CHANGE_NOT_DISTINGUISHABLE, /* noisy: can't tell (tested) or bands overlap */
	BR_CHANGE_NEW,                 /* only in the new record */
	BR_CHANGE_GONE,                /* only in the old record */
	BR_CHANGE_NOT_MEASURED,        /* the new record has no figure (not run, stack overrun) */
} br_change_t;

#define BR_DIFF_FIRMWARE "(firmware)"

typedef struct br_diff_row {
	char bench[BR_RECORD_NAME];
	br_metric_t metric;
	char metric_name[32]; /* "instructions", "cycles", "stack_bytes", ... */
	bool has_old, has_new;
	double old_value, new_value;
	bool percent_defined; /* false from 0, or when a side is missing */
	double percent;       /* 100 * delta / |old|; +-INFINITY from 0 */
	double delta;         /* new - old, or (tested) the shift's estimate */
	br_change_t change;
	double old_p10, old_p90, new_p10, new_p90; /* bands (equal to the value for sizes) */
	br_metric_class_t metric_class;
	bool tested;           /* noisy with both sample sets: shift holds the test */
	br_shift_t shift;      /* second (new) against first (old), in the metric's unit */
	size_t samples_needed; /* can't tell: samples a side that would bring the half-width
	                          down to samples_target; 0 when not worked out */
	double samples_target; /* the limit in the metric's unit, or else |estimate| */
	bool by_runs;          /* stored (not interleaved): runs holds the run test; with
	                          runs.df > 0 it decides, old_value its centre */
	br_run_shift_t runs;   /* the new run's median against the baseline's runs */
	bool drift_unknown;    /* the samples tell a change apart, but the baseline has no
	                          two runs of a build: can't tell how far runs drift */
	bool by_pairs;         /* interleaved with both sides' launches known: pairs holds
	                          the paired test of the launches' medians, and decides */
	br_shift_t pairs;
} br_diff_row_t;

/* The test whose figures a tested row's verdict rests on: the paired test
 * of an interleaved run's launches (by_pairs), the run test when it decided
 * (by_runs, runs.df > 0), else the samples' test. */
const br_shift_t *br_diff_row_evidence(const br_diff_row_t *row);

/* Whether new_rec and old_rec are the head and base of one interleaved run
 * (check --against): drift falls on both sides alike. */
bool br_diff_interleaved(const br_run_record_t *old_rec, const br_run_record_t *new_rec);

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

/*
 * The verdict in words, the same in every output (table, Markdown, JUnit,
 * HTML, upload): "worse by 5.0 % (4.6..5.4 %, p < 0.001)", "can't tell
 * (±3.0 %)", against a stored baseline's runs "worse by 20.1 % (12.0..28.9
 * %, p = 0.002; 10 baseline runs)" or "can't tell (+2.8 % ±7.9 % from run to
 * run, 10 baseline runs; check --against REF interleaves)" (the new figure
 * the median of several runs of this check: "...; median of 5 runs against
 * 10 baseline runs)"), with one run a
 * build "can't tell (+2.8 % within this run, p < 0.001; drift between runs
 * not known: ...)", "better by 1.2 %", "+4 B", "+1 instructions (+0.01 %)",
 * "equal", "not distinguishable (bands overlap)", "new", "gone", "not
 * measured". Written into buf.
 */
void br_diff_describe(const br_diff_row_t *row, char *buf, size_t cap);

/* Room for any br_diff_describe text. */
#define BR_DIFF_WORDS_BYTES 256U

/* "p < 0.001", "p = 0.012", "p = 0.34" into buf. */
void br_diff_format_p(double p, char *buf, size_t cap);

#endif
