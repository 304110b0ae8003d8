/*
 * The self-test's verdicts, from its figures alone (run/selftest.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "run/selftest.h"

#define NS_PER_S 1000000000ULL
/* A real core's cycles per instruction at most, for 16-bit nops and a
 * subs/bne loop run from RAM (wait states, a bus shared with the debug
 * port), and the cycles a resume and a halt may add to a window. */
#define CYCLES_PER_INSTRUCTION_MAX 16U
#define RESUME_CYCLES_MAX 64U
/* SysTick on QEMU: a window's ticks within 2 % (and one tick) of what its
 * clock makes of one instruction per virtual nanosecond. */
#define EMULATED_CLOCK_TOLERANCE_PERCENT 2U
/* ... judged only on a window of at least this many ticks: QEMU's SysTick
 * is an armed timer, and a resume from a halt moves it by up to a few
 * thousand ticks (measured here: 1000 nops read 135..3164 ticks at 16..25
 * MHz, where 16..25 were due; DESIGN.md, the armed-timer trap). */
#define EMULATED_CLOCK_MIN_TICKS 10000U
/* ... and above, the ticks of this much virtual time more: a resume arms
 * the timer late by however long the host takes to run the vCPU again,
 * which only adds ticks (a loaded CI host: 28767 at 16 MHz, 1.8 ms, over a
 * 40 ms window). A clock_hz wrong by a factor (32 MHz named for 16, or
 * 16 for 25) still falls outside; one up to about a fifth too low may not. */
#define EMULATED_RESUME_LATE_NS 10000000U
/* The counter's rate against the host's clock: within 10 %, measured over
 * at least 20 ms of host time between two windows. */
#define RATE_TOLERANCE_PERCENT 10U
#define RATE_MIN_SPAN_NS ((int64_t)20000000)

static br_selftest_check_t *check_add(br_selftest_report_t *out, const char *name,
                                      br_selftest_verdict_t verdict, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static br_selftest_check_t *check_add(br_selftest_report_t *out, const char *name,
                                      br_selftest_verdict_t verdict, const char *fmt, ...)
{
	br_selftest_check_t *c = &out->checks[out->count++];
	c->name = name;
	c->verdict = verdict;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->evidence, sizeof(c->evidence), fmt, ap);
	va_end(ap);
	if (verdict == BR_SELFTEST_FAIL)
		out->failed++;
	return c;
}

/* Appends text to a check's evidence. */
static void evidence_add(br_selftest_check_t *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void evidence_add(br_selftest_check_t *c, const char *fmt, ...)
{
	size_t used = strlen(c->evidence);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->evidence + used, sizeof(c->evidence) - used, fmt, ap);
	va_end(ap);
}

/* A counter whose unit says instructions: held to one tick per instruction. */
static bool claims_instructions(const br_selftest_figures_t *f)
{
	const char *unit = f->counter.counter.unit;
	return unit != NULL && strstr(unit, "instruction") != NULL;
}

/* What the counter is held to for a window of n instructions. */
typedef enum expect_kind {
	EXPECT_EXACT,    /* ticks == instructions */
	EXPECT_EMULATED, /* QEMU: instructions * clock_hz / 1e9, within 2 % */
	EXPECT_CYCLES,   /* a real core's cycles: at least, at most */
	EXPECT_UNKNOWN,  /* nothing said about a tick (a timer of unknown rate) */
} expect_kind_t;

static expect_kind_t expect_of(const br_selftest_figures_t *f)
{
	if (claims_instructions(f))
		return EXPECT_EXACT;
	if (f->emulated && f->counter.counter.clock_hz != 0U)
		return EXPECT_EMULATED;
	if (!f->emulated && f->counter.counter.kind == BR_COUNTER_DWT)
		return EXPECT_CYCLES;
	return EXPECT_UNKNOWN;
}

