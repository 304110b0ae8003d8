/* Stack high-water measurement of one bench call (stack.c). */
#ifndef BR_STACK_H
#define BR_STACK_H

#include <stdint.h>

#include "benchrack/bench.h"
#include "benchrack/stack_paint.h"

/* Bytes just below the caller's SP that are left unpainted. */
#define BR_STACK_GUARD_BYTES 8U

/*
 * Call fn(run) and return how many stack bytes it used, counted from the SP at
 * the call down to the deepest byte it wrote. Before the call the region from
 * br_ld_stack_limit up to SP - BR_STACK_GUARD_BYTES is painted with
 * BR_STACK_PAINT; after it, the first byte above br_ld_stack_limit that lost
 * its paint is the deepest write. Returns BR_CB_NOT_MEASURED if any byte of
 * the region's lowest BR_STACK_OVERFLOW_BAND lost its paint (the stack region
 * overflowed), and BR_STACK_GUARD_BYTES (an upper bound) if fn wrote nothing
 * below the guard.
 */
uint32_t br_stack_measure(void (*fn)(br_run_t *run), br_run_t *run);

#endif
