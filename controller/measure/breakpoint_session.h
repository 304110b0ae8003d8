/*
 * Breakpoint sessions on unmodified firmware (DESIGN.md, "Measurement
 * modes"): halt where a sample starts, read the counter, run to where it
 * ends, read again; the sample is the difference. Nothing here knows which
 * server is in front of the board: it uses target/ only.
 *
 * Every halt is one write (br_target_resume_batch): the reads it needs, the
 * breakpoint changes and the continue, pipelined. No step where two
 * breakpoints alternate: a range holds one breakpoint at a time — at `from`
 * the batch removes `from` and inserts `to`, at `to` the reverse. A function
 * needs one round trip more at its entry, to learn LR (the return address)
 * and SP, before the return breakpoint goes in — unless its last two
 * entries returned to the same place: then the entry's write swaps to that
 * return address and resumes too, and the LR it read (twice) proves the
 * guess; a wrong one stops the core, drops that sample (counted) and ends
 * guessing for the session. Its end is the return
 * address with the SP the call started with. A loop pass (`to` equal to
 * `from`) steps off its one breakpoint at every halt.
 *
 * Proof: every halt's reads are the counter, a marker word of the loaded
 * image (its value known in advance) and the counter again. A halt counts
 * only when the marker matches and both counter reads agree; otherwise the
 * reply stream is out of step (an extra reply, a missing one, a value
 * changed on the way): the sample in progress is dropped, the stream is put
 * back in step (br_target_recover) and the session goes on from the start
 * breakpoint — at most BR_BP_RECOVERIES_MAX times, then it ends. No figure
 * read since the last proven halt is kept.
 *
 * Resets and stray stops (issue 31): a breakpoint sits on the image's reset
 * handler (its ELF entry) for the whole session, so a reset — while the
 * core runs or while it is held halted — shows as a halt there; every halt
 * already reads the PC in its one write. A halt at a PC the session did not
 * ask for (the reset handler, or any other) ends the sample in progress as
 * "not measured" (BR_WRAP_STRAY, the PC kept), and the session goes on from
 * the start breakpoint, at most BR_BP_STRAYS_MAX times. The trap needs one
 * comparator more; when the board has too few, the session runs without it
 * (reset_trapped false) and a reset is caught only where it makes a halt's
 * PC or counter wrong.
 *
 * Counters of any length: while a sample runs longer than a quarter of
 * the counter's period at its maximum rate (measure/wrap.h), guard halts (0x03,
 * the proven reads, continue) split it into intervals each shorter than a
 * period, and the sample is their 64-bit sum. An interval whose host time
 * could still hide a period, or that counted faster than the counter can,
 * makes its sample "not measured" with the reason — never a number.
 *
 * Calibration: at the first BR_BP_CALIBRATION_SAMPLES starts the session
 * steps one instruction off the start breakpoint and reads the counter
 * again: that step less its one instruction is what resuming from a halt
 * costs (calibration.h).
 *
 * The first completed sample (warm-up included) checks that the counter
 * advances.
 */
#ifndef BENCHRACK_MEASURE_BREAKPOINT_SESSION_H
#define BENCHRACK_MEASURE_BREAKPOINT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "measure/counter.h"
#include "measure/halt_proof.h"
#include "measure/host_step.h"
#include "measure/span.h"
#include "measure/stack_watermark.h"
#include "measure/wrap.h"
#include "debug/target.h"

typedef struct br_bp_options {
	const br_counter_state_t *counter; /* started (counter_target.h) */
	uint32_t samples;                  /* measured samples wanted, >= 1 */
	uint32_t warmup;                   /* samples taken first and discarded */
	int timeout_ms;                    /* the longest wait for a sample's start, then its end */
	br_breakpoint_kind_t kind;         /* of every breakpoint the session inserts */
	const br_stack_region_t *stack;    /* NULL: the stack is not measured */
	const br_halt_proof_t *proof;      /* the marker every halt reads (halt_proof.h) */
	/* > 0: once a sample is done, a start not reached again within this many
	 * ms has the core halted and looked at: parked in an endless loop (a
	 * branch to itself, Thread mode), the session ends there (ran_out,
	 * idled) instead of waiting out timeout_ms; otherwise it runs on and is
	 * looked at again after twice as long, up to the deadline. */
	int idle_check_ms;
} br_bp_options_t;

