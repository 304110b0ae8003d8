/*
 * The call stack followed instruction by instruction (exact mode, both the
 * stepped path and the execution log's): a frame per active call, root first.
 * At each new instruction: a return (the PC at a frame's return address,
 * with SP back at or above the call's where SP is known) pops to that frame's
 * caller, a tail-called frame going with the frame that jumped to it; then a
 * call (the previous instruction called: a PC at a function's entry) pushes a
 * frame; a PC at a function's entry without a call is a tail call, shown
 * above the function that jumped (it returns for it); a jump into another
 * function's body, or a return to the first instruction of a symbol (a
 * call that was its function's last instruction), renames the top frame.
 */
#ifndef BENCHRACK_PROFILE_SHADOW_H
#define BENCHRACK_PROFILE_SHADOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BR_SHADOW_MAX_DEPTH 256U

typedef struct br_shadow_frame {
	uint32_t id;    /* frame id of the function (profile_data.h) */
	uint32_t ret;   /* return address (Thumb bit cleared) */
	uint32_t sp;    /* SP at the call (0: not known, any SP returns) */
	bool ret_known; /* false for a root */
	bool tail;      /* entered by a tail call: returns with the frame below */
	bool exception; /* an exception handler's: ends at its exception return */
} br_shadow_frame_t;

typedef struct br_shadow {
	br_shadow_frame_t f[BR_SHADOW_MAX_DEPTH];
	size_t depth; /* at least 1 once seeded */
	uint32_t chain[BR_SHADOW_MAX_DEPTH];
} br_shadow_t;

/* One instruction at pc, in the function of frame id whose entry is entry.
 * call: the previous instruction was a call returning to ret. sp: the SP
 * now (0: not known). */
void br_shadow_update(br_shadow_t *s, uint32_t pc, uint32_t id, uint32_t entry, bool call,
                      uint32_t ret, uint32_t sp);

/* The frame ids root first into s->chain; returns the depth. */
size_t br_shadow_chain(br_shadow_t *s);

#endif
