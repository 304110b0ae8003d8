/*
 * The self-test on a target: the calibration image written to RAM, its
 * windows run between breakpoints, the counter read at each halt.
 */
#include "run/selftest.h"

#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "measure/counter_target.h"
#include "run/runner.h"

#define XPSR_THUMB 0x01000000U
#define XPSR_IPSR 0x000001FFU
#define HELD_PAUSE_NS 20000000L
/* The loop's iterations in the short window, and in the long one on QEMU
 * (4,000,000 instructions: a few tens of ms). */
#define LOOP_SHORT 1000U
#define LOOP_LONG_EMULATED 2000000U
/* ... and on a clock of QEMU's (SysTick), 40,000,000 instructions: what a
 * resume moves that timer by (up to ~4000 ticks at 25 MHz) stays under
 * 0.5 % of the window. */
#define LOOP_LONG_EMULATED_CLOCK 20000000U
/* ... run twice there, the fewer ticks kept: a resume on a loaded host
 * moves QEMU's SysTick forward (measured: +9.5 % on one 40,000,000
 * instruction window at load 15, +0.02 % on the next). */
#define EMULATED_CLOCK_RUNS 2U
#define LOOP_LONG_MAX 0x7FFFFFFFU
/* A real board's long window: a quarter second at the board's clock, or a
 * quarter of the counter's period when that is shorter. */
#define LONG_WINDOW_DIVISOR 4U

/* The core is halted at pc == where, else an error naming both. */
static br_status_t halted_at(br_target_t *t, uint32_t where, const char *what, br_error_t *err)
{
	uint32_t pc = 0;
	br_status_t st = br_target_pc(t, &pc, err);
	if (st != BR_OK)
		return st;
	if ((pc & ~1U) != where)
		return br_error_set(err, BR_ERR_TARGET,
		                    "the calibration image stopped at 0x%08x, not at 0x%08x after "
		                    "%s (a fault, or code the server did not write)",
		                    pc, where, what);
	return BR_OK;
}

/* Runs from pc (r0 = loops when loops != 0) to the breakpoint at stop,
 * reading the counter at both halts, into *w. */
static br_status_t run_window(br_target_t *t, const br_counter_state_t *cs, uint32_t pc,
                              uint32_t loops, uint32_t stop, int timeout_ms,
                              br_selftest_window_t *w, br_error_t *err)
{
	br_status_t st = br_target_reg_write(t, BR_TARGET_REG_PC, pc, err);
	if (st == BR_OK && loops != 0U)
		st = br_target_reg_write(t, 0, loops, err);
	if (st == BR_OK)
		st = br_target_breakpoint_insert(t, stop, BR_BREAKPOINT_AUTO, err);
	if (st == BR_OK)
		st = br_counter_read(t, cs, &w->start, err);
	int64_t t0 = br_clock_ns();
	if (st == BR_OK)
		st = br_target_resume(t, err);
	if (st == BR_OK)
		st = br_target_wait_stop(t, timeout_ms, NULL, err);
	w->wall_ns = br_clock_ns() - t0;
	if (st == BR_OK)
		st = br_counter_read(t, cs, &w->end, err);
	if (st == BR_OK)
		st = halted_at(t, stop, w->name, err);
	if (st == BR_OK)
		st = br_target_breakpoint_remove(t, stop, err);
	if (st != BR_OK)
		return br_error_prefix(err, "self-test window '%s'", w->name);
	w->ticks = br_counter_state_delta64(cs, w->start, w->end);
	return BR_OK;
}

static br_selftest_window_t *next_window(br_selftest_figures_t *f, const char *name,
                                         uint64_t instructions)
{
	br_selftest_window_t *w = &f->windows[f->nwindows++];
	memset(w, 0, sizeof(*w));
	w->name = name;
	w->instructions = instructions;
	return w;
}

/* The long loop window's iterations: on QEMU a fixed number (above); on a
 * board, a quarter second at its clock or a quarter of
 * the counter's period, whichever is fewer ticks, at the ticks per
 * iteration the short window showed. */
static uint32_t long_loops(const br_selftest_figures_t *f, const br_selftest_window_t *shortw)
{
	if (f->emulated)
		return f->counter.counter.clock_hz != 0U ? LOOP_LONG_EMULATED_CLOCK
		                                         : LOOP_LONG_EMULATED;
	uint64_t target = f->counter.period / LONG_WINDOW_DIVISOR;
	uint64_t clock = f->counter.counter.clock_hz;
	if (clock != 0U && clock / LONG_WINDOW_DIVISOR < target)
		target = clock / LONG_WINDOW_DIVISOR;
	uint64_t per = shortw->ticks / LOOP_SHORT;
	uint64_t loops = target / (per != 0U ? per : 1U);
	if (loops < LOOP_SHORT * 2U)
		loops = LOOP_SHORT * 2U;
	return loops > LOOP_LONG_MAX ? LOOP_LONG_MAX : (uint32_t)loops;
}

/* Counter c's enable writes made by the core itself: where the server's
 * writes leave peripherals alone (QEMU) and c is SysTick, which the core
 * can start there (a peripheral QEMU does not model would fault). */
static const br_counter_t *cpu_enable_of(const br_target_t *t, const br_counter_t *c)
{
	if (t->flavour->writes_peripherals || c->kind != BR_COUNTER_SYSTICK)
		return NULL;
	return c;
}

