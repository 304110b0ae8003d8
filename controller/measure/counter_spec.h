/*
 * A counter named on the command line, until a board file names it
 * (config/board.h): "tim2", "dwt", "systick" or "mmio:ADDRESS[:WIDTH[:down]]",
 * with the clock it ticks at and the core (which decides the DWT's lock and
 * whether there is a DWT at all).
 */
#ifndef BENCHRACK_MEASURE_COUNTER_SPEC_H
#define BENCHRACK_MEASURE_COUNTER_SPEC_H

#include <stdint.h>

#include "common/error.h"
#include "measure/counter.h"

/*
 * Parses spec into *out (see counter.h for each kind):
 *   icount                      QEMU's own instruction count (record mode), 64 bits
 *   tim2                        STM32 TIM2; clock_hz 0: QEMU's instruction count
 *   dwt                         DWT_CYCCNT; needs clock_hz; not on Cortex-M0/M0+
 *   systick                     SysTick; needs clock_hz
 *   mmio:ADDRESS[:WIDTH[:down]] any counter register (WIDTH 1..32, default 32;
 *                               "down" or "up", default up); a width under 32
 *                               needs clock_hz, or a wrap could not be told
 * core is "m0", "m0+", "m3", "m4", "m7", "m33", "m55", "m85" (a leading "cortex-" is
 * accepted) or NULL for m4; on m7 the DWT is unlocked first. Returns BR_OK,
 * or BR_ERR_USAGE with a message naming the bad part and the choices.
 */
br_status_t br_counter_spec_parse(const char *spec, uint64_t clock_hz, const char *core,
                                  br_counter_t *out, br_error_t *err);

#endif
