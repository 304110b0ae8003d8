/*
 * A run's results as one record: what was measured, on what, with which
 * counter, from which firmware (provenance), under which limits, and every
 * bench's figures. Filled by the CLI from measure/ and stats/ (or read back
 * from a file by record_read.h), written by the output formats, never by
 * anything that talks to a target. A baseline is the same record, kind
 * BR_RECORD_BASELINE, with raw samples only of noisy figures
 * (results/metric_rule.h): what a later run's test needs.
 */
#ifndef BENCHRACK_RESULTS_RECORD_H
#define BENCHRACK_RESULTS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "config/regression_limit.h"
#include "stats/summary.h"

/* Version 3: each entry for unmodified firmware carries its own firmware, the
 * run's firmware may be null, a content hash beside the build-id (version 2:
 * provenance, status, limits, per-bench status; results/SCHEMA.md). */
#define BR_RESULTS_SCHEMA_VERSION 3
/* The oldest version the reader still reads. */
#define BR_RESULTS_SCHEMA_OLDEST 2
#define BR_RECORD_TEXT 256U
#define BR_RECORD_NAME 64U

typedef enum br_record_kind {
	BR_RECORD_RUN,      /* results/runs/<timestamp>-<board>.json */
	BR_RECORD_BASELINE, /* results/baselines/<suite>/<board>.json */
} br_record_kind_t;

typedef enum br_record_status {
	BR_RECORD_RUNNING,     /* written first, rewritten after each bench */
	BR_RECORD_COMPLETE,    /* every bench had its turn */
	BR_RECORD_FAILED,      /* stopped by an error (error says which) */
	BR_RECORD_INTERRUPTED, /* stopped by SIGINT or SIGTERM (error names it) */
} br_record_status_t;

typedef enum br_bench_status {
	BR_BENCH_MEASURED,
	BR_BENCH_NOT_RUN, /* reason says why: no figure, never a made-up one */
} br_bench_status_t;

/* One limit: set or not. */
typedef struct br_limit {
	bool set;
	uint64_t value;
} br_limit_t;

typedef struct br_budgets {
	br_limit_t max_stack_bytes;
	br_limit_t max_heap_bytes;
	br_limit_t max_cycles_per_iteration; /* the median, in the counter's unit */
	br_limit_t max_text_bytes;           /* run level only: the firmware's text */
} br_budgets_t;

struct br_suite_budgets; /* config/suite.h */

/*
 * The budgets of a suite file's (or a record's: the same four keys)
 * budgets mapping as limits: a key left out imposes nothing.
 */
br_budgets_t br_budgets_from_suite(const struct br_suite_budgets *b);

#define BR_RECORD_MAX_COUNTERS 2U
#define BR_RECORD_BUILD_ID 136U
#define BR_RECORD_SHA256 65U

/* Where figures came from: one firmware ELF, as measured. The fields are
 * named once here, for a bench's own firmware and the run's alike. */
#define BR_FIRMWARE_INFO_FIELDS                                                                    \
	char elf_path[BR_RECORD_TEXT];                                                             \
	char build_id[BR_RECORD_BUILD_ID]; /* hex, "" when the ELF has none */                     \
	char sha256[BR_RECORD_SHA256];  /* the file's SHA-256 when it has no build-id, else "" */  \
	char git_commit[64];            /* "" when not known */                                    \
	char toolchain[BR_RECORD_TEXT]; /* from the ELF's .comment, "" when not known */           \
	bool sizes_known;                                                                          \
	uint64_t text_bytes, data_bytes, bss_bytes;

typedef struct br_firmware_info {
	BR_FIRMWARE_INFO_FIELDS
} br_firmware_info_t;

/* Another counter read around the same iterations as the record's own (the
 * host's user-mode cycles and instructions beside its nanoseconds). */
typedef struct br_bench_counter {
	char name[32];             /* "cycles", "instructions" */
	char unit[BR_RECORD_NAME]; /* "cycles (user mode)" */
	br_summary_t summary;
	uint64_t *samples; /* owned; n raw deltas (NULL in a baseline) */
} br_bench_counter_t;

/* One run a baseline keeps of a noisy figure (results/metric_rule.h): the
 * run is the unit its test counts (stats/run_shift.h). */
typedef struct br_baseline_run {
	double median;                  /* the run's median, in the counter's unit */
	char build[BR_RECORD_BUILD_ID]; /* the firmware's build-id or SHA-256; "" not known */
} br_baseline_run_t;

