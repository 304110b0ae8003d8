/*
 * Host batch mode: the benches of benches/ run natively, by the host bench
 * program (benches/host/host_main.c) that benchrack launches as a child
 * process — the host's counterpart of stub batch mode (stub_batch.h). The
 * program pins itself to one CPU, runs each bench's warm-up and measured
 * iterations, and reports per iteration the nanoseconds of
 * CLOCK_MONOTONIC_RAW and, where perf_event_open is allowed, user-mode
 * cycles and instructions. Raw samples only; statistics are stats/'s.
 */
#ifndef BENCHRACK_MEASURE_HOST_BATCH_H
#define BENCHRACK_MEASURE_HOST_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "measure/stub_batch.h"

#define BR_HOST_NOTE_BYTES 256U

/* One bench's figures. stub holds what the stub would report: the
 * nanosecond samples, the heap, and a stack that is not measured. */
typedef struct br_host_result {
	char name[BR_CB_NAME_BYTES];
	br_stub_result_t stub;
	bool perf; /* cycles and instructions hold figures */
	uint32_t cycles[BR_CB_MAX_SAMPLES];
	uint32_t instructions[BR_CB_MAX_SAMPLES];
	bool saturated; /* an iteration took 2^32 ns or more */
} br_host_result_t;

/* What the program said about the host's counters before the benches. */
typedef struct br_host_info {
	uint64_t resolution_ns; /* the larger of getres_ns and step_ns */
	uint64_t getres_ns;     /* clock_getres(CLOCK_MONOTONIC_RAW) */
	uint64_t step_ns;       /* the smallest step seen between back-to-back readings */
	long cpu;               /* the CPU the benches ran pinned to */
	bool perf;              /* cycles and instructions counted */
	char perf_note[BR_HOST_NOTE_BYTES]; /* !perf: why not (errno text, perf_event_paranoid) */
} br_host_info_t;

typedef struct br_host_options {
	const char *program;        /* the host bench program (benches/host/) */
	const char *const *benches; /* in this order; NULL: every bench the program has */
	size_t bench_count;
	uint32_t iterations; /* 1..BR_CB_MAX_SAMPLES */
	uint32_t warmup;
	int timeout_ms; /* per bench */
	/* Called once the program has described the counters (may be NULL). */
	void (*started)(void *ctx, const br_host_info_t *info);
	/* Called before each bench of benches (may be NULL). */
	void (*progress)(void *ctx, unsigned index, unsigned count, const char *name);
	/* Called after each bench (may be NULL); the result is valid during the call. */
	void (*bench_done)(void *ctx, const char *name, const br_host_result_t *result);
	void *ctx;
} br_host_options_t;

/*
 * Runs the program on the benches of opts and fills *info. A bench the
 * program does not have is BR_ERR_INPUT; a program that cannot start, dies,
 * says something malformed or is late is BR_ERR_INFRA / BR_ERR_PROTOCOL /
 * BR_ERR_TIMEOUT, with what it said last. Benches that finished before an
 * error have been handed to bench_done.
 */
br_status_t br_host_measure(const br_host_options_t *opts, br_host_info_t *info, br_error_t *err);

#endif
