/*
 * Counters as data (measure/counter.h, counter_spec.h): deltas across wraps
 * in both directions and for any period (a SysTick reload), wrap periods,
 * the enable writes each kind carries, and the command-line spec, with
 * tables of good and bad inputs.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "measure/counter.h"
#include "measure/counter_spec.h"

#define DEMCR 0xE000EDFCU
#define DWT_CTRL 0xE0001000U
#define DWT_LAR 0xE0001FB0U
#define SYST_CSR 0xE000E010U
#define SYST_RVR 0xE000E014U
#define SYST_CVR 0xE000E018U

typedef struct delta_case {
	const char *name;
	unsigned width;
	bool down;
	uint64_t period; /* for br_counter_delta_period */
	uint32_t start, end;
	uint32_t want;
} delta_case_t;

static const delta_case_t delta_cases[] = {
    {"up, no wrap", 32, false, 1ULL << 32, 100, 1100, 1000},
    {"up, 32-bit wrap", 32, false, 1ULL << 32, 0xFFFFFFF0U, 0x10U, 0x20U},
    {"up, 24-bit wrap", 24, false, 1ULL << 24, 0xFFFFF0U, 0x10U, 0x20U},
    {"down, no wrap", 24, true, 1ULL << 24, 5000, 1000, 4000},
    {"down, 24-bit wrap", 24, true, 1ULL << 24, 0x10U, 0xFFFFF0U, 0x20U},
    /* SysTick at a firmware's 1 ms reload at 168 MHz: RVR 167999, period 168000.
     * 100 -> 0, wrap to 167999 -> 167900: 100 + 168000 - 167900 = 200. */
    {"down, reload period", 24, true, 168000, 100, 167900, 200},
    {"up, reload period", 32, false, 1000, 990, 10, 20},
    /* A reading past the period (the reload changed) is taken modulo. */
    {"down, reading past the period", 24, true, 1000, 1500, 400, 100},
    {"equal readings", 32, false, 1ULL << 32, 7, 7, 0},
};

static void test_delta(void)
{
	for (size_t i = 0; i < sizeof(delta_cases) / sizeof(delta_cases[0]); i++) {
		const delta_case_t *d = &delta_cases[i];
		br_counter_t c;
		br_counter_mmio(&c, "test", 0x40000024U, d->width, d->down, 0);
		uint32_t got = br_counter_delta_period(&c, d->period, d->start, d->end);
		CHECK_MSG(got == d->want, "%s: period delta %u, want %u", d->name, got, d->want);
		if (d->period == 1ULL << d->width) {
			got = br_counter_delta(&c, d->start, d->end);
			CHECK_MSG(got == d->want, "%s: mask delta %u, want %u", d->name, got,
			          d->want);
		}
	}
	br_counter_t c;
	br_counter_mmio(&c, "test", 0, 32, false, 0);
	CHECK(br_counter_delta_period(&c, 0, 0xFFFFFFFFU, 1U) == 2U); /* period 0: 2^32 */
	CHECK(br_counter_mask(&c) == 0xFFFFFFFFU);
	br_counter_mmio(&c, "test", 0, 1, false, 0);
	CHECK(br_counter_mask(&c) == 1U);
}

static void test_state(void)
{
	br_counter_t c;
	br_counter_state_t s;
	br_counter_mmio(&c, "view", 0x40000024U, 24, false, 1000000000ULL);
	br_counter_state_init(&s, &c);
	CHECK(s.period == 1ULL << 24);
	CHECK(fabs(s.wrap_seconds - 0.016777216) < 1e-12);
	CHECK(s.writes_made == 0);
	CHECK(br_counter_state_delta(&s, 0xFFFFFFU, 1U) == 2U);
	br_counter_state_init(&s, br_counter_qemu_tim2());
	CHECK(s.period == 1ULL << 32);
	CHECK(s.wrap_seconds == 0.0); /* QEMU icount: not a host time */
	CHECK(strcmp(s.counter.unit, "instructions (QEMU icount)") == 0);
}

static bool has_write(const br_counter_t *c, size_t i, uint32_t address, uint32_t mask,
                      uint32_t value)
{
	return i < c->enable_count && c->enable[i].address == address &&
	       c->enable[i].mask == mask && c->enable[i].value == value;
}

