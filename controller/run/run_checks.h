/*
 * The checks every figure passes before it is kept, applied here once for
 * suites and breakpoint entries alike (DESIGN.md, "Counters"): the counter
 * must have advanced ("has a counter" is no evidence: QEMU's DWT reads 0),
 * and a batch whose host time could hide a wrap is not measured.
 */
#ifndef BENCHRACK_RUN_RUN_CHECKS_H
#define BENCHRACK_RUN_RUN_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "measure/counter.h"

/* True when any of the n samples is not zero. */
bool br_run_any_counted(const uint32_t *samples, size_t n);

/*
 * BR_OK when the counter advanced (counted) or nothing was sampled (n == 0);
 * else the "not counting" error (BR_ERR_TARGET, exit 3) for state's counter,
 * saying it did not advance while `what` ran. Judged over a whole run, not
 * per bench: on a slow clock (SysTick at 25 MHz under QEMU's icount) a
 * one-instruction bench legitimately measures 0 ticks every time.
 */
br_status_t br_run_check_counting(const br_counter_state_t *state, bool counted, size_t n,
				  const char *what, br_error_t *err);

/*
 * The batch check of measure/wrap.h on n samples taken over host_seconds:
 * sets measured[i] (all true or all false) and returns how many are not
 * measured.
 */
size_t br_run_check_wrap(const br_counter_state_t *state, const uint32_t *samples, size_t n,
			 double host_seconds, bool *measured);

#endif
