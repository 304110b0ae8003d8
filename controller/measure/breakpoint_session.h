/*
 * Breakpoint sessions on unmodified firmware (DESIGN.md, "Measurement
 * modes"): halt where a sample starts, read the counter, run to where it
 * ends, read again; the sample is the difference. Nothing here knows which
 * server is in front of the board: it uses target/ only.
 *
 * Each sample, at the start breakpoint:
 *   1. (function) read LR and SP: the return address and the caller's SP;
 *   2. (stack) paint the stack region below SP;
 *   3. read the counter (C0), remove the breakpoint, step one instruction,
 *      read the counter (Cs): Cs - C0 is this sample's calibration sample,
 *      the cost of resuming from a breakpoint (DESIGN.md: "measured by
 *      calibration and reported, never hidden");
 *   4. re-insert the start breakpoint (range) or insert one at the return
 *      address (function), continue;
 *   5. at the end breakpoint (function: the return address, with the SP the
 *      call started with; a recursive call's own returns do not count), read
 *      the counter (C1): the sample is C1 - C0, in the counter's period;
 *      (stack) scan the region.
 * A range whose `to` equals its `from` measures one pass of a loop: each
 * halt ends one sample and starts the next. A range whose `from` hits again
 * before `to` starts its sample again (the latest `from` counts); `to`
 * hitting before any `from` is passed over.
 *
 * The first completed sample (warm-up included) checks that the counter
 * advances; a sample whose host time could hide a wrap (measure/wrap.h) is
 * kept as "not measured".
 */
#ifndef BENCHRACK_MEASURE_BREAKPOINT_SESSION_H
#define BENCHRACK_MEASURE_BREAKPOINT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "measure/counter.h"
#include "measure/span.h"
#include "measure/stack_paint.h"
#include "debug/target.h"

typedef struct br_bp_options {
	const br_counter_state_t *counter; /* started (counter_target.h) */
	uint32_t samples;                  /* measured samples wanted, >= 1 */
	uint32_t warmup;                   /* samples taken first and discarded */
	int timeout_ms;                    /* the longest wait for a sample's start, then its end */
	br_breakpoint_kind_t kind;         /* of every breakpoint the session inserts */
	const br_stack_region_t *stack;    /* NULL: the stack is not measured */
} br_bp_options_t;

typedef struct br_bp_sample {
	uint32_t ticks;        /* C1 - C0: the region, raw */
	uint32_t resume_ticks; /* Cs - C0: one step off the start breakpoint (calibration) */
	bool measured;         /* false: host_seconds could hide a wrap; ticks mean nothing */
	double host_seconds;   /* host time between the reads of C0 and C1 */
	uint32_t sp;           /* SP at the start */
	uint32_t stack_bytes;  /* SP at the start minus the deepest byte written, or
	                          BR_STACK_NOT_MEASURED (stack_status says why) */
	br_stack_status_t stack_status;
} br_bp_sample_t;

typedef struct br_bp_result {
	br_bp_sample_t *samples; /* count entries (warm-up excluded), owned */
	size_t count;
	size_t halts;        /* every stop of the core, passed-over ones included */
	double wall_seconds; /* host time from the first resume to the last halt */
} br_bp_result_t;

/*
 * Measures span on the halted target t as described above and fills *out
 * (free with br_bp_result_free, also after an error: the samples finished
 * before it are kept). Leaves the core halted with the session's
 * breakpoints removed. Errors: BR_ERR_TIMEOUT naming the breakpoint that did
 * not hit within o->timeout_ms (the session is over: the core is still
 * running); BR_ERR_TARGET for a counter that does not count, a stop
 * elsewhere (a fault, another breakpoint) or a function entered from an
 * exception; the target's own errors otherwise.
 */
br_status_t br_bp_session_run(br_target_t *t, const br_span_t *span, const br_bp_options_t *o,
                              br_bp_result_t *out, br_error_t *err);

/* Frees what br_bp_session_run allocated. */
void br_bp_result_free(br_bp_result_t *r);

#endif
