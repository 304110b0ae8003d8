/*
 * One result record as what every time-series sink posts: a series per
 * measured bench (and one for the firmware's sizes), each a set of labels
 * and a set of named values, all at the run's start time. This is the one
 * place that decides what is uploaded and under which names; line protocol
 * (line_protocol.h) and the Prometheus text format (exposition.h) only
 * spell it out. A bench that was not run has no series: never a made-up
 * figure.
 *
 * Labels (never empty; an unknown one is left out), sorted by key:
 *   run:      board, build_id, counter, firmware (the ELF's file name),
 *             git_commit, host, server, sha256, suite, toolchain, unit
 *   per bench: bench, elf (an unmodified firmware's file name), mode; an
 *             entry with its own firmware has that firmware's firmware,
 *             build_id, sha256, git_commit and toolchain instead of the run's
 * A series of sizes for the run's firmware and one for each entry's own.
 * Which of them key a series (Prometheus labels, InfluxDB tags) is the
 * sink's choice (br_upload_labels_t): by default only bench, board, suite
 * and unit, which take a new value per bench, board, suite or unit and
 * never one per commit or build (Prometheus's guidance on cardinality); the
 * rest is provenance, written as InfluxDB string fields and as Pushgateway
 * info metrics, unless a sink's `labels:` names it.
 * Values: the bench's figures in the counter's unit (median, p10, p90, p95,
 * p99, min, max, mean, mad, calibration), cv_median (a ratio), the counts n
 * and outliers, stack_bytes, heap_peak_bytes, heap_live_bytes,
 * heap_allocations, wall_seconds; the firmware's text_bytes, data_bytes,
 * bss_bytes.
 */
#ifndef BENCHRACK_UPLOAD_METRICS_H
#define BENCHRACK_UPLOAD_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "results/record.h"

#define BR_UPLOAD_MAX_LABELS 16U
#define BR_UPLOAD_MAX_VALUES 24U
#define BR_UPLOAD_NUMBER_BYTES 32U

typedef struct br_upload_label {
	const char *key;
	const char *value; /* points into the record (or the series' own name buffers) */
} br_upload_label_t;

/* What a value is: its name, a line saying what it means, and whether it is
 * a count (an integer field in InfluxDB) or a measured figure (a float). */
typedef struct br_upload_metric {
	const char *name;
	const char *help;
	bool integer;
} br_upload_metric_t;

typedef struct br_upload_value {
	const br_upload_metric_t *metric;
	double value;
} br_upload_value_t;

typedef enum br_upload_series_kind {
	BR_UPLOAD_SERIES_BENCH,    /* one bench's figures */
	BR_UPLOAD_SERIES_FIRMWARE, /* the firmware's sizes */
} br_upload_series_kind_t;

typedef struct br_upload_series {
	br_upload_series_kind_t kind;
	br_upload_label_t labels[BR_UPLOAD_MAX_LABELS];
	size_t label_count;
	br_upload_value_t values[BR_UPLOAD_MAX_VALUES];
	size_t value_count;
	char *elf_name; /* owned: the file name the elf label points at */
} br_upload_series_t;

typedef struct br_upload_points {
	int64_t time_ms;                                    /* the run's start */
	br_upload_label_t run_labels[BR_UPLOAD_MAX_LABELS]; /* what every series carries */
	size_t run_label_count;
	char *firmware_name;        /* owned: the file name the firmware label points at */
	br_upload_series_t *series; /* owned */
	size_t count;
} br_upload_points_t;

/*
 * Maps run, read from run_file, into *out (free with br_upload_points_free);
 * the time is br_upload_time_of_run's. run must outlive out: labels point
 * into it, and into buffers out owns (so out is not copied). BR_ERR_INPUT
 * when the record's timestamp is not ISO 8601 (nothing could be placed in
 * time).
 */
br_status_t br_upload_points_map(const br_run_record_t *run, const char *run_file,
                                 br_upload_points_t *out, br_error_t *err);

/* Frees what br_upload_points_map allocated and zeroes points. */
void br_upload_points_free(br_upload_points_t *points);

/* Every metric a series can hold, in the order they are written; *count set. */
const br_upload_metric_t *br_upload_metrics(size_t *count);

/* The value of metric in series, or NULL when the series has none. */
const br_upload_value_t *br_upload_series_value(const br_upload_series_t *series,
                                                const br_upload_metric_t *metric);

/* The labels a sink keys series by: the bounded default and extra[0..count). */
#define BR_UPLOAD_MAX_EXTRA_LABELS 9U
typedef struct br_upload_labels {
	const char *extra[BR_UPLOAD_MAX_EXTRA_LABELS];
	size_t count;
} br_upload_labels_t;

/* True when key keys series under choice: one of bench, board, suite, unit,
 * or one of choice's extra labels. */
bool br_upload_label_keys(const br_upload_labels_t *choice, const char *key);

/* The label key's value in labels, or NULL. */
const char *br_upload_label_find(const br_upload_label_t *labels, size_t count, const char *key);

/*
 * v as the shortest decimal text that reads back as the same double (at
 * most 17 significant digits; whole numbers without a fraction), into buf
 * (BR_UPLOAD_NUMBER_BYTES). With integer, v is written as a whole number.
 */
void br_upload_number_format(double v, bool integer, char *buf, size_t cap);

#endif