static void test_kinds(void)
{
	br_counter_t c;
	br_counter_dwt(&c, 168000000ULL, false);
	CHECK(c.kind == BR_COUNTER_DWT && c.address == 0xE0001004U && c.width_bits == 32);
	CHECK(c.enable_count == 2);
	CHECK(has_write(&c, 0, DEMCR, 1U << 24, 1U << 24));
	CHECK(has_write(&c, 1, DWT_CTRL, 1U, 1U));
	CHECK(c.running_address == DWT_CTRL && c.running_mask == 1U);
	CHECK(strcmp(c.unit, "cycles") == 0);

	br_counter_dwt(&c, 600000000ULL, true); /* Cortex-M7: unlock before CYCCNTENA */
	CHECK(c.enable_count == 3);
	CHECK(has_write(&c, 1, DWT_LAR, 0xFFFFFFFFU, 0xC5ACCE55U));
	CHECK(has_write(&c, 2, DWT_CTRL, 1U, 1U));

	br_counter_systick(&c, 48000000ULL);
	CHECK(c.kind == BR_COUNTER_SYSTICK && c.address == SYST_CVR);
	CHECK(c.width_bits == 24 && c.counts_down);
	CHECK(c.reload_address == SYST_RVR);
	CHECK(c.running_address == SYST_CSR && c.running_mask == 1U);
	CHECK(has_write(&c, 0, SYST_RVR, 0xFFFFFFU, 0xFFFFFFU));
	CHECK(has_write(&c, 1, SYST_CVR, 0xFFFFFFU, 0U));
	CHECK(has_write(&c, 2, SYST_CSR, 5U, 5U)); /* ENABLE | CLKSOURCE, no TICKINT */

	br_counter_tim2(&c, 0);
	CHECK(c.address == 0x40000024U && !c.counts_down && c.width_bits == 32);
	CHECK(strcmp(c.unit, "instructions (QEMU icount)") == 0);
	CHECK(has_write(&c, 2, 0xE0042008U, 1U, 1U)); /* DBG_TIM2_STOP: still while halted */
	for (size_t i = 0; i < c.enable_count; i++)
		CHECK(c.enable[i].address != 0x4000002CU); /* never TIM2_ARR */
	br_counter_tim2(&c, 84000000ULL);
	CHECK(strcmp(c.unit, "ticks") == 0 && c.clock_hz == 84000000ULL);
}

typedef struct spec_case {
	const char *spec;
	uint64_t clock_hz;
	const char *core;
	br_status_t want;
	br_counter_kind_t kind;
	uint32_t address;
	unsigned width;
	bool down;
	const char *phrase; /* in the message of a refused spec */
} spec_case_t;

static const spec_case_t spec_cases[] = {
    {"tim2", 0, NULL, BR_OK, BR_COUNTER_MMIO, 0x40000024U, 32, false, NULL},
    {"dwt", 168000000, NULL, BR_OK, BR_COUNTER_DWT, 0xE0001004U, 32, false, NULL},
    {"dwt", 168000000, "cortex-m7", BR_OK, BR_COUNTER_DWT, 0xE0001004U, 32, false, NULL},
    {"systick", 48000000, "m0+", BR_OK, BR_COUNTER_SYSTICK, SYST_CVR, 24, true, NULL},
    {"mmio:0x40000024", 0, NULL, BR_OK, BR_COUNTER_MMIO, 0x40000024U, 32, false, NULL},
    {"mmio:1073741860:32:up", 0, NULL, BR_OK, BR_COUNTER_MMIO, 0x40000024U, 32, false, NULL},
    {"mmio:0x40000024:16:down", 1000000, NULL, BR_OK, BR_COUNTER_MMIO, 0x40000024U, 16, true, NULL},
    {"", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "not one of"},
    {"tim9", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "tim9"},
    {"mmio:", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "not an address"},
    {"mmio:xyz", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "'xyz'"},
    {"mmio:0x100000000", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "not an address"},
    {"mmio:0x1:0", 1, NULL, BR_ERR_USAGE, 0, 0, 0, false, "1 to 32"},
    {"mmio:0x1:33", 1, NULL, BR_ERR_USAGE, 0, 0, 0, false, "1 to 32"},
    {"mmio:0x1:32:sideways", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "sideways"},
    {"mmio:0x1:32:up:more", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "expected"},
    {"mmio:0x1:24", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "--clock-hz"},
    {"dwt", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "--clock-hz"},
    {"systick", 0, NULL, BR_ERR_USAGE, 0, 0, 0, false, "--clock-hz"},
    {"dwt", 48000000, "m0", BR_ERR_USAGE, 0, 0, 0, false, "Cortex-M0 has no DWT"},
    {"tim2", 0, "m5", BR_ERR_USAGE, 0, 0, 0, false, "m5"},
};