/* The range [*lo, *hi] a window's ticks must fall in. */
static void expect_range(const br_selftest_figures_t *f, expect_kind_t k, uint64_t n, uint64_t *lo,
                         uint64_t *hi)
{
	uint64_t clock = f->counter.counter.clock_hz;
	switch (k) {
	case EXPECT_EXACT:
		*lo = *hi = n;
		return;
	case EXPECT_EMULATED: {
		uint64_t ticks = n * clock / NS_PER_S;
		uint64_t slack = 1U + ticks * EMULATED_CLOCK_TOLERANCE_PERCENT / 100U;
		*lo = ticks > slack ? ticks - slack : 0U;
		*hi = ticks + slack + clock * EMULATED_RESUME_LATE_NS / NS_PER_S;
		return;
	}
	case EXPECT_CYCLES:
		*lo = f->dual_issue ? (n + 1U) / 2U : n;
		*hi = n * CYCLES_PER_INSTRUCTION_MAX + RESUME_CYCLES_MAX;
		return;
	case EXPECT_UNKNOWN:
		*lo = 0;
		*hi = UINT64_MAX;
		return;
	}
}

static void judge_counts(const br_selftest_figures_t *f, br_selftest_report_t *out)
{
	const br_selftest_window_t *w = &f->windows[1];
	check_add(out, "counts", w->ticks > 0U ? BR_SELFTEST_PASS : BR_SELFTEST_FAIL,
	          "%" PRIu64 " nops: %" PRIu64 " ticks (read %" PRIu64 ", then %" PRIu64 ")%s",
	          w->instructions, w->ticks, w->start, w->end,
	          w->ticks > 0U ? "" : ": the counter did not advance while the core ran");
}

static void judge_halted(const br_selftest_figures_t *f, br_selftest_report_t *out)
{
	bool still = f->held_first == f->held_second;
	check_add(out, "still when halted", still ? BR_SELFTEST_PASS : BR_SELFTEST_FAIL,
	          "read twice 20 ms apart at one halt: %" PRIu64 ", %" PRIu64 "%s", f->held_first,
	          f->held_second,
	          still ? ""
	                : ": it counts while the core is halted, so every window "
	                  "would include the host's time");
}

/* Every window advanced, by less than half the period (a step backwards
 * reads as nearly a whole period). */
static void judge_rises(const br_selftest_figures_t *f, br_selftest_report_t *out)
{
	uint64_t half = f->counter.period / 2U;
	bool ok = true;
	br_selftest_check_t *c = check_add(out, "rises", BR_SELFTEST_PASS, "ticks per window:");
	for (size_t i = 0; i < f->nwindows; i++) {
		const br_selftest_window_t *w = &f->windows[i];
		bool step = w->ticks > 0U && (half == 0U || w->ticks < half);
		ok = ok && step;
		evidence_add(c, "%s %s %" PRIu64, i == 0 ? "" : ",", w->name, w->ticks);
	}
	if (!ok) {
		c->verdict = BR_SELFTEST_FAIL;
		out->failed++;
		evidence_add(c, ": a window did not advance, or went back (read as more than "
		                "half the period)");
	}
}

/* The longest window, at the most the counter could have advanced in it,
 * stays inside one period: no reading was taken across a wrap. */
