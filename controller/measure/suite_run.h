/*
 * The benches of a suite firmware, in stub batch mode, on a target that runs
 * that firmware and is halted at its reset vector (run/runner.h gets it
 * there, on any board): the stub session is opened once, then each bench
 * runs with its own iterations and warm-up and hands back raw samples. No
 * statistics and no judgement of the samples here: run/ applies the
 * counting and wrap checks (data flows forward).
 */
#ifndef BENCHRACK_MEASURE_SUITE_RUN_H
#define BENCHRACK_MEASURE_SUITE_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "measure/counter.h"
#include "measure/stub_batch.h"
#include "debug/target.h"

#define BR_SUITE_DEFAULT_ITERATIONS 100U
#define BR_SUITE_DEFAULT_WARMUP 2U
#define BR_SUITE_DEFAULT_BENCH_TIMEOUT_MS 30000
#define BR_SUITE_DEFAULT_START_TIMEOUT_MS 10000

/* One bench to run: its name in the firmware's table and its counts. */
typedef struct br_suite_bench_request {
	const char *name;
	uint32_t iterations;
	uint32_t warmup;
} br_suite_bench_request_t;

typedef struct br_suite_options {
	const char *elf_path; /* for messages */
	const br_stub_layout_t *layout;
	const br_counter_state_t
	    *counter; /* as started on the target (guard reads use its period) */
	/* The benches, in this order; NULL: every bench of the firmware, in
	 * its own order, with default_iterations and default_warmup. A name
	 * the firmware lacks is BR_ERR_INPUT before any bench runs. */
	const br_suite_bench_request_t *benches;
	size_t bench_count;
	uint32_t default_iterations, default_warmup;
	int bench_timeout_ms;
	/* Called before each bench (may be NULL): index, count, name. */
	void (*progress)(void *ctx, unsigned index, unsigned count, const char *name);
	void *progress_ctx;
	/* Called after each bench that finished, with its name, the request
	 * it ran under and its raw result (valid during the call only); a
	 * status other than BR_OK (err filled) ends the suite there. */
	br_status_t (*bench_done)(void *ctx, const br_suite_bench_request_t *bench,
	                          const br_stub_result_t *result, br_error_t *err);
	void *bench_done_ctx;
} br_suite_options_t;

/* Sets the defaults above in opts. */
void br_suite_options_default(br_suite_options_t *opts);

/*
 * Runs the benches as described on target (halted at the firmware's reset
 * vector). Returns BR_OK, or the first error (a bench that did not come
 * back, a server that went away, what bench_done returned) naming the bench.
 */
br_status_t br_suite_measure(const br_suite_options_t *opts, br_target_t *target, br_error_t *err);

#endif
