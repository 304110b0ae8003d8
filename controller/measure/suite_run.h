/*
 * Measures every bench of a suite firmware on the emulated board: opens and
 * checks the ELF, launches QEMU, runs the stub batch protocol bench by bench
 * and hands back raw samples. No statistics here: data flows forward.
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

typedef struct br_suite_options {
	const char *elf_path;
	const char *qemu_program;   /* "qemu-system-arm" unless named */
	const char *machine;        /* "netduinoplus2" */
	const br_counter_t *counter;
	uint32_t iterations;
	uint32_t warmup;
	int bench_timeout_ms;
	/* Called before each bench (may be NULL): index, count, name. */
	void (*progress)(void *ctx, unsigned index, unsigned count, const char *name);
	void *progress_ctx;
	br_target_output_fn output; /* what the firmware prints (may be NULL) */
	void *output_ctx;
	/* Called after each bench that finished (may be NULL), with its name and
	 * raw result (valid during the call only), so that results can be kept
	 * as they come: whatever happens to the run later, they flow forward. */
	void (*bench_done)(void *ctx, const char *name, const br_stub_result_t *result);
	void *bench_done_ctx;
	/* The benches to run, by name, in this order; NULL: every bench of the
	 * firmware, in its own order. A name the firmware lacks is BR_ERR_INPUT. */
	const char *const *benches;
	size_t bench_count;
	/* Extra QEMU arguments (a board's), or NULL. */
	const char *const *qemu_args;
	size_t qemu_arg_count;
} br_suite_options_t;

typedef struct br_suite_raw {
	size_t count;                              /* benches measured */
	char names[BR_CB_MAX_BENCHES][BR_CB_NAME_BYTES];
	br_stub_result_t *results;                 /* count entries, owned */
	char build_id[96];
	char server[96];                           /* what served the board */
} br_suite_raw_t;

/* Sets the defaults above in opts (elf_path NULL, counter QEMU's TIM2). */
void br_suite_options_default(br_suite_options_t *opts);

/*
 * Runs the whole suite as described. On error, out holds the benches that
 * finished before it (out->count of them) and err says which failed and why.
 * A counter that never advanced is BR_ERR_TARGET: no figure from it is kept.
 */
br_status_t br_suite_measure(const br_suite_options_t *opts, br_suite_raw_t *out,
			     br_error_t *err);

/* Frees what br_suite_measure allocated. */
void br_suite_raw_free(br_suite_raw_t *raw);

#endif
