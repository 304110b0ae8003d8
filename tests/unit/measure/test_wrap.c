/*
 * Telling a wrapped interval from a short one (measure/wrap.h): a sample of
 * s ticks over h seconds of host time may hide a wrap of period P at clock f
 * exactly when s + P <= h * f. Worked by hand for a 24-bit counter at 1 GHz
 * (P = 16777216, wrap every 16.777216 ms).
 */
#include "check.h"
#include "measure/wrap.h"

#define GHZ 1000000000ULL
#define P24 16777216U

typedef struct wrap_case {
	const char *name;
	uint64_t ticks;
	double host_seconds;
	bool want_ok;
} wrap_case_t;

static const wrap_case_t wrap_cases[] = {
    {"short: 1 ms", 100, 0.001, true},
    {"just under one period of host time", 0, 0.016, true},
    /* 100 + 16777216 = 16777316 > 16777215.9 (h f): cannot have wrapped. */
    {"a period less a tick, plus the ticks", 100, 0.0167772159, true},
    /* h f = 16777316 = s + P exactly: one wrap fits; not measured. */
    {"exactly s + P", 100, 0.016777316, false},
    {"a second", 5, 1.0, false},
    /* A long sample: 16,000,000 ticks in 20 ms: 20e6 < 16e6 + 16.7e6. */
    {"long but unwrapped", 16000000, 0.020, true},
    {"long and possibly wrapped", 16000000, 0.040, false},
};

static void test_sample(void)
{
	br_counter_t c;
	br_counter_state_t s;
	br_counter_mmio(&c, "view", 0x40000024U, 24, false, GHZ);
	br_counter_state_init(&s, &c);
	for (size_t i = 0; i < sizeof(wrap_cases) / sizeof(wrap_cases[0]); i++) {
		const wrap_case_t *w = &wrap_cases[i];
		bool got = br_wrap_sample_ok(&s, w->ticks, w->host_seconds);
		CHECK_MSG(got == w->want_ok, "%s: ok %d, want %d", w->name, (int)got,
		          (int)w->want_ok);
	}
	/* No clock (QEMU icount): never decidable, always passes. */
	br_counter_state_init(&s, br_counter_qemu_tim2());
	CHECK(br_wrap_sample_ok(&s, 1, 1e6));
}

static void test_batch(void)
{
	br_counter_t c;
	br_counter_state_t s;
	br_counter_mmio(&c, "view", 0x40000024U, 24, false, GHZ);
	br_counter_state_init(&s, &c);
	const uint32_t samples[] = {1000, 1000, 1000, 1000};
	bool measured[4] = {false, false, false, false};
	/* 4000 ticks; 10 ms of host time: 10e6 < 4000 + P: none can have wrapped. */
	CHECK(br_wrap_batch_check(&s, samples, 4, 0.010, measured) == 0);
	CHECK(measured[0] && measured[1] && measured[2] && measured[3]);
	/* 20 ms: one wrap of some sample would fit: none is trusted. */
	CHECK(br_wrap_batch_check(&s, samples, 4, 0.020, measured) == 4);
	CHECK(!measured[0] && !measured[3]);
}

/* Guard reads (stub_batch.h): the request's exact total against the samples. */
static void test_guarded(void)
{
	br_counter_t c;
	br_counter_state_t s;
	br_counter_mmio(&c, "view", 0x40000024U, 24, false, GHZ);
	br_counter_state_init(&s, &c);
	/* Four samples of 10,000,000 ticks: a batch of 40 M, over two periods. */
	const uint32_t samples[] = {10000000, 10000000, 10000000, 10000000};
	bool measured[4] = {false, false, false, false};
	/* 40 M of samples and 1000 ticks of the loop around them: exact. */
	CHECK(br_wrap_guarded_check(&s, samples, 4, 40001000ULL, BR_WRAP_OK, measured) == 0);
	CHECK(measured[0] && measured[3]);
	/* A period less one tick more than the samples: still none wrapped. */
	CHECK(br_wrap_guarded_check(&s, samples, 4, 40000000ULL + P24 - 1U, BR_WRAP_OK,
	                            measured) == 0);
	/* A whole period more: one sample could be 10 M + P, read as 10 M. */
	CHECK(br_wrap_guarded_check(&s, samples, 4, 40000000ULL + P24, BR_WRAP_OK, measured) ==
	      4);
	CHECK(!measured[0] && !measured[3]);
	/* An interval between guard reads that could hide a period: nothing is exact. */
	CHECK(br_wrap_guarded_check(&s, samples, 4, 40001000ULL, BR_WRAP_POSSIBLE, measured) ==
	      4);
	CHECK(br_wrap_guarded_check(&s, samples, 4, 40001000ULL, BR_WRAP_TOO_FAST, measured) ==
	      4);
}

int main(void)
{
	test_sample();
	test_batch();
	test_guarded();
	return check_finish();
}
