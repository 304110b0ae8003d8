/*
 * `benchrack selftest`: proves a board's counter with code whose cost is
 * known, before anything else is measured there. The host writes a
 * calibration image of its own into the board's RAM (no firmware, no stub,
 * no flash write): one nop, 1000 nops, and a two-instruction loop run any
 * number of times, each between two breakpoints, the counter read at every
 * halt. The figures are then judged (selftest_judge.c): does it count, does
 * it stand still while halted, does it rise, does the window fit its
 * period, one tick per instruction where that is exact (QEMU), cycles no
 * fewer than instructions and within a bound (a real core's DWT), its rate
 * against the host's clock (a real board with a clock).
 *
 * The image is ARMv6-M code (16-bit Thumb only), so it runs on every
 * Cortex-M core: cpsid i, the counter's enable writes from the core when the
 * server's own writes leave peripherals alone (QEMU, SysTick), then
 *   N0: 1000 x nop          N1: subs r0, #1 ; bne N1      X: b X
 */
#ifndef BENCHRACK_RUN_SELFTEST_H
#define BENCHRACK_RUN_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"
#include "measure/counter.h"

/* The nops of the straight-line window. */
#define BR_SELFTEST_NOPS 1000U
/* The image's largest size: the set-up (enable writes), 1000 nops, the loop. */
#define BR_SELFTEST_IMAGE_MAX 2304U
/* The windows run: one nop, 1000 nops, two loop runs. */
#define BR_SELFTEST_WINDOWS 4U
#define BR_SELFTEST_CHECKS 8U
#define BR_SELFTEST_EVIDENCE 512U

/* Where each part of the image sits once written at base. */
typedef struct br_selftest_layout {
	uint32_t base;  /* the image's first byte (entry, Thumb bit clear) */
	uint32_t nops;  /* N0: the first of the BR_SELFTEST_NOPS nops */
	uint32_t loop;  /* N1: subs r0, #1 (bne N1 follows) */
	uint32_t end;   /* X: b X, where the loop window halts */
	size_t size;    /* bytes from base */
	size_t enables; /* enable writes the core makes in the set-up */
} br_selftest_layout_t;

/*
 * Writes the calibration image for address base (4-aligned) into buf
 * (BR_SELFTEST_IMAGE_MAX bytes) and fills *layout. With cpu_enable not NULL,
 * the set-up applies its enable writes from the core, each
 * read-modify-write (bits mask set to value), before the nops.
 */
void br_selftest_image(uint32_t base, const br_counter_t *cpu_enable, uint8_t *buf,
                       br_selftest_layout_t *layout);

/* One window: code of a known instruction count between two halts. */
typedef struct br_selftest_window {
	const char *name;      /* "1 nop", "1000 nops", "loop" */
	uint64_t instructions; /* what the core executes between the halts */
	uint64_t start, end;   /* the counter's readings at the two halts */
	uint64_t ticks;        /* end - start, in the counter's direction and period */
	int64_t wall_ns;       /* host time from the resume to the stop reply */
} br_selftest_window_t;

/* What a self-test measured, and what the judge needs to know about it. */
typedef struct br_selftest_figures {
	br_counter_state_t counter;
	bool emulated;   /* QEMU under -icount shift=0: one instruction per virtual ns */
	bool dual_issue; /* a core that may retire two instructions a cycle (M7, M85) */
	br_selftest_layout_t layout;
	br_selftest_window_t windows[BR_SELFTEST_WINDOWS];
	size_t nwindows;
	uint64_t held_first, held_second; /* two reads at one halt, ~20 ms apart */
	unsigned long_runs; /* the long window's runs, the fewest ticks kept (0, 1: one) */
} br_selftest_figures_t;

typedef enum br_selftest_verdict {
	BR_SELFTEST_PASS,
	BR_SELFTEST_FAIL,
	BR_SELFTEST_NOT_APPLICABLE,
} br_selftest_verdict_t;

typedef struct br_selftest_check {
	const char *name;
	br_selftest_verdict_t verdict;
	char evidence[BR_SELFTEST_EVIDENCE];
} br_selftest_check_t;

typedef struct br_selftest_report {
	br_selftest_check_t checks[BR_SELFTEST_CHECKS];
	size_t count;
	size_t failed;
} br_selftest_report_t;

/* Settings of a self-test run on a target. */
typedef struct br_selftest_setup {
	uint32_t ram_origin; /* where the image goes (4-aligned) */
	uint32_t ram_length;
	bool emulated;
	bool dual_issue;
	int timeout_ms; /* the longest one window may take */
	/* The long loop window's iterations (at least 2000); 0: chosen for the
	 * counter (selftest.c). */
	uint32_t long_loops;
} br_selftest_setup_t;

/*
 * Runs the self-test on the halted (or running: it is halted first, where
 * it is, with no reset: the clock set-up of the firmware that ran stays)
 * core of t with counter c: writes the image at setup->ram_origin and reads
 * it back, sets SP to the top of that RAM and xPSR's Thumb bit (its
 * exception number kept), starts c as measuring would (the host's enable
 * writes where the server makes them; from the core for SysTick where it
 * does not, QEMU), and runs the windows from the image, filling *f. Leaves the
 * core in the image's last loop (b .). BR_ERR_USAGE when the image does not
 * fit the RAM; the target's error otherwise (a window that never ends:
 * BR_ERR_TIMEOUT naming it).
 */
br_status_t br_selftest_run(br_target_t *t, const br_counter_t *c, const br_selftest_setup_t *setup,
                            br_selftest_figures_t *f, br_error_t *err);

/*
 * Judges f (no target involved): fills *out with one check per property,
 * each with its verdict and the figures that decided it, and counts the
 * failures.
 */
void br_selftest_judge(const br_selftest_figures_t *f, br_selftest_report_t *out);

#endif