/* Out-of-step reply streams put back in step before the session gives up. */
#define BR_BP_RECOVERIES_MAX 3U
/* Stops the session did not ask for (a reset trapped at the reset handler, a
 * PC that is neither breakpoint) that it goes on after; one more ends it. */
#define BR_BP_STRAYS_MAX 8U
/* Starts at which the resume cost is measured (a step off the breakpoint). */
#define BR_BP_CALIBRATION_SAMPLES 5U

typedef struct br_bp_sample {
	uint64_t ticks;        /* C1 - C0 (through every guard read): the region, raw */
	uint32_t resume_ticks; /* Cs - C0: one step off the start breakpoint (calibration) */
	bool resume_measured;  /* resume_ticks was taken (the first starts only) */
	bool measured;         /* false: ticks mean nothing; why says why */
	br_wrap_verdict_t why; /* BR_WRAP_OK, or the first interval that failed */
	uint32_t guards;       /* guard halts inside the sample */
	double host_seconds;   /* host time from sending C0's read to receiving C1 */
	uint32_t sp;           /* SP at the start */
	uint32_t stack_bytes;  /* SP at the start minus the deepest byte written, or
	                          BR_STACK_NOT_MEASURED (stack_status says why) */
	br_stack_status_t stack_status;
	uint32_t stray_pc; /* why BR_WRAP_STRAY: where the core stopped instead */
	bool stray_reset;  /* ... and that PC is the image's reset handler */
} br_bp_sample_t;

typedef struct br_bp_result {
	br_bp_sample_t *samples; /* count entries (warm-up excluded), owned */
	size_t count;
	size_t halts;       /* every stop of the core, passed-over ones included, and
	                       every breakpoint the host's execution put the core on */
	size_t guard_halts; /* of them, guard halts (long samples) */
	size_t recoveries;  /* out-of-step reply streams put back in step */
	size_t dropped;     /* samples begun and not kept (a recovery, a deeper return) */
	size_t runs;        /* samples completed, warm-up included */
	size_t strays;      /* stops the session did not ask for (resets among them) */
	bool reset_trapped; /* a breakpoint sat on the reset handler all session */
	bool ran_out;       /* the start was not reached again within timeout_ms after
	                       `runs` runs: fewer samples than asked (BR_ERR_TIMEOUT) */
	/* ... found parked at idle_pc (idle_check_ms) before the timeout */
	bool idled;
	uint32_t idle_pc;
	/* The session ended with the core still running, its breakpoints in
	 * place: it answers no interrupt (br_counter_uninterruptible), so
	 * neither the idle check nor the cleanup could stop it, and where it is
	 * is unknown. Whoever owns the server stops it. */
	bool left_running;
	double wall_seconds; /* host time from the first resume to the last halt (or to
	                        the error) */
	/* Instructions under the breakpoints the host executed (host_step.h;
	 * each one inside a sample is one added to it), its self-checks that
	 * agreed, whether it was still on at the end, and why not. */
	uint64_t host_steps;
	uint64_t host_checks;
	bool host_stepping;
	bool host_check_failed; /* a self-check disagreed: off since, host_why_off says */
	char host_why_off[BR_HOST_STEP_WHY_MAX];
} br_bp_result_t;

/*
 * Measures span on the halted target t as described above and fills *out
 * (free with br_bp_result_free, also after an error: the samples finished
 * before it are kept). Leaves the core halted with the session's
 * breakpoints removed, except on a core that answers no interrupt
 * (br_counter_uninterruptible: no idle check there, and a wait past
 * o->timeout_ms leaves it running, out->left_running). Errors:
 * BR_ERR_TIMEOUT naming the breakpoint that did not hit within
 * o->timeout_ms — when it was the start after some runs, out->ran_out is
 * set and the message says "ran k of N times in T s" (the samples taken
 * are kept); BR_ERR_TARGET for a counter that does not count, more than
 * BR_BP_STRAYS_MAX stops elsewhere (a fault, another breakpoint, resets) or
 * a function entered from an exception; the target's own errors otherwise.
 */
br_status_t br_bp_session_run(br_target_t *t, const br_span_t *span, const br_bp_options_t *o,
                              br_bp_result_t *out, br_error_t *err);

/* Frees what br_bp_session_run allocated. */
void br_bp_result_free(br_bp_result_t *r);

/* Writes into buf (size bytes) why sample s is not measured, one clause:
 * "the target reset (...) between the two halts" for a stray stop, the wrap
 * verdict's text otherwise. */
void br_bp_sample_why(const br_bp_sample_t *s, char *buf, size_t size);

#endif
