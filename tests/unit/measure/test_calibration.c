/*
 * Calibration samples (measure/calibration.h): in breakpoint mode each
 * sample's step off the start breakpoint, less the one instruction it runs,
 * never below zero, and only from measured samples; in stub mode the empty
 * bench's samples; net figures as raw less the cost.
 */
#include <string.h>

#include "check.h"
#include "measure/calibration.h"

static void test_resume(void)
{
	br_bp_sample_t s[5];
	memset(s, 0, sizeof(s));
	const uint32_t resume[] = {1, 1, 3, 0, 9};
	const bool measured[] = {true, true, true, true, false};
	for (size_t i = 0; i < 5; i++) {
		s[i].resume_ticks = resume[i];
		s[i].resume_measured = true;
		s[i].measured = measured[i];
	}
	br_calibration_t c;
	br_calibration_from_resume(s, 5, &c);
	CHECK(c.method == BR_CALIBRATION_RESUME);
	CHECK(c.count == 4); /* the not-measured sample is left out */
	CHECK(c.samples[0] == 0.0 && c.samples[1] == 0.0 && c.samples[2] == 2.0);
	CHECK(c.samples[3] == 0.0); /* a step that counted nothing: 0, not -1 */
	br_calibration_free(&c);
	CHECK(c.samples == NULL && c.count == 0);
}

static void test_stub(void)
{
	static br_stub_result_t empty;
	memset(&empty, 0, sizeof(empty));
	empty.count = 3;
	empty.samples[0] = empty.samples[1] = empty.samples[2] = 1;
	br_calibration_t c;
	br_calibration_from_stub(&empty, &c);
	CHECK(c.method == BR_CALIBRATION_STUB_EMPTY && c.count == 3 && c.samples[2] == 1.0);
	br_calibration_free(&c);
	br_calibration_none(&c);
	CHECK(c.method == BR_CALIBRATION_NONE && c.count == 0);
	CHECK(strstr(br_calibration_method_text(BR_CALIBRATION_STUB_EMPTY), "empty") != NULL);
	CHECK(strstr(br_calibration_method_text(BR_CALIBRATION_RESUME), "breakpoint") != NULL);
}

static void test_subtract(void)
{
	const double raw[] = {1001, 1001, 5};
	double net[3];
	br_calibration_subtract(raw, 3, 1.0, net);
	CHECK(net[0] == 1000.0 && net[1] == 1000.0 && net[2] == 4.0);
	br_calibration_subtract(raw, 3, 10.0, net);
	CHECK(net[2] == -5.0); /* shown, not hidden */
}

int main(void)
{
	test_resume();
	test_stub();
	test_subtract();
	return check_finish();
}
