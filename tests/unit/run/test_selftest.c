/*
 * The self-test's pure parts (run/selftest.h): the verdicts from figures
 * worked by hand — a real board's DWT (the path no hardware here runs),
 * SysTick's 24-bit period, QEMU's exact counts — and the image's encoding
 * read back by the ARMv6-M ARM's rules (A6.7). With a path argument, also
 * writes the image there (with a SysTick set-up) for test_selftest_image.py's
 * objdump oracle.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "run/selftest.h"

#define MHZ 1000000ULL
#define MS 1000000LL

static const br_selftest_check_t *find(const br_selftest_report_t *r, const char *name)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(r->checks[i].name, name) == 0)
			return &r->checks[i];
	return NULL;
}

static br_selftest_verdict_t verdict(const br_selftest_report_t *r, const char *name)
{
	const br_selftest_check_t *c = find(r, name);
	return c != NULL ? c->verdict : (br_selftest_verdict_t)-1;
}

static void window(br_selftest_figures_t *f, const char *name, uint64_t n, uint64_t start,
                   uint64_t ticks, int64_t wall_ns)
{
	br_selftest_window_t *w = &f->windows[f->nwindows++];
	w->name = name;
	w->instructions = n;
	w->start = start;
	w->end = start + ticks;
	w->ticks = ticks;
	w->wall_ns = wall_ns;
}

/* A Cortex-M4 at 180 MHz behind OpenOCD: 1 nop 6 cycles (5 of resume and
 * halt), 1000 nops 1004, the loop 3 cycles an iteration (subs 1, bne taken
 * 2) + 4; the long loop 15,000,000 iterations in 250 ms of host time. */
static void dwt_board(br_selftest_figures_t *f, uint64_t clock_hz, uint64_t long_ticks,
                      int64_t long_wall)
{
	memset(f, 0, sizeof(*f));
	br_counter_t c;
	br_counter_dwt(&c, clock_hz, false);
	br_counter_state_init(&f->counter, &c);
	window(f, "1 nop", 1, 100, 6, 1 * MS);
	window(f, "1000 nops", 1000, 200, 1004, 1 * MS);
	f->held_first = f->held_second = 1204;
	window(f, "loop x1000", 2000, 1300, 3004, 1 * MS);
	window(f, "long loop", 30000000, 5000, long_ticks, long_wall);
}

static void test_dwt(void)
{
	br_selftest_figures_t f;
	br_selftest_report_t r;
	dwt_board(&f, 180 * MHZ, 45000004, 250 * MS + 1 * MS);
	br_selftest_judge(&f, &r);
	CHECK_MSG(r.failed == 0, "a sound DWT at 180 MHz passes: %zu failed", r.failed);
	CHECK(verdict(&r, "per instruction") == BR_SELFTEST_PASS);
	CHECK(verdict(&r, "rate vs host") == BR_SELFTEST_PASS);
	CHECK(verdict(&r, "resume cost") == BR_SELFTEST_PASS);
	CHECK(strstr(find(&r, "resume cost")->evidence, "add 5") != NULL);
	/* (45000004 - 3004) / 0.250 s = 179.988 MHz: -0.0 % */
	CHECK(strstr(find(&r, "rate vs host")->evidence, "179.988 MHz") != NULL);

	/* the board file says 180 MHz, the core runs on its 16 MHz reset clock:
	 * the same cycles take 2.8125 s */
	dwt_board(&f, 180 * MHZ, 45000004, 2812500 * 1000LL + 1 * MS);
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "rate vs host") == BR_SELFTEST_FAIL);
	CHECK_MSG(strstr(find(&r, "rate vs host")->evidence, "15.999 MHz") != NULL, "%s",
	          find(&r, "rate vs host")->evidence);
	CHECK(r.failed == 1);

	/* fewer cycles than instructions: impossible on a single-issue core */
	dwt_board(&f, 180 * MHZ, 45000004, 250 * MS + 1 * MS);
	f.windows[1].ticks = 800;
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "per instruction") == BR_SELFTEST_FAIL);
	/* ... possible on a Cortex-M7, which may retire two a cycle (>= 500) */
	f.dual_issue = true;
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "per instruction") == BR_SELFTEST_PASS);
	f.windows[1].ticks = 499;
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "per instruction") == BR_SELFTEST_FAIL);

	/* more than 16 cycles an instruction, plus 64: not a core's cycles */
	dwt_board(&f, 180 * MHZ, 45000004, 250 * MS + 1 * MS);
	f.windows[1].ticks = 16065;
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "per instruction") == BR_SELFTEST_FAIL);
	f.windows[1].ticks = 16064;
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "per instruction") == BR_SELFTEST_PASS);

	/* it counts while the core is halted */
	dwt_board(&f, 180 * MHZ, 45000004, 250 * MS + 1 * MS);
	f.held_second = f.held_first + 3600000;
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "still when halted") == BR_SELFTEST_FAIL);

	/* no clock: the rate cannot be held to anything */
	dwt_board(&f, 0, 45000004, 250 * MS + 1 * MS);
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "rate vs host") == BR_SELFTEST_NOT_APPLICABLE);

	/* the two loop windows 10 ms apart: too little host time to judge */
	dwt_board(&f, 180 * MHZ, 1803004, 11 * MS);
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "rate vs host") == BR_SELFTEST_NOT_APPLICABLE);
}

