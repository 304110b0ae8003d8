/*
 * Calibration: the cost of measuring nothing, measured in the same run and
 * shown beside every result, which is shown raw and net of it (DESIGN.md:
 * "the cost of that is measured by calibration and reported, never hidden").
 *   - Breakpoint mode: the first samples of a session step off their start
 *     breakpoint (breakpoint_session.h: BR_BP_CALIBRATION_SAMPLES, every
 *     sample of a loop pass); the ticks of that step, less the one
 *     instruction it executes (part of the region), are what resuming from a
 *     halt adds. On QEMU's instruction counter that is exactly 0. On a
 *     cycle counter the stepped instruction costs at least one cycle: the
 *     figure is then an upper bound (not verified on hardware here).
 *   - Stub batch mode: the empty bench's samples, the loop's own overhead
 *     (the second counter read: 1 instruction at -O2).
 * Raw samples only: the median and the net figures are the statistics'.
 */
#ifndef BENCHRACK_MEASURE_CALIBRATION_H
#define BENCHRACK_MEASURE_CALIBRATION_H

#include <stddef.h>
#include <stdint.h>

#include "measure/breakpoint_session.h"
#include "measure/stub_batch.h"

typedef enum br_calibration_method {
	BR_CALIBRATION_NONE,       /* not known (a stub firmware without an "empty" bench) */
	BR_CALIBRATION_RESUME,     /* breakpoint mode: stepping off the start breakpoint */
	BR_CALIBRATION_STUB_EMPTY, /* stub batch mode: the empty bench */
} br_calibration_method_t;

/* The name of the bench whose samples calibrate stub batch mode. */
#define BR_CALIBRATION_EMPTY_BENCH "empty"

typedef struct br_calibration {
	br_calibration_method_t method;
	double *samples; /* count entries, owned; in the counter's unit */
	size_t count;
} br_calibration_t;

/*
 * Fills *out from a breakpoint session's measured samples that stepped off
 * their start (resume_measured): resume_ticks - 1 each (never below 0).
 * Samples not measured are left out.
 */
void br_calibration_from_resume(const br_bp_sample_t *samples, size_t n, br_calibration_t *out);

/* Fills *out from the empty bench's result in stub batch mode. */
void br_calibration_from_stub(const br_stub_result_t *empty, br_calibration_t *out);

/* Marks *out as not known (no samples). */
void br_calibration_none(br_calibration_t *out);

/* One line saying what the calibration measured, for reports. */
const char *br_calibration_method_text(br_calibration_method_t method);

/* net[i] = raw[i] - cost for i < n (net may be negative: shown, not hidden). */
void br_calibration_subtract(const double *raw, size_t n, double cost, double *net);

/* Frees the samples. */
void br_calibration_free(br_calibration_t *c);

#endif