static void judge_wrap(const br_selftest_figures_t *f, expect_kind_t k, br_selftest_report_t *out)
{
	const br_selftest_window_t *w = &f->windows[f->nwindows - 1U];
	if (f->counter.period == 0U) {
		check_add(out, "no wrap", BR_SELFTEST_PASS,
		          "a 64-bit count: %" PRIu64
		          " ticks in the longest window, no wrap possible",
		          w->ticks);
		return;
	}
	uint64_t lo = 0, most = 0;
	expect_range(f, k, w->instructions, &lo, &most);
	uint64_t clock = f->counter.counter.clock_hz;
	if (!f->emulated && clock != 0U) {
		uint64_t wall_ticks = (uint64_t)w->wall_ns * clock / NS_PER_S + 1U;
		if (wall_ticks < most)
			most = wall_ticks;
	}
	if (most == UINT64_MAX) {
		check_add(out, "no wrap", BR_SELFTEST_NOT_APPLICABLE,
		          "the counter's rate is not known (no clock_hz): a wrap in a window "
		          "cannot be ruled out");
		return;
	}
	bool fits = most < f->counter.period;
	check_add(out, "no wrap", fits ? BR_SELFTEST_PASS : BR_SELFTEST_FAIL,
	          "the longest window (%" PRIu64 " instructions) read %" PRIu64
	          " ticks, at most %" PRIu64 " possible; the period is %" PRIu64 "%s",
	          w->instructions, w->ticks, most, f->counter.period,
	          fits ? "" : ": the counter may have wrapped in it");
}

static const char *expect_words(const br_selftest_figures_t *f, expect_kind_t k, char *buf,
                                size_t cap)
{
	switch (k) {
	case EXPECT_EXACT:
		return "one tick per instruction (exact)";
	case EXPECT_EMULATED:
		snprintf(buf, cap,
		         "%" PRIu64
		         " Hz under one instruction per virtual ns (QEMU -icount shift=0), "
		         "within %u %% below, %u %% + %u ms above (a resume arms it late)",
		         f->counter.counter.clock_hz, EMULATED_CLOCK_TOLERANCE_PERCENT,
		         EMULATED_CLOCK_TOLERANCE_PERCENT, EMULATED_RESUME_LATE_NS / 1000000U);
		return buf;
	case EXPECT_CYCLES:
		return f->dual_issue ? "cycles: at least half the instructions (a dual-issue "
		                       "core), at most 16 per instruction + 64"
		                     : "cycles: at least one per instruction, at most 16 + 64";
	case EXPECT_UNKNOWN:
		break;
	}
	return "";
}

static void judge_per_instruction(const br_selftest_figures_t *f, expect_kind_t k,
                                  br_selftest_report_t *out)
{
	if (k == EXPECT_UNKNOWN) {
		check_add(out, "per instruction", BR_SELFTEST_NOT_APPLICABLE,
		          "a tick of counter %s is neither an instruction nor a cycle of a known "
		          "clock: nothing to hold it to",
		          f->counter.counter.name);
		return;
	}
	char words[192];
	br_selftest_check_t *c = check_add(out, "per instruction", BR_SELFTEST_PASS,
	                                   "%s:", expect_words(f, k, words, sizeof(words)));
	bool ok = true;
	for (size_t i = 0; i < f->nwindows; i++) {
		const br_selftest_window_t *w = &f->windows[i];
		uint64_t lo = 0, hi = 0;
		expect_range(f, k, w->instructions, &lo, &hi);
		if (k == EXPECT_EMULATED &&
		    w->instructions * f->counter.counter.clock_hz / NS_PER_S <
		        EMULATED_CLOCK_MIN_TICKS) {
			evidence_add(c, "%s %" PRIu64 " -> %" PRIu64 " (short: not judged)",
			             i ? "," : "", w->instructions, w->ticks);
			continue;
		}
		bool in = w->ticks >= lo && w->ticks <= hi;
		ok = ok && in;
		if (lo == hi)
			evidence_add(c, "%s %" PRIu64 " instructions -> %" PRIu64 "%s",
			             i ? "," : "", w->instructions, w->ticks, in ? "" : " (WRONG)");
		else
			evidence_add(
			    c, "%s %" PRIu64 " -> %" PRIu64 " (%" PRIu64 "..%" PRIu64 ")%s",
			    i ? "," : "", w->instructions, w->ticks, lo, hi, in ? "" : " (OUT)");
	}
	if (f->long_runs > 1U)
		evidence_add(c, " (the long window: the fewer ticks of %u runs)", f->long_runs);
	if (!ok) {
		c->verdict = BR_SELFTEST_FAIL;
		out->failed++;
		if (k == EXPECT_EMULATED)
			evidence_add(c, "; is clock_hz right?");
	}
}

