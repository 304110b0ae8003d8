/*
 * A run's results as one record: what was measured, on what, with which
 * counter, and every bench's figures. Filled by the CLI from measure/ and
 * stats/, written by the output formats, never by anything that talks to a
 * target.
 */
#ifndef BENCHRACK_RESULTS_RECORD_H
#define BENCHRACK_RESULTS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/summary.h"

#define BR_RESULTS_SCHEMA_VERSION 1
#define BR_RECORD_TEXT 256U

typedef struct br_bench_record {
	char name[64];
	size_t n;                /* samples after warm-up */
	uint32_t warmup;
	uint32_t *samples;       /* owned; raw counter deltas */
	br_summary_t summary;
	bool stack_measured;
	uint32_t stack_bytes;
	uint32_t heap_peak;
	uint32_t heap_live;
	uint32_t heap_allocs;
} br_bench_record_t;

typedef struct br_run_record {
	char timestamp[32];      /* UTC, ISO 8601 */
	char board[64];
	char server[96];         /* "qemu-system-arm -M netduinoplus2" */
	char counter[32];        /* counter name */
	char unit[64];           /* "instructions (QEMU icount)" */
	uint64_t clock_hz;       /* 0 when a tick is not a time */
	char elf_path[BR_RECORD_TEXT];
	char build_id[96];
	char benchrack_version[32];
	char host[64];
	br_bench_record_t *benches;
	size_t bench_count;
} br_run_record_t;

/* Appends an empty bench record and returns it (owned by run). */
br_bench_record_t *br_run_record_add_bench(br_run_record_t *run);

/* Frees every bench's samples and the bench array. */
void br_run_record_free(br_run_record_t *run);

#endif
