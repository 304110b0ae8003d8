/*
 * One profile as `benchrack profile` asks for it: check the ELF, resolve the
 * region, reach the board through the runner (run/runner.h: the same
 * endpoints as measure, QEMU launched by default; the image loaded as the
 * load policy says, the core reset and halted, the counter started), and
 * profile — exact (single-stepping
 * one pass, exact.h), sampled (sampler.h), or sampled from DWT_PCSR without
 * halting (pcsr_sampler.h: flat, every sample counts, so no region) — into a
 * br_profile_t, with its
 * source lines resolved. Libraries never print: the CLI writes the formats.
 *
 * The region: --from X --to Y, --function F, or neither (everything from
 * reset, sampled for duration seconds). The region is one of time in both
 * modes (profile/region.h): from reaching X to reaching Y, or each call of F
 * from its entry to its return; sampled, the core is sampled only inside it.
 */
#ifndef BENCHRACK_PROFILE_PROFILE_RUN_H
#define BENCHRACK_PROFILE_PROFILE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "config/board.h"
#include "measure/measure_run.h"
#include "profile/profile_data.h"
#include "profile/unwind.h"

#define BR_PROFILE_DEFAULT_DURATION_S 2.0
/* Exact from QEMU's execution log: the most instructions counted unless
 * --max-steps says (about half a million a second here: 3 to 5 minutes). */
#define BR_PROFILE_LOG_DEFAULT_MAX_STEPS 100000000ULL
/* Sampled from the log: instructions between two samples, on average. */
#define BR_PROFILE_DEFAULT_INTERVAL 1000U
/* Stack bytes read with each sample, below the stack's top (see sampler.h). */
#define BR_PROFILE_DEFAULT_STACK_WINDOW 512U

typedef struct br_profile_options {
	const char *elf_path;
	const char *from;
	const char *to;
	const char *function;
	bool exact;
	bool pcsr;          /* sampled from DWT_PCSR without halting: flat (pcsr_sampler.h) */
	uint64_t max_steps; /* exact: the most instructions counted; 0: the path's default */
	/* On a QEMU benchrack launches: count from QEMU's execution log
	 * (exec_log.h) rather than stepping or halting it over the debug port. */
	bool exec_log;
	uint64_t interval; /* sampled from the log: about one sample per this many instructions */
	double duration_s; /* sampled: how long */
	double rate_hz;    /* sampled: samples per second asked; 0: as fast as it goes */
	uint32_t stack_window;
	br_unwind_method_t unwind;
	const br_counter_t *counter; /* exact: the pre-pass and the cross-check */
	int timeout_ms;
	br_link_options_t link;
	const br_endpoint_t *endpoint; /* as in br_measure_options_t */
	br_board_load_t load;          /* the image's load policy (run/runner.h) */
	/* Exact from the execution log: the instructions counted so far, about
	 * twice a second (may be NULL). */
	void (*progress)(void *ctx, uint64_t counted, uint64_t instructions);
	void *progress_ctx;
} br_profile_options_t;

/* Defaults: QEMU's TIM2, 2 s, as fast as the server allows, the default limits. */
void br_profile_options_default(br_profile_options_t *o);

/*
 * Profiles as o says into *out (free with br_profile_data_free, also after an
 * error). Usage errors (a bad combination, an unknown symbol) come before
 * any server starts; then the errors of exact.h, sampler.h and the session.
 */
br_status_t br_profile_run(const br_profile_options_t *o, br_profile_t *out, br_error_t *err);

#endif