/* SysTick on a real board at 180 MHz: a 24-bit period, 93.2 ms. */
static void test_systick_wrap(void)
{
	br_selftest_figures_t f;
	br_selftest_report_t r;
	memset(&f, 0, sizeof(f));
	br_counter_t c;
	br_counter_systick(&c, 180 * MHZ);
	br_counter_state_init(&f.counter, &c);
	window(&f, "1 nop", 1, 100, 6, 1 * MS);
	window(&f, "1000 nops", 1000, 200, 1004, 1 * MS);
	window(&f, "loop x1000", 2000, 1300, 3004, 1 * MS);
	/* 80 ms of host time: at most 14,400,001 ticks < 16,777,216 */
	window(&f, "long loop", 8000000, 5000, 12000004, 80 * MS);
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "no wrap") == BR_SELFTEST_PASS);
	/* 100 ms: 18,000,001 possible: a wrap cannot be ruled out */
	f.windows[3].wall_ns = 100 * MS;
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "no wrap") == BR_SELFTEST_FAIL);
	/* SysTick's ticks are not held to instructions */
	CHECK(verdict(&r, "per instruction") == BR_SELFTEST_NOT_APPLICABLE);
}

/* QEMU's icount: exact or wrong, nothing between. */
static void test_exact(void)
{
	br_selftest_figures_t f;
	br_selftest_report_t r;
	memset(&f, 0, sizeof(f));
	f.emulated = true;
	br_counter_t c;
	br_counter_icount(&c);
	br_counter_state_init(&f.counter, &c);
	window(&f, "1 nop", 1, 3, 1, 0);
	window(&f, "1000 nops", 1000, 4, 1000, 0);
	window(&f, "loop x1000", 2000, 1004, 2000, 0);
	window(&f, "long loop", 4000000, 3004, 4000000, 0);
	br_selftest_judge(&f, &r);
	CHECK(r.failed == 0);
	CHECK(verdict(&r, "no wrap") == BR_SELFTEST_PASS);
	CHECK(verdict(&r, "rate vs host") == BR_SELFTEST_NOT_APPLICABLE);
	f.windows[2].ticks = 2001;
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "per instruction") == BR_SELFTEST_FAIL);
	f.windows[2].ticks = 2000;
	f.windows[0].ticks = 2; /* a halt that costs an instruction */
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "per instruction") == BR_SELFTEST_FAIL);
	f.windows[1].ticks = 0;
	br_selftest_judge(&f, &r);
	CHECK(verdict(&r, "counts") == BR_SELFTEST_FAIL);
	CHECK(verdict(&r, "rises") == BR_SELFTEST_FAIL);
}

static uint16_t half(const uint8_t *image, const br_selftest_layout_t *l, uint32_t address)
{
	size_t at = address - l->base;
	return (uint16_t)(image[at] | (image[at + 1] << 8));
}