static void test_spec(void)
{
	for (size_t i = 0; i < sizeof(spec_cases) / sizeof(spec_cases[0]); i++) {
		const spec_case_t *s = &spec_cases[i];
		br_counter_t c;
		br_error_t err;
		br_error_clear(&err);
		br_status_t st = br_counter_spec_parse(s->spec, s->clock_hz, s->core, &c, &err);
		CHECK_MSG(st == s->want, "'%s': status %d, want %d (%s)", s->spec, (int)st,
		          (int)s->want, err.message);
		if (st != BR_OK) {
			CHECK_MSG(s->phrase != NULL && strstr(err.message, s->phrase) != NULL,
			          "'%s': message '%s' lacks '%s'", s->spec, err.message, s->phrase);
			continue;
		}
		CHECK_MSG(c.kind == s->kind && c.address == s->address &&
		              c.width_bits == s->width && c.counts_down == s->down &&
		              c.clock_hz == s->clock_hz,
		          "'%s': kind %d address 0x%08x width %u down %d", s->spec, (int)c.kind,
		          c.address, c.width_bits, (int)c.counts_down);
	}
	br_counter_t c;
	CHECK(br_counter_spec_parse("dwt", 1, "m7", &c, NULL) == BR_OK && c.enable_count == 3);
	CHECK(br_counter_spec_parse("dwt", 1, "m4", &c, NULL) == BR_OK && c.enable_count == 2);
}

/* QEMU's icount: its answer parsed (and what is not one refused), 64-bit
 * deltas with no wrap, no guard period, no register, no enable writes. */
static void test_icount(void)
{
	static const struct {
		const char *text;
		bool ok;
		uint64_t want;
	} answers[] = {
	    {"Recording execution '/tmp/benchrack-rr-a/replay.bin': instruction count = 2006\n",
	     true, 2006},
	    {"Recording execution 'r': instruction count = 4400000007\r\n", true, 4400000007ULL},
	    {"Recording execution 'r': instruction count = 18446744073709551615", true,
	     18446744073709551615ULL},
	    {"Record/replay is not active\n", false, 0},
	    {"Recording execution 'r': instruction count = \n", false, 0},
	    {"Recording execution 'r': instruction count = 12x\n", false, 0},
	    {"Recording execution 'r': instruction count = -5\n", false, 0},
	    {"Recording execution 'r': instruction count = 18446744073709551616\n", false, 0},
	    {"", false, 0},
	};
	for (size_t i = 0; i < sizeof(answers) / sizeof(answers[0]); i++) {
		uint64_t got = 0;
		bool ok = br_counter_icount_parse(answers[i].text, &got);
		CHECK_MSG(ok == answers[i].ok && (!ok || got == answers[i].want),
		          "icount answer %zu: ok %d, %llu", i, ok, (unsigned long long)got);
	}
	br_counter_t c;
	br_counter_icount(&c);
	CHECK(c.kind == BR_COUNTER_ICOUNT && br_counter_is_monitor(&c) && c.width_bits == 64);
	CHECK(c.enable_count == 0 && c.address == 0 && strcmp(c.name, "icount") == 0);
	CHECK(strcmp(c.unit, "instructions (QEMU icount)") == 0);
	br_counter_state_t s;
	br_counter_state_init(&s, &c);
	CHECK(s.period == 0 && s.wrap_seconds == 0.0);
	CHECK(br_counter_state_delta64(&s, 10, 4400000017ULL) == 4400000007ULL);
	CHECK(br_counter_state_delta64(&s, 0xFFFFFFF0ULL, 0x100000010ULL) == 0x20ULL);
	br_counter_tim2(&c, 0);
	CHECK(!br_counter_is_monitor(&c));
	br_counter_state_init(&s, &c);
	CHECK(br_counter_state_delta64(&s, 0xFFFFFFF0ULL, 0x10ULL) == 0x20ULL);
	br_counter_t spec;
	CHECK(br_counter_spec_parse("icount", 0, NULL, &spec, NULL) == BR_OK &&
	      spec.kind == BR_COUNTER_ICOUNT);
	CHECK(br_counter_spec_parse("dwt", 1, "m55", &spec, NULL) == BR_OK);
	CHECK(br_counter_spec_parse("dwt", 1, "cortex-m85", &spec, NULL) == BR_OK);
}

int main(void)
{
	test_icount();
	test_delta();
	test_state();
	test_kinds();
	test_spec();
	return check_finish();
}
