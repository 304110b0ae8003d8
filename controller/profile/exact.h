/*
 * Exact mode: single-step one pass of a region and attribute every
 * instruction — self counts per function and per PC (so per source line),
 * and call chains from a shadow stack kept while stepping, so total counts
 * per function too. Each step is one round trip: the registers are read and
 * the step sent in one write (debug/target_sample.h), so the pass ends one
 * instruction past the region's end (that one is not counted, and the
 * counter cross-check allows for it).
 *
 * Before stepping, one pass runs at breakpoints to learn the region's length
 * from the counter; a region longer than max_steps is refused before a single
 * step (the user raises the limit), and stepping never goes past it either.
 *
 * The shadow stack: a PC at a function's entry with LR pointing just after
 * the previous instruction is a call (pushed); a PC at the entry without
 * that is a tail call (the top frame becomes the callee); a PC equal to a
 * frame's return address with SP back at or above the call's is a return
 * (popped). The chains are relative to the region's function (the root).
 * Interrupts are masked while stepping on QEMU (its gdbstub's default), so
 * an exact profile never contains a handler.
 */
#ifndef BENCHRACK_PROFILE_EXACT_H
#define BENCHRACK_PROFILE_EXACT_H

#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"
#include "elf/elf_file.h"
#include "measure/counter.h"
#include "measure/span.h"
#include "profile/profile_data.h"

#define BR_EXACT_DEFAULT_MAX_STEPS 1000000U

typedef struct br_exact_options {
	const br_elf_t *elf;
	const br_span_t *span;
	const br_counter_state_t *counter; /* started; NULL: no pre-pass, no cross-check */
	uint64_t max_steps;
	int timeout_ms; /* the longest wait for the region to start (or end, in the pre-pass) */
} br_exact_options_t;

/*
 * Steps one pass of o->span on the halted target t into out (a profile
 * initialised for BR_PROFILE_EXACT). BR_ERR_USAGE when the pre-pass counts
 * more than max_steps instructions (nothing stepped), BR_ERR_TARGET when
 * stepping reaches max_steps anyway; the target's errors otherwise.
 */
br_status_t br_exact_run(br_target_t *t, const br_exact_options_t *o, br_profile_t *out,
                         br_error_t *err);

#endif