static uint32_t word(const uint8_t *image, const br_selftest_layout_t *l, uint32_t address)
{
	return (uint32_t)half(image, l, address) | ((uint32_t)half(image, l, address + 2) << 16);
}

/* b at address: its target (A6.7.10 T2: PC + 4 + SignExtend(imm11:'0')). */
static uint32_t branch_target(const uint8_t *image, const br_selftest_layout_t *l, uint32_t address)
{
	uint16_t insn = half(image, l, address);
	int32_t imm = (int32_t)(insn & 0x7FFU);
	if (imm & 0x400)
		imm -= 0x800;
	return (uint32_t)((int32_t)address + 4 + imm * 2);
}

/* ldr rt, [pc, #imm8 * 4] at address: the word it loads (A6.7.27: the base
 * is Align(PC, 4), PC the instruction's address + 4). */
static uint32_t literal(const uint8_t *image, const br_selftest_layout_t *l, uint32_t address)
{
	uint16_t insn = half(image, l, address);
	uint32_t base = (address + 4U) & ~3U;
	return word(image, l, base + (insn & 0xFFU) * 4U);
}

static void test_image(const char *out_path)
{
	static uint8_t image[BR_SELFTEST_IMAGE_MAX];
	br_selftest_layout_t l;
	br_selftest_image(0x20000000U, NULL, image, &l);
	CHECK(half(image, &l, l.base) == 0xB672U); /* cpsid i */
	unsigned nops = 0;
	for (uint32_t a = l.nops; a < l.loop; a += 2U)
		nops += half(image, &l, a) == 0xBF00U;
	CHECK(nops == 1000U && l.loop - l.nops == 2000U);
	CHECK(half(image, &l, l.loop) == 0x3801U);      /* subs r0, #1 */
	CHECK(half(image, &l, l.loop + 2U) == 0xD1FDU); /* bne: PC + 4 - 6 = loop */
	CHECK(l.end == l.loop + 4U && half(image, &l, l.end) == 0xE7FEU);
	/* b to the nops: imm11 * 2 from its address + 4 */
	uint16_t b = half(image, &l, l.base + 2U);
	CHECK((b & 0xF800U) == 0xE000U && branch_target(image, &l, l.base + 2U) == l.nops);
	CHECK(l.enables == 0 && l.size == (size_t)(l.end + 2U - l.base));

	br_counter_t systick;
	br_counter_systick(&systick, 16 * MHZ);
	br_selftest_image(0x20000000U, &systick, image, &l);
	CHECK(l.enables == systick.enable_count && l.enables > 0);
	for (size_t i = 0; i < l.enables; i++) {
		uint32_t at = l.base + 2U + (uint32_t)i * 14U;
		const br_counter_write_t *w = &systick.enable[i];
		CHECK(literal(image, &l, at) == w->address);
		CHECK(half(image, &l, at + 2U) == 0x6801U); /* ldr r1, [r0] */
		CHECK(literal(image, &l, at + 4U) == w->mask);
		CHECK(half(image, &l, at + 6U) == 0x4391U); /* bics r1, r2 */
		CHECK(literal(image, &l, at + 8U) == (w->value & w->mask));
		CHECK(half(image, &l, at + 10U) == 0x4311U); /* orrs r1, r2 */
		CHECK(half(image, &l, at + 12U) == 0x6001U); /* str r1, [r0] */
	}
	uint32_t at_b = l.base + 2U + (uint32_t)l.enables * 14U;
	b = half(image, &l, at_b);
	CHECK((b & 0xF800U) == 0xE000U && branch_target(image, &l, at_b) == l.nops);
	if (out_path != NULL) {
		FILE *f = fopen(out_path, "wb");
		CHECK(f != NULL);
		if (f != NULL) {
			CHECK(fwrite(image, 1, l.size, f) == l.size);
			fclose(f);
			printf("image 0x%08x nops 0x%08x loop 0x%08x end 0x%08x enables %zu\n",
			       l.base, l.nops, l.loop, l.end, l.enables);
		}
	}
}

int main(int argc, char **argv)
{
	test_dwt();
	test_systick_wrap();
	test_exact();
	test_image(argc > 1 ? argv[1] : NULL);
	return check_finish();
}
