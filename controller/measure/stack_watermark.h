/*
 * Stack use of unmodified firmware, measured by the controller (DESIGN.md,
 * "Stack"): paint the free part of the region (below the current SP) with
 * BR_STACK_PAINT through memory writes, let the code run, read the region
 * back: the first byte from the low end that lost its paint is the deepest
 * byte written. If a byte of the lowest BR_STACK_OVERFLOW_BAND lost it, the
 * region overflowed (a frame's unwritten hole can keep the lowest byte
 * painted: benchrack/stack_paint.h) and the depth is unknown: "not measured",
 * never a number.
 */
#ifndef BENCHRACK_MEASURE_STACK_WATERMARK_H
#define BENCHRACK_MEASURE_STACK_WATERMARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "measure/stack_region.h"
#include "debug/target.h"

/* A stack figure that could not be measured. */
#define BR_STACK_NOT_MEASURED UINT32_MAX

typedef enum br_stack_status {
	BR_STACK_MEASURED,
	BR_STACK_OVERFLOWED, /* the lowest byte of the region lost its paint */
	BR_STACK_SP_OUTSIDE, /* the SP was not inside the region: nothing to paint */
} br_stack_status_t;

/* "measured", "overflowed the painted region", "SP outside the region". */
const char *br_stack_status_text(br_stack_status_t status);

/*
 * The number of bytes from the start of buf that still hold the paint:
 * the index of the first byte that does not, or len when all do.
 */
size_t br_stack_paint_intact(const uint8_t *buf, size_t len);

/*
 * What br_stack_paint paints for sp: *len bytes from *low, with the *status
 * it sets (*len 0 and BR_STACK_SP_OUTSIDE when sp is not in (low, low +
 * size]). For a caller that paints in its own write (a breakpoint session's
 * resume: br_target_batch_t's fill), with BR_STACK_PAINT.
 */
void br_stack_paint_span(const br_stack_region_t *region, uint32_t sp, uint32_t *low, uint32_t *len,
                         br_stack_status_t *status);

/* Says in err that painting (or, when !painting, reading back) region
 * failed: err holds the write's or read's error. Returns err's status. For
 * br_stack_paint and callers that paint or read in their own write. */
br_status_t br_stack_region_failed(const br_stack_region_t *region, bool painting, br_error_t *err);

/*
 * Paints region bytes [low, sp) of the halted target (the live stack at and
 * above sp is never touched). Returns BR_OK with *status BR_STACK_MEASURED,
 * or BR_OK with BR_STACK_SP_OUTSIDE (and nothing written) when sp is not in
 * (low, low + size]; a failed write is the target's error.
 */
br_status_t br_stack_paint(br_target_t *t, const br_stack_region_t *region, uint32_t sp,
                           br_stack_status_t *status, br_error_t *err);

/*
 * Judges a scan: buf holds the len bytes read back from the region's low end
 * (br_stack_paint_span's span for the sample's start SP) after code ran from
 * a halt painted by br_stack_paint. Sets *bytes to the start SP minus the
 * deepest byte written (0 when nothing below it was written) and *status
 * BR_STACK_MEASURED, or BR_STACK_NOT_MEASURED with *status
 * BR_STACK_OVERFLOWED when a byte of the overflow band lost its paint (a
 * region of the band's size or less can measure nothing).
 */
void br_stack_scan_judge(const uint8_t *buf, uint32_t len, uint32_t *bytes,
                         br_stack_status_t *status);

#endif