static void judge_resume(const br_selftest_figures_t *f, expect_kind_t k, br_selftest_report_t *out)
{
	const br_selftest_window_t *w = &f->windows[0];
	if (k == EXPECT_EXACT || k == EXPECT_CYCLES) {
		bool sane = w->ticks >= 1U &&
		            w->ticks <= 1U + RESUME_CYCLES_MAX + CYCLES_PER_INSTRUCTION_MAX;
		check_add(out, "resume cost", sane ? BR_SELFTEST_PASS : BR_SELFTEST_FAIL,
		          "a window of 1 instruction read %" PRIu64
		          " ticks: resuming and halting add %" PRId64 " (at most %u)",
		          w->ticks, (int64_t)w->ticks - 1, RESUME_CYCLES_MAX);
		return;
	}
	if (k == EXPECT_EMULATED) {
		check_add(out, "resume cost", BR_SELFTEST_NOT_APPLICABLE,
		          "a window of 1 instruction read %" PRIu64
		          " ticks: on QEMU a halt moves this timer, so a short region's ticks "
		          "here are not its cost (counter icount is exact)",
		          w->ticks);
		return;
	}
	check_add(out, "resume cost", BR_SELFTEST_NOT_APPLICABLE,
	          "a window of 1 instruction read %" PRIu64
	          " ticks; a tick is not one instruction's cost here",
	          w->ticks);
}

static void judge_rate(const br_selftest_figures_t *f, br_selftest_report_t *out)
{
	uint64_t clock = f->counter.counter.clock_hz;
	if (f->emulated) {
		check_add(out, "rate vs host", BR_SELFTEST_NOT_APPLICABLE,
		          "QEMU's clock is virtual (-icount shift=0): no host rate to hold it to");
		return;
	}
	if (clock == 0U) {
		check_add(out, "rate vs host", BR_SELFTEST_NOT_APPLICABLE,
		          "the board file gives no clock_hz to hold the counter to");
		return;
	}
	const br_selftest_window_t *a = &f->windows[f->nwindows - 2U];
	const br_selftest_window_t *b = &f->windows[f->nwindows - 1U];
	int64_t span = b->wall_ns - a->wall_ns;
	if (span < RATE_MIN_SPAN_NS || b->ticks <= a->ticks) {
		check_add(out, "rate vs host", BR_SELFTEST_NOT_APPLICABLE,
		          "the long window took %" PRId64 " ms more than the short one: too little "
		          "to time against the host's clock",
		          (int64_t)(span / 1000000LL));
		return;
	}
	double rate = (double)(b->ticks - a->ticks) * 1e9 / (double)span;
	double off = (rate - (double)clock) * 100.0 / (double)clock;
	bool ok = off <= (double)RATE_TOLERANCE_PERCENT && off >= -(double)RATE_TOLERANCE_PERCENT;
	check_add(out, "rate vs host", ok ? BR_SELFTEST_PASS : BR_SELFTEST_FAIL,
	          "%.3f MHz of host time (%" PRIu64 " ticks more in %.1f ms more), the board file "
	          "says %.3f MHz: %+.1f %%%s",
	          rate / 1e6, b->ticks - a->ticks, (double)span / 1e6, (double)clock / 1e6, off,
	          ok ? "" : " (beyond 10 %: is clock_hz, or the core's clock set-up, right?)");
}

void br_selftest_judge(const br_selftest_figures_t *f, br_selftest_report_t *out)
{
	memset(out, 0, sizeof(*out));
	expect_kind_t k = expect_of(f);
	judge_counts(f, out);
	judge_halted(f, out);
	judge_rises(f, out);
	judge_wrap(f, k, out);
	judge_per_instruction(f, k, out);
	judge_resume(f, k, out);
	judge_rate(f, out);
}
