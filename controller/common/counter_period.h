/*
 * The one rule on a counter's period, shared by every place a counter is
 * declared (the command line's --counter in measure/counter_spec.c, a board
 * file's counter: in config/board.c): a counter narrower than 32 bits wraps
 * every 2^width ticks, and only its rate (a clock) turns that period into
 * the host time that guard halts and wrap checks need (measure/wrap.h). A
 * 32-bit counter of unknown rate is accepted (its wrap line says it cannot
 * be told); a narrower one is refused.
 */
#ifndef BENCHRACK_COMMON_COUNTER_PERIOD_H
#define BENCHRACK_COMMON_COUNTER_PERIOD_H

#include <stdint.h>

#include "common/error.h"

/* Counters this wide or wider wrap so seldom that an unknown rate is accepted. */
#define BR_COUNTER_PERIOD_FULL_BITS 32U

/*
 * BR_OK when a counter called name, width_bits wide, counting at rate_hz (0:
 * not known) can have its wraps told; otherwise `status` (the caller's:
 * BR_ERR_USAGE on a command line) with one line naming the width and asking
 * for the clock as clock_option says ("--clock-hz", "clock_hz").
 */
br_status_t br_counter_period_check(const char *name, unsigned width_bits, uint64_t rate_hz,
                                    const char *clock_option, br_status_t status, br_error_t *err);

#endif
