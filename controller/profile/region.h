/*
 * The region of a profile in time, one meaning for both modes (as measure
 * has it): from reaching `from` to reaching `to` (--from X --to Y; to equal
 * to from: one pass of a loop), or one call of a function from its entry to
 * its return (--function F: the return address in LR at the entry, reached
 * with SP back at or above the entry's, so a recursive call's return is not
 * the end). Whatever runs in between is in the region: callees, tail calls,
 * interrupt handlers.
 */
#ifndef BENCHRACK_PROFILE_REGION_H
#define BENCHRACK_PROFILE_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"
#include "measure/span.h"

typedef struct br_profile_region_end {
	uint32_t pc; /* where the region ends (Thumb bit cleared) */
	uint32_t sp; /* FUNCTION: the SP at the entry, which the return restores */
	bool check_sp;
} br_profile_region_end_t;

/* Runs the halted core t to addr (a breakpoint there, removed again) and
 * checks the stop is there. */
br_status_t br_profile_run_to(br_target_t *t, uint32_t addr, int timeout_ms, br_error_t *err);

/* Where the region that starts at this halt (the core at span's start)
 * ends. */
br_status_t br_profile_region_end(br_target_t *t, const br_span_t *span,
                                  br_profile_region_end_t *end, br_error_t *err);

/* Whether a core at pc with sp has reached end. */
bool br_profile_region_ended(const br_profile_region_end_t *end, uint32_t pc, uint32_t sp);

#endif
