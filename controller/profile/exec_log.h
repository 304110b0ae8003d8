/*
 * Profiles from QEMU's execution log (exact and sampled, on a QEMU that
 * benchrack launches): QEMU run with -singlestep -d exec,nochain writes one
 * line per instruction it runs ("Trace 0: HOST [FLAGS/PC/...] SYMBOL"; a
 * "Stopped execution of TB chain" line takes back the line before it, a
 * block entered but not run: DESIGN.md). The lines are fed here as they
 * stream, and nothing else is needed: no breakpoint, no step, no stop.
 *
 * From the first line (the reset vector) the call stack is followed
 * (profile/shadow.h): a call is an instruction at a function's entry after
 * a BL or BLX (read from the ELF at the previous PC), returning to the
 * instruction after it; the log has no SP, so a return is the PC reaching
 * the innermost frame whose return address it is. A PC at the reset
 * handler's entry without a call (a reset) starts the stack again. With -d
 * int, an exception taken ("...taking pending") puts its handler above the
 * code it interrupted, and its return ("Exception return:") takes it off; a
 * block re-run for an I/O access under -icount ("cpu_io_recompile: rewound")
 * takes back the line before, as "Stopped execution" does.
 *
 * The region (profile/region.h's meaning): from the PC reaching from (not
 * counting the instruction at to), or a call of F from its entry to the
 * return of its frame. Exact: every instruction in the region counted with
 * its chain, one pass (the first). Sampled (sample_every N): one instruction
 * drawn at intervals uniform in [N/2, 3N/2) instructions of the region's
 * passes — unbiased over executed instructions, as long as the duration;
 * with a region, the caller sets finish_pass when the duration is over, so
 * that only whole passes are sampled (a pass cut short would weigh its
 * first part, and so its first functions, more than the rest).
 */
#ifndef BENCHRACK_PROFILE_EXEC_LOG_H
#define BENCHRACK_PROFILE_EXEC_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf/elf_file.h"
#include "measure/span.h"
#include "profile/frame_names.h"
#include "profile/profile_data.h"
#include "profile/shadow.h"

#define BR_EXEC_LOG_LINE 256U
/* Past max_steps, how many more instructions are read for the pass's length
 * before it is given up (a region that never ends). */
#define BR_EXEC_LOG_LENGTH_MORE 10000000U

typedef struct br_exec_log_options {
	const br_elf_t *elf;
	const br_span_t *span; /* NULL: everything (sampled only) */
	uint64_t max_steps;    /* exact: the most instructions counted */
	uint64_t sample_every; /* 0: exact; N: sampled, about one per N instructions */
	uint64_t seed;         /* of the sampling intervals */
} br_exec_log_options_t;

typedef struct br_exec_log {
	const br_exec_log_options_t *o;
	br_profile_t *out;
	br_frame_names_t names;
	br_shadow_t shadow;
	uint32_t reset; /* the reset handler's entry (the reset vector's function) */
	bool have_pending;
	uint32_t pending; /* the last PC, processed once the next line shows it ran */
	bool have_prev;
	uint32_t prev_pc;
	bool exception_entry;  /* the next PC is an exception handler's first */
	bool after_exception;  /* the next PC is where an exception returned to */
	bool inside;           /* in a pass of the region */
	size_t region_depth;   /* a function's pass: the depth of its frame */
	uint64_t pass_count;   /* instructions of the pass under way */
	uint64_t instructions; /* every instruction the log showed */
	uint64_t next_draw;    /* sampled: instructions of the region to the next draw */
	uint64_t rng;
	bool done;        /* exact: the pass ended; sampled: the pass to finish ended */
	bool finish_pass; /* sampled: stop at the end of the pass under way */
	bool over; /* exact: max_steps counted and the pass went on (pass_count: its length) */
	bool length_unknown; /* over, and not ended within BR_EXEC_LOG_LENGTH_MORE more */
	char line[BR_EXEC_LOG_LINE];
	size_t line_len;
} br_exec_log_t;

/* Starts x for o (kept by the caller) into out (a profile initialised for
 * its mode). */
void br_exec_log_init(br_exec_log_t *x, const br_exec_log_options_t *o, br_profile_t *out);

/* Feeds the next len bytes of the log (lines may straddle calls). Returns
 * true once exact mode's pass has ended (x->done; x->over if it was longer
 * than max_steps), or sampled mode's pass under way once finish_pass is
 * set: what follows is not looked at. */
bool br_exec_log_feed(br_exec_log_t *x, const char *bytes, size_t len);

void br_exec_log_free(br_exec_log_t *x);

#endif
