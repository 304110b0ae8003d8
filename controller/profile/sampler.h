/*
 * Sampling: stop the running target (0x03), read the registers and the
 * stack window and resume (debug/target_sample.h,
 * br_target_sample_running); unwind on the host (unwind.h) and count the
 * chain when it is in the region. Where the server lets packets follow the
 * interrupt (QEMU), the interrupt, the reads and the continue go in one
 * write: a sample costs one round trip. Elsewhere two: the interrupt's stop
 * reply, then the pipelined reads with the continue.
 *
 * The stack window must be chosen before SP is known. It runs from 64 bytes
 * below the deepest SP seen so far up to the top of the stack region (the
 * ELF's linker symbols), where a bare-metal firmware's frames are, and never
 * more than stack_window bytes (the first sample reads all of those). A
 * sample whose SP lies below the window read (deeper than ever before, yet
 * within stack_window) is counted lost and widens the next windows; a chain
 * that needs a word beyond stack_window ends in [unknown] (raise it). Without
 * a known stack region, the window is the stack_window bytes from 64 below
 * the deepest SP seen (the first: the SP at the start), and a sample below
 * it is lost the same way.
 *
 * With a region (o->span: a time region, profile/region.h), the core is run
 * to its start, a breakpoint put at its end, and sampled until it stops
 * there; then run to the start again for the next pass, while the duration
 * lasts (a region that runs once gives one pass). A sample that finds the
 * core stopped at the end breakpoint is not a draw: lost (at_region_end).
 *
 * rate_hz 0 samples as fast as the server allows (each resume is followed at
 * once by the next interrupt); otherwise the interrupts are paced on the
 * host's monotonic clock at intervals drawn uniformly from [T/2, 3T/2) for
 * T = 1/rate_hz, so that no fixed stride aliases with the firmware's loops.
 * Every sample taken is counted in the region, or lost with its reason.
 */
#ifndef BENCHRACK_PROFILE_SAMPLER_H
#define BENCHRACK_PROFILE_SAMPLER_H

#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"
#include "elf/elf_file.h"
#include "measure/span.h"
#include "profile/profile_data.h"
#include "profile/unwind.h"

typedef struct br_sampler_options {
	const br_elf_t *elf;
	const br_span_t *span; /* the time region; NULL: everything, every sample counts */
	double duration_s;
	double rate_hz;
	uint32_t stack_window; /* bytes read below stack_top with each sample */
	uint32_t stack_top;    /* one past the stack's highest byte; 0: not known */
	uint32_t stack_low;
	br_unwind_method_t unwind;
	int timeout_ms; /* the longest wait for one stop */
} br_sampler_options_t;

/*
 * Resumes the halted target t, samples for o->duration_s into out (a profile
 * initialised for BR_PROFILE_SAMPLED), and leaves it halted. The target's
 * errors end it (what was sampled before is kept in out). Each sample's host
 * time (stop, reads, resume, unwinding) is summarised in out's
 * sample_cost_* figures.
 */
br_status_t br_sampler_run(br_target_t *t, const br_sampler_options_t *o, br_profile_t *out,
                           br_error_t *err);

#endif
