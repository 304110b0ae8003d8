/*
 * Resuming from a breakpoint without changing it and without a step: the
 * host executes the instruction under it in the core's place (debug/
 * thumb_insn.h: writes the registers and the memory it would, and the PC
 * past it), so the breakpoints stay inserted for the whole session. On
 * QEMU 7.2 every breakpoint change and every step throws away the
 * translated code of the breakpoint's page (DESIGN.md), and a halt then
 * pays the translation of all the code on that page that runs before the
 * next one; this halt pays one round trip more (the registers read before
 * the writes) and nothing else.
 *
 * When: the server's flavour re-translates on a breakpoint change (QEMU),
 * and the counter counts guest instructions (QEMU's icount, TIM2 under
 * -icount): an instruction the host executes is one the counter did not
 * see, and the session adds exactly one to the sample for each one executed
 * inside it. On a cycle counter (DWT_CYCCNT on a real board) no figure
 * could stand in for the cycles the core did not spend, so the host never
 * executes an instruction there (and a real board loses no translations).
 *
 * Proof: at each site's first use, the core steps the instruction for
 * real and its registers and the memory the instruction writes must equal
 * what the host would have made of them; when they do not, host execution
 * is off for the rest of the session and the reason is kept.
 */
#ifndef BENCHRACK_MEASURE_HOST_STEP_H
#define BENCHRACK_MEASURE_HOST_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"
#include "debug/thumb_insn.h"
#include "measure/counter.h"

#define BR_HOST_STEP_SITES 2U
/* A region shorter than this (instructions of a sample, after the
 * calibration's) swaps breakpoints instead: what a swap makes QEMU
 * translate again is less than the round trip host execution adds
 * (controller/measure/README.md: at 3 instructions the swap is cheaper, at
 * 2004 with the code off the breakpoints' page host execution is). */
#define BR_HOST_STEP_MIN_REGION 1000U
#define BR_HOST_STEP_WHY_MAX 200U

typedef struct br_host_step_site {
	uint32_t address;
	br_thumb_insn_t insn;
	bool checked; /* its self-check ran and agreed */
} br_host_step_site_t;

typedef struct br_host_step {
	bool on; /* instructions under the session's breakpoints run in the host */
	br_host_step_site_t sites[BR_HOST_STEP_SITES];
	size_t nsites;
	/* The registers every halt reads for it (union of the sites', xPSR). */
	unsigned regs[BR_TARGET_BATCH_REGS];
	size_t nregs;
	br_breakpoint_kind_t kind;          /* of the session's breakpoints */
	uint64_t executed;                  /* instructions the host executed */
	uint64_t checks;                    /* self-checks that agreed */
	bool check_failed;                  /* a self-check disagreed (off since) */
	char why_off[BR_HOST_STEP_WHY_MAX]; /* when off: why, one clause */
} br_host_step_t;

/*
 * Sets hs up for breakpoints at addresses[0..n) (n <= BR_HOST_STEP_SITES)
 * (inserted with kind) on the halted target t measured with counter c: reads and decodes the
 * instruction at each. hs->on only when every site decodes, the flavour
 * re-translates on breakpoint changes and c counts QEMU's instructions;
 * otherwise why_off says why. Never fails: a read error only leaves it off.
 */
void br_host_step_setup(br_host_step_t *hs, br_target_t *t, const br_counter_t *c,
                        const uint32_t *addresses, size_t n, br_breakpoint_kind_t kind);

/* The site at address, or NULL. */
br_host_step_site_t *br_host_step_site(br_host_step_t *hs, uint32_t address);

/* Adds hs->regs to batch b's register reads; returns the index of the first. */
size_t br_host_step_add_reads(const br_host_step_t *hs, br_target_batch_t *b);

/*
 * Executes site's instruction in the host: the core registers from b's
 * reads (from index first, as br_host_step_add_reads put them) with the PC
 * at the site, into *e, and b's writes set from it (memory, changed
 * registers, the PC). False when the host cannot execute it at this halt
 * (thumb_insn.h: an IT block, a bx to EXC_RETURN): step it instead.
 */
bool br_host_step_prepare(const br_host_step_t *hs, const br_host_step_site_t *site,
                          const br_target_batch_t *read, size_t first, br_thumb_effect_t *e,
                          br_target_batch_t *b);

/*
 * Steps the core off the breakpoint at site (removed, stepped, inserted
 * again while hs->on) for real. The first time (site not checked yet, hs
 * on): the registers before the step are read, and after it every register
 * and the memory the instruction writes must equal what the host would
 * have made of them: when not, hs->on becomes false and why_off says what
 * differed, and the breakpoint stays removed (the caller goes on swapping
 * breakpoints). Errors are the target's.
 */
br_status_t br_host_step_real(br_host_step_t *hs, br_target_t *t, br_host_step_site_t *site,
                              br_error_t *err);

#endif