static br_status_t image_write(br_target_t *t, const br_counter_t *c,
                               const br_selftest_setup_t *setup, br_selftest_layout_t *layout,
                               br_error_t *err)
{
	static uint8_t image[BR_SELFTEST_IMAGE_MAX];
	uint32_t base = (setup->ram_origin + 3U) & ~3U;
	br_selftest_image(base, cpu_enable_of(t, c), image, layout);
	if (setup->ram_length < layout->size + (base - setup->ram_origin) + 64U)
		return br_error_set(
		    err, BR_ERR_USAGE,
		    "the calibration image (%zu bytes) does not fit the board's RAM "
		    "region (%u bytes at 0x%08x)",
		    layout->size, setup->ram_length, setup->ram_origin);
	br_status_t st = br_target_mem_write(t, base, image, layout->size, err);
	if (st != BR_OK)
		return br_error_prefix(err, "writing the calibration image at 0x%08x", base);
	static uint8_t back[BR_SELFTEST_IMAGE_MAX];
	st = br_target_mem_read(t, base, back, layout->size, err);
	if (st == BR_OK && memcmp(back, image, layout->size) != 0)
		return br_error_set(err, BR_ERR_TARGET,
		                    "the calibration image written at 0x%08x reads back different: "
		                    "is 0x%08x..0x%08x RAM?",
		                    base, base, base + (uint32_t)layout->size);
	return st;
}

br_status_t br_selftest_run(br_target_t *t, const br_counter_t *c, const br_selftest_setup_t *setup,
                            br_selftest_figures_t *f, br_error_t *err)
{
	memset(f, 0, sizeof(*f));
	f->emulated = setup->emulated;
	f->dual_issue = setup->dual_issue;
	br_status_t st = br_target_halt(t, setup->timeout_ms, err);
	if (st == BR_OK)
		st = br_target_breakpoint_remove_all(t, err);
	if (st == BR_OK)
		st = image_write(t, c, setup, &f->layout, err);
	uint32_t top = (setup->ram_origin + setup->ram_length) & ~7U;
	if (st == BR_OK)
		st = br_target_reg_write(t, BR_TARGET_REG_SP, top, err);
	/* the Thumb bit; the exception number kept: a core halted in a handler
	 * stays in Handler mode (the debugger does not change the mode) */
	uint32_t xpsr = 0;
	if (st == BR_OK)
		st = br_target_reg_read(t, BR_TARGET_REG_XPSR, &xpsr, err);
	if (st == BR_OK)
		st = br_target_reg_write(t, BR_TARGET_REG_XPSR, (xpsr & XPSR_IPSR) | XPSR_THUMB,
		                         err);
	if (st == BR_OK)
		st = br_runner_counter_start(t, c, &f->counter, err);
	if (st != BR_OK)
		return st;
	/* the set-up: interrupts off, the counter started from the core where
	 * it must be; not measured */
	br_selftest_window_t setup_window = {.name = "set-up"};
	st = run_window(t, &f->counter, f->layout.base, 0, f->layout.nops, setup->timeout_ms,
	                &setup_window, err);
	if (st != BR_OK)
		return st;
	const br_selftest_layout_t *l = &f->layout;
	br_selftest_window_t *w = next_window(f, "1 nop", 1);
	st = run_window(t, &f->counter, l->nops, 0, l->nops + 2U, setup->timeout_ms, w, err);
	if (st == BR_OK) {
		w = next_window(f, "1000 nops", BR_SELFTEST_NOPS);
		st = run_window(t, &f->counter, l->nops, 0, l->loop, setup->timeout_ms, w, err);
	}
	if (st == BR_OK) {
		/* at this halt: does the counter stand still while the core is halted? */
		struct timespec pause = {0, HELD_PAUSE_NS};
		st = br_counter_read(t, &f->counter, &f->held_first, err);
		nanosleep(&pause, NULL);
		if (st == BR_OK)
			st = br_counter_read(t, &f->counter, &f->held_second, err);
	}
	br_selftest_window_t *shortw = NULL;
	if (st == BR_OK) {
		shortw = next_window(f, "loop x1000", 2ULL * LOOP_SHORT);
		st = run_window(t, &f->counter, l->loop, LOOP_SHORT, l->end, setup->timeout_ms,
		                shortw, err);
	}
	if (st == BR_OK) {
		uint32_t loops =
		    setup->long_loops != 0U ? setup->long_loops : long_loops(f, shortw);
		w = next_window(f, "long loop", 2ULL * loops);
		st = run_window(t, &f->counter, l->loop, loops, l->end, setup->timeout_ms, w, err);
		/* a QEMU clock: the fewer ticks of two runs (a resume on a loaded
		 * host added virtual time in every run measured, never took any) */
		for (unsigned i = 1; st == BR_OK && i < EMULATED_CLOCK_RUNS && f->emulated &&
		                     f->counter.counter.clock_hz != 0U;
		     i++) {
			br_selftest_window_t again = *w;
			st = run_window(t, &f->counter, l->loop, loops, l->end, setup->timeout_ms,
			                &again, err);
			f->long_runs = i + 1U;
			if (st == BR_OK && again.ticks < w->ticks)
				*w = again;
		}
	}
	return st;
}
