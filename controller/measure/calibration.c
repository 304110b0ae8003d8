#include "measure/calibration.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* The step off a start breakpoint executes exactly one instruction of the region. */
#define CALIBRATION_STEPPED_INSTRUCTIONS 1U

void br_calibration_none(br_calibration_t *out)
{
	memset(out, 0, sizeof(*out));
	out->method = BR_CALIBRATION_NONE;
}

void br_calibration_from_resume(const br_bp_sample_t *samples, size_t n, br_calibration_t *out)
{
	br_calibration_none(out);
	out->method = BR_CALIBRATION_RESUME;
	out->samples = xcalloc(n == 0 ? 1U : n, sizeof(out->samples[0]));
	for (size_t i = 0; i < n; i++) {
		if (!samples[i].measured || !samples[i].resume_measured)
			continue;
		uint32_t r = samples[i].resume_ticks;
		out->samples[out->count++] = r > CALIBRATION_STEPPED_INSTRUCTIONS
		                                 ? (double)(r - CALIBRATION_STEPPED_INSTRUCTIONS)
		                                 : 0.0;
	}
}

void br_calibration_from_stub(const br_stub_result_t *empty, br_calibration_t *out)
{
	br_calibration_none(out);
	out->method = BR_CALIBRATION_STUB_EMPTY;
	out->samples = xcalloc(empty->count == 0 ? 1U : empty->count, sizeof(out->samples[0]));
	for (uint32_t i = 0; i < empty->count; i++)
		out->samples[i] = (double)empty->samples[i];
	out->count = empty->count;
}

const char *br_calibration_method_text(br_calibration_method_t method)
{
	switch (method) {
	case BR_CALIBRATION_RESUME:
		return "resuming from a breakpoint (the step off it, less its one instruction)";
	case BR_CALIBRATION_STUB_EMPTY:
		return "the stub's loop overhead (bench " BR_CALIBRATION_EMPTY_BENCH ")";
	case BR_CALIBRATION_NONE:
		break;
	}
	return "not known (the firmware has no " BR_CALIBRATION_EMPTY_BENCH " bench)";
}

void br_calibration_subtract(const double *raw, size_t n, double cost, double *net)
{
	for (size_t i = 0; i < n; i++)
		net[i] = raw[i] - cost;
}

void br_calibration_free(br_calibration_t *c)
{
	free(c->samples);
	c->samples = NULL;
	c->count = 0;
}