typedef struct br_bench_record {
	char name[BR_RECORD_NAME];
	br_bench_status_t status;
	char reason[BR_RECORD_TEXT];   /* NOT_RUN: why */
	char mode[16];                 /* "stub", "range" or "function" */
	char elf_path[BR_RECORD_TEXT]; /* its own ELF ("" for a bench of the suite firmware) */
	bool has_firmware;             /* an entry for unmodified firmware: firmware is its ELF's */
	br_firmware_info_t firmware;
	size_t n; /* samples after warm-up */
	uint32_t warmup;
	uint64_t *samples; /* owned; raw counter deltas, 64-bit: a region measured
	                    * at breakpoints can exceed 2^32 (NULL in a baseline) */
	br_summary_t summary;
	bool stack_measured;
	uint32_t stack_bytes;
	bool heap_known; /* the stub counts the heap; unmodified firmware: not known */
	uint32_t heap_peak;
	uint32_t heap_live;
	uint32_t heap_allocs;
	bool calibrated;           /* breakpoint mode: what measuring itself costs */
	double calibration_median; /* in the counter's unit, included in the figures */
	char calibration_method[BR_RECORD_TEXT];
	double wall_seconds;  /* host time the bench took (0: not known) */
	uint32_t halts;       /* stub mode: halts at br_host_sync the bench took, one per
	                         chunk of the firmware's sample buffer (0: not known) */
	br_budgets_t budgets; /* the limits that applied to it */
	br_bench_counter_t counters[BR_RECORD_MAX_COUNTERS]; /* other counters' figures */
	size_t counter_count;
	br_baseline_run_t *runs; /* owned; a baseline's runs of a noisy figure, oldest first, the
	                          * last being this entry's own (NULL: its own median alone) */
	size_t run_count;
} br_bench_record_t;

/* A run measured against another commit in the same run (check --against):
 * which side this record is, and both commits. */
typedef struct br_record_ab {
	char role[8];             /* "base" or "head"; "" for a plain run */
	char ref[BR_RECORD_NAME]; /* the ref as given ("HEAD~1") */
	char base_commit[64];
	char head_commit[64]; /* "" when the head's commit is not known */
} br_record_ab_t;

typedef struct br_run_record {
	br_record_kind_t kind;
	br_record_status_t status;
	char error[BR_ERROR_MESSAGE_BYTES]; /* FAILED: what stopped the run */
	char timestamp[32];                 /* start of the run, UTC, ISO 8601 */
	char suite[BR_RECORD_NAME];         /* "" when run without a suite file */
	char suite_path[BR_RECORD_TEXT];
	char board[BR_RECORD_NAME];
	char server[BR_RECORD_TEXT]; /* "qemu-system-arm -M netduinoplus2" */
	char counter[32];            /* counter name */
	char unit[BR_RECORD_NAME];   /* "instructions (QEMU icount)" */
	uint64_t clock_hz;           /* 0 when a tick is not a time */
	/* The run's firmware: the stub image when the run has stub benches, else the
	 * one ELF every entry names; none (no_firmware) when the entries name several,
	 * each then carrying its own. */
	bool no_firmware;
	union {
		br_firmware_info_t firmware; /* the whole of it */
		struct {
			BR_FIRMWARE_INFO_FIELDS /* the same, field by field */
		};
	};
	char benchrack_version[32];
	char host[BR_RECORD_NAME];
	double resolution; /* the counter's resolution in its unit; a figure below it is
	                      "< resolution", never a number (0: one tick) */
	char counter_note[BR_RECORD_TEXT]; /* what the counters could not do here ("" none) */
	br_record_ab_t ab;                 /* check/run --against */
	double regression_percent;         /* fail_on_regression_percent in force */
	br_regression_limits_t regression; /* per-metric limits over it (regression: section) */
	br_budgets_t budgets;              /* the suite's own (max_text_bytes applies here) */
	br_bench_record_t *benches;
	size_t bench_count;
} br_run_record_t;

/* Appends an empty bench record and returns it (owned by run). */
br_bench_record_t *br_run_record_add_bench(br_run_record_t *run);

/* The bench called name in run, or NULL. */
const br_bench_record_t *br_run_record_find(const br_run_record_t *run, const char *name);

/* The firmware bench b of run was measured on: its own when it has one, else
 * the run's (copied into *out); false when neither is known. */
bool br_run_record_bench_firmware(const br_run_record_t *run, const br_bench_record_t *b,
                                  br_firmware_info_t *out);

/* Whether bench b measured the run's own firmware (no firmware of its own, or
 * the same ELF as the run's) under the same text budget: the run's figures
 * and limits speak for it. */
bool br_bench_firmware_is_run(const br_run_record_t *run, const br_bench_record_t *b);

/* What names the firmware bench b of run was measured on, into out (cap
 * bytes): its build-id, else its SHA-256, else "" (not known). */
void br_run_record_bench_build(const br_run_record_t *run, const br_bench_record_t *b, char *out,
                               size_t cap);

/* Frees every bench's samples and runs and the bench array. */
void br_run_record_free(br_run_record_t *run);

/* "run"/"baseline", "running"/"complete"/"failed", "measured"/"not_run":
 * the words the JSON record uses. */
const char *br_record_kind_name(br_record_kind_t kind);
const char *br_record_status_name(br_record_status_t status);
const char *br_bench_status_name(br_bench_status_t status);

#endif
