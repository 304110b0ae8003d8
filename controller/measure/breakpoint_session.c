#include "measure/breakpoint_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "benchrack/stack_paint.h"
#include "measure/counter_target.h"
#include "measure/host_step.h"

/* LR values from 0xF0000000 up are EXC_RETURN codes, not return addresses
 * (ARMv7-M Architecture Reference Manual, B1.5.8 "Exception return behavior"). */
#define BP_EXC_RETURN_MIN 0xF0000000U
#define BP_THUMB_BIT 1U
#define BP_NS_PER_S 1e9
#define BP_MS_PER_S 1e3
/* The step off a start breakpoint executes one instruction of the region. */
#define BP_STEPPED_INSTRUCTIONS 1U
/* How long a halt's read waits for the next stop as well: on QEMU the next
 * stop of a short region comes some 100-300 us after the replies, and the
 * shared read saves a wake-up per halt (bp_stop_linger_ms). Longer than the
 * kernel's tick (4 ms at HZ=250): a wait that ends before the next tick is a
 * timer of its own, and arming and cancelling it reprograms the CPU's timer
 * twice per halt, on a virtual machine an exit to the hypervisor each time
 * (2 ms measured 50-61 us of controller CPU per --from/--to halt, 20 ms
 * 39-48 us, alternating runs on one QEMU). */
#define BP_STOP_LINGER_MS RSP_TRANSPORT_SLICE_MS
/* A function's entry guesses its return address (bp_guessed) once this many
 * entries in a row returned to the same place. */
#define BP_GUESS_AFTER 2U

typedef enum bp_phase {
	BP_WAIT_START, /* for `from`, or the function's entry */
	BP_WAIT_END,   /* for `to`, or the return address with the call's SP */
} bp_phase_t;

/* One halt's batch and what it read. */
typedef struct bp_halt {
	br_target_batch_t b;
	br_halt_proof_reads_t proof;
	uint64_t counter; /* proven (all 64 bits of QEMU's icount) */
	int64_t sent_ns;  /* host time the batch was written */
	int64_t got_ns;   /* host time its last reply came */
	uint32_t remove, insert;
} bp_halt_t;

/* One session in progress. */
typedef struct bp_run {
	br_target_t *t;
	const br_span_t *span;
	const br_bp_options_t *o;
	br_bp_result_t *out;
	size_t capacity;
	bp_phase_t phase;
	uint32_t end_address; /* `to`, or the return address of the call in progress */
	uint64_t last;        /* the counter at the last proven read of the sample */
	int64_t last_sent_ns; /* when that read was sent */
	int64_t t0_sent_ns;   /* when the sample's first read was sent */
	br_bp_sample_t current;
	size_t done;   /* samples completed, warm-up included */
	size_t starts; /* samples begun */
	bool counting_checked;
	bool out_of_step; /* the last error came from replies that did not prove */
	uint32_t trap;    /* the reset handler's breakpoint (0: none) */
	bool stray;       /* the last error: a halt at stray_pc, not the one asked for */
	uint32_t stray_pc;
	int64_t deadline_ms; /* when waiting for the current phase's halt gives up */
	int guard_ms;        /* 0: no guard halts */
	uint8_t *scan;       /* the stack region's bytes as an end's write read them */
	uint32_t guess;      /* a function's return address at its last entries */
	unsigned guess_runs; /* how many entries in a row returned there */
	bool guess_off;      /* a guess was wrong: none for the rest of the session */
	int64_t wall0_ns;    /* the session's first resume */
	int idle_wait_ms;    /* the next look at the core in this wait for a start (0: none) */
	br_host_step_t hs;   /* the instructions under the breakpoints run in the host */
} bp_run_t;

static bool bp_is_range(const bp_run_t *r)
{
	return r->span->kind == BR_SPAN_RANGE;
}

static bool bp_is_period(const bp_run_t *r)
{
	return bp_is_range(r) && r->span->to.address == r->span->from.address;
}

static size_t bp_total(const bp_run_t *r)
{
	return (size_t)r->o->warmup + r->o->samples;
}

static void bp_deadline_reset(bp_run_t *r)
{
	r->deadline_ms = br_clock_ms() + r->o->timeout_ms;
	/* A core that cannot be stopped cannot be looked at either. */
	r->idle_wait_ms =
	    br_counter_uninterruptible(&r->o->counter->counter) ? 0 : r->o->idle_check_ms;
}

/* The start not reached again after some runs: fewer samples than asked. */
static br_status_t bp_ran_out(const bp_run_t *r, br_error_t *err)
{
	double wait = (double)r->o->timeout_ms / BP_MS_PER_S;
	double wall = (double)(br_clock_ns() - r->wall0_ns) / BP_NS_PER_S;
	const br_span_t *g = r->span;
	const char *option = bp_is_range(r) ? "--from" : "--function";
	r->out->ran_out = true;
	if (r->done <= r->o->warmup)
		return br_error_set(err, BR_ERR_TIMEOUT,
		                    "ran %zu time%s in %.3g s, all of them warm-up (-w %u): "
		                    "%s %s was not reached again within %g s",
		                    r->done, r->done == 1 ? "" : "s", wall, r->o->warmup, option,
		                    g->from.text, wait);
	if (r->out->idled)
		return br_error_set(err, BR_ERR_TIMEOUT,
		                    "ran %zu of %u times in %.3g s%s: %s %s was not reached again: "
		                    "the core idles in an endless loop at 0x%08x, so the rest of "
		                    "the %g s timeout was not waited for",
		                    r->out->count, r->o->samples, wall,
		                    r->o->warmup > 0 ? " (after the warm-up)" : "", option,
		                    g->from.text, r->out->idle_pc, wait);
	return br_error_set(err, BR_ERR_TIMEOUT,
	                    "ran %zu of %u times in %.3g s%s: %s %s was not reached again "
	                    "within %g s",
	                    r->out->count, r->o->samples, wall,
	                    r->o->warmup > 0 ? " (after the warm-up)" : "", option, g->from.text,
	                    wait);
}

/* The message for a breakpoint that did not hit in time. */
static br_status_t bp_timeout(const bp_run_t *r, br_error_t *err)
{
	double s = (double)r->o->timeout_ms / BP_MS_PER_S;
	const br_span_t *g = r->span;
	if (r->phase == BP_WAIT_START && r->done > 0)
		return bp_ran_out(r, err);
	if (!bp_is_range(r) && r->phase == BP_WAIT_START)
		return br_error_set(err, BR_ERR_TIMEOUT,
		                    "breakpoint at --function %s (%s) never hit within %g s: the "
		                    "function was not called",
		                    g->from.text, g->from.describe, s);
	if (!bp_is_range(r))
		return br_error_set(
		    err, BR_ERR_TIMEOUT,
		    "breakpoint at the return address 0x%08x of --function %s never "
		    "hit within %g s: the call did not return",
		    r->end_address, g->from.text, s);
	if (r->phase == BP_WAIT_START)
		return br_error_set(err, BR_ERR_TIMEOUT,
		                    "breakpoint --from %s (%s) never hit within %g s", g->from.text,
		                    g->from.describe, s);
	return br_error_set(err, BR_ERR_TIMEOUT,
	                    "breakpoint --to %s (%s) never hit within %g s after --from %s",
	                    g->to.text, g->to.describe, s, g->from.text);
}

/* A halt at pc, which is not where the session asked for one: noted for
 * bp_stray (the caller returns this error to the session's loop). */
static br_status_t bp_unexpected(bp_run_t *r, uint32_t pc, br_error_t *err)
{
	r->stray = true;
	r->stray_pc = pc;
	if (r->trap != 0 && pc == r->trap)
		return br_error_set(err, BR_ERR_TARGET,
		                    "the target reset: the core stopped at its reset handler "
		                    "0x%08x during the measurement (%s %s)",
		                    pc, br_span_kind_name(r->span->kind), r->span->from.text);
	return br_error_set(err, BR_ERR_TARGET,
	                    "the core stopped at 0x%08x, which is not a breakpoint of this "
	                    "measurement (%s %s): the firmware faulted, or something else "
	                    "halted it",
	                    pc, br_span_kind_name(r->span->kind), r->span->from.text);
}

/* Prepares h: the PC (when asked), regs, the proof reads; no change, no resume. */
static void halt_init(bp_run_t *r, bp_halt_t *h, bool read_pc)
{
	memset(h, 0, sizeof(*h));
	h->b.read_pc = read_pc;
	h->b.hold = true;
	br_halt_proof_add(r->o->proof, r->o->counter, &h->proof, &h->b);
}

/* Adds a breakpoint swap (either may be 0: none) and the resume to h. */
static void halt_resume(bp_halt_t *h, uint32_t remove, uint32_t insert)
{
	h->remove = remove;
	h->insert = insert;
	if (remove != 0) {
		h->b.remove = &h->remove;
		h->b.nremove = 1;
	}
	if (insert != 0) {
		h->b.insert = &h->insert;
		h->b.ninsert = 1;
	}
	h->b.hold = false;
}

/* Sends h and proves its replies. Replies that do not prove, or an error
 * after the batch went out while the session still works, set out_of_step;
 * a refused stack paint or scan ends the session, like br_stack_paint's. */
static br_status_t halt_exchange(bp_run_t *r, bp_halt_t *h, br_error_t *err)
{
	h->sent_ns = br_clock_ns();
	br_status_t st = br_target_resume_batch(r->t, &h->b, err);
	h->got_ns = br_clock_ns();
	/* A reset while the core was held (before this write's PC read), before
	 * anything else: the batch may even have resumed onto the trap. */
	if (h->b.read_pc && r->trap != 0 && h->b.pc == r->trap && rsp_client_usable(r->t->rsp))
		return bp_unexpected(r, h->b.pc, err);
	/* The step off a start landed on the end (a one-instruction region): the
	 * continue that inserted it stops there at once, which is that end's halt. */
	if (st == BR_ERR_USAGE && h->b.sent && h->b.read_pc && h->b.ninsert == 1 &&
	    h->insert == r->end_address && h->b.pc == r->end_address && r->t->running)
		st = BR_OK;
	if (st == BR_OK && h->b.nreads > 0 &&
	    !br_halt_proof_check(r->o->proof, r->o->counter, &h->proof, &h->counter))
		st = br_error_set(err, BR_ERR_PROTOCOL,
		                  "a halt's replies did not prove (marker 0x%08x or the two "
		                  "counter reads differ): the reply stream is out of step",
		                  r->o->proof->address);
	if (st != BR_OK && (h->b.fill_refused || h->b.bulk_refused)) /* in step: the end */
		return br_stack_region_failed(r->o->stack, h->b.fill_refused, err);
	if (st != BR_OK && h->b.sent && rsp_client_usable(r->t->rsp))
		r->out_of_step = true;
	return st;
}

/* A batch of breakpoint changes and the resume only; with paint_sp, the
 * stack region painted below *paint_sp in the same write (the sample's
 * stack status set as br_stack_paint sets it). */
static br_status_t bp_swap_resume(bp_run_t *r, uint32_t remove, uint32_t insert,
                                  const uint32_t *paint_sp, br_error_t *err)
{
	bp_halt_t h;
	memset(&h, 0, sizeof(h));
	halt_resume(&h, remove, insert);
	if (paint_sp != NULL) {
		uint32_t len;
		br_stack_paint_span(r->o->stack, *paint_sp, &h.b.fill_address, &len,
		                    &r->current.stack_status);
		h.b.fill_len = len;
		h.b.fill_value = BR_STACK_PAINT;
	}
	return halt_exchange(r, &h, err);
}

/* Adds the interval from the sample's last proven read to value (read by h)
 * to the sample in progress, judging it (wrap.h). */
static void bp_accumulate(bp_run_t *r, const bp_halt_t *h)
{
	br_bp_sample_t *s = &r->current;
	uint64_t d = br_counter_state_delta64(r->o->counter, r->last, h->counter);
	/* The core ran only between the write that resumed it (last_sent_ns) and
	 * its halt, which came before this read was sent (and the counter stands
	 * still while it is halted: two equal reads). */
	double host = (double)(h->sent_ns - r->last_sent_ns) / BP_NS_PER_S;
	br_wrap_verdict_t v = br_wrap_interval_check(r->o->counter, d, host);
	if (v == BR_WRAP_POSSIBLE || v == BR_WRAP_TOO_FAST) {
		if (s->why == BR_WRAP_OK)
			s->why = v;
		s->measured = false;
	}
	s->ticks += d;
	r->last = h->counter;
	r->last_sent_ns = h->sent_ns;
}

/* Records the finished current sample (unless it is a warm-up one). */
static void bp_keep(bp_run_t *r)
{
	r->done++;
	if (r->done <= r->o->warmup)
		return;
	if (r->out->count == r->capacity) {
		r->capacity = r->capacity == 0 ? r->o->samples : 2U * r->capacity;
		r->out->samples =
		    xrealloc(r->out->samples, r->capacity * sizeof(r->out->samples[0]));
	}
	r->out->samples[r->out->count++] = r->current;
}

/* Halted where the sample in progress ends (h proven): finish, check, keep. */
static br_status_t bp_finish(bp_run_t *r, const bp_halt_t *h, br_error_t *err)
{
	br_bp_sample_t *s = &r->current;
	bp_accumulate(r, h);
	s->host_seconds = (double)(h->got_ns - r->t0_sent_ns) / BP_NS_PER_S;
	if (h->b.bulk_len > 0)
		br_stack_scan_judge(h->b.bulk_buf, (uint32_t)h->b.bulk_len, &s->stack_bytes,
		                    &s->stack_status);
	if (!r->counting_checked) {
		r->counting_checked = true;
		if (s->ticks == 0 && (!s->resume_measured || s->resume_ticks == 0))
			return br_counter_not_counting(
			    r->o->counter, bp_is_range(r) ? "the region ran" : "the function ran",
			    err);
	}
	bp_keep(r);
	r->phase = BP_WAIT_START;
	bp_deadline_reset(r);
	return BR_OK;
}

/* A sample begins at the halt h proved: the call's SP, where it ends. */
static void bp_sample_begun(bp_run_t *r, const bp_halt_t *h, uint32_t sp, uint32_t end)
{
	memset(&r->current, 0, sizeof(r->current));
	r->current.measured = true;
	r->current.stack_bytes = BR_STACK_NOT_MEASURED;
	r->current.sp = sp;
	r->end_address = end;
	r->last = h->counter;
	r->last_sent_ns = h->sent_ns;
	r->t0_sent_ns = h->sent_ns;
	r->starts++;
	r->phase = BP_WAIT_END;
	bp_deadline_reset(r);
}

/* Sends after (the proven reads past a calibration's step, and the resume
 * when it has one) and keeps what the step cost in the sample in progress. */
static br_status_t bp_calibration_exchange(bp_run_t *r, bp_halt_t *after, br_error_t *err)
{
	br_status_t st = halt_exchange(r, after, err);
	if (st != BR_OK)
		return st;
	r->current.resume_ticks =
	    (uint32_t)br_counter_state_delta64(r->o->counter, r->last, after->counter);
	r->current.resume_measured = true;
	return BR_OK;
}

/*
 * Halted at the start (h proven, held): begin a sample — SP and the return
 * address (function), paint, calibrate (a step) at the first starts — then
 * swap to the end breakpoint and resume. A loop pass keeps its breakpoint:
 * it steps off it.
 */
static br_status_t bp_begin(bp_run_t *r, const bp_halt_t *h, uint32_t sp, uint32_t lr,
                            br_error_t *err)
{
	br_target_t *t = r->t;
	uint32_t start = r->span->from.address;
	uint32_t end = r->span->to.address;
	if (!bp_is_range(r)) {
		if (lr >= BP_EXC_RETURN_MIN)
			return br_error_set(
			    err, BR_ERR_TARGET,
			    "--function %s was entered from an exception (LR 0x%08x): "
			    "it has no return address to stop at; measure a range with "
			    "--from/--to instead",
			    r->span->from.text, lr);
		end = lr & ~BP_THUMB_BIT;
		r->guess_runs = end == r->guess ? r->guess_runs + 1U : 1U;
		r->guess = end;
	}
	bp_sample_begun(r, h, sp, end);
	bool step = bp_is_period(r) || r->starts <= BR_BP_CALIBRATION_SAMPLES;
	br_status_t st = BR_OK;
	if (r->o->stack != NULL && step)
		st = br_stack_paint(t, r->o->stack, sp, &r->current.stack_status, err);
	if (st != BR_OK)
		return st;
	if (!step) /* the paint (if any) in the write that swaps and continues */
		return bp_swap_resume(r, start, r->end_address, r->o->stack != NULL ? &sp : NULL,
		                      err);
	/* Off the breakpoint by one step; the counter again (proven) after it. */
	st = br_target_breakpoint_remove(t, start, err);
	if (st == BR_OK)
		st = br_target_step(t, err);
	if (st != BR_OK)
		return br_error_prefix(err, "stepping off the breakpoint at %s",
		                       r->span->from.describe);
	bp_halt_t after;
	halt_init(r, &after, true); /* its PC: a reset held here is the trap's */
	halt_resume(&after, 0, r->end_address);
	return bp_calibration_exchange(r, &after, err);
}

/* One guard halt while a long sample runs: stop, read (proven), resume. If
 * the core had just reached the end, the halt is handled as that. */
static br_status_t bp_guard(bp_run_t *r, bool *at_end, br_error_t *err)
{
	*at_end = false;
	br_status_t st = br_target_halt(r->t, r->o->timeout_ms, err);
	if (st != BR_OK)
		return st;
	r->out->halts++;
	r->out->guard_halts++;
	bp_halt_t h;
	halt_init(r, &h, true);
	st = halt_exchange(r, &h, err);
	if (st != BR_OK)
		return st;
	if (h.b.pc == r->end_address) {
		*at_end = true;
		return BR_OK;
	}
	bp_accumulate(r, &h);
	r->current.guards++;
	return br_target_resume(r->t, err);
}

static br_status_t bp_restart(bp_run_t *r, br_error_t *err);

/*
 * A function's start whose write already swapped to the guessed return
 * breakpoint and resumed (h proven): when LR says the guess was right, the
 * sample has begun; when not, the core runs towards a breakpoint that is not
 * this call's end: it is stopped, the sample dropped, and the session goes
 * on from the entry with no more guesses.
 */
static br_status_t bp_guessed(bp_run_t *r, const bp_halt_t *h, br_error_t *err)
{
	uint32_t lr = h->b.reg_values[1];
	if (lr < BP_EXC_RETURN_MIN && (lr & ~BP_THUMB_BIT) == r->guess) {
		r->guess_runs++;
		bp_sample_begun(r, h, h->b.reg_values[0], r->guess);
		return BR_OK;
	}
	r->guess_off = true;
	r->out->dropped++;
	r->phase = BP_WAIT_START;
	br_status_t st = bp_restart(r, err);
	if (st != BR_OK)
		return br_error_prefix(err,
		                       "after a call of %s that returned elsewhere than its "
		                       "last ones",
		                       r->span->from.text);
	return BR_OK;
}

/* Whether a core put at pc (by the host or a step) sits on one of the
 * session's breakpoints: it is then halted there, and the session's loop
 * takes it as that halt without a resume (a continue would stop at once). */
static bool bp_host_on_breakpoint(const bp_run_t *r, uint32_t pc)
{
	bool waits_start = r->phase == BP_WAIT_START;
	return (r->trap != 0 && pc == r->trap) ||
	       (pc == r->span->from.address && (r->hs.on || waits_start)) ||
	       (pc == r->span->to.address && (r->hs.on || !waits_start));
}

/* After a real step off a site: resume, unless the step put the core on a
 * breakpoint of the session (then that is the next halt). */
static br_status_t bp_host_resume(bp_run_t *r, br_error_t *err)
{
	uint32_t pc = 0;
	br_status_t st = br_target_pc(r->t, &pc, err);
	if (st != BR_OK || bp_host_on_breakpoint(r, pc))
		return st;
	return br_target_resume(r->t, err);
}

/*
 * Off the breakpoint at site with its instruction executed by the host (h
 * read the registers it needs, from index first), in one write with the
 * continue; a real step where the host cannot (or has not yet checked it
 * can: host_step.h). inside: the instruction runs inside the sample in
 * progress, which the counter then did not see: one instruction more.
 */
static br_status_t bp_host_pass(bp_run_t *r, br_host_step_site_t *site, const bp_halt_t *h,
                                size_t first, bool inside, br_error_t *err)
{
	br_thumb_effect_t e;
	bp_halt_t w;
	memset(&w, 0, sizeof(w));
	if (site->checked && br_host_step_prepare(&r->hs, site, &h->b, first, &e, &w.b)) {
		w.b.hold = bp_host_on_breakpoint(r, e.r[BR_THUMB_PC]);
		br_status_t st = halt_exchange(r, &w, err);
		if (st != BR_OK)
			return st;
		r->hs.executed++;
		if (inside)
			r->current.ticks++;
		return BR_OK;
	}
	br_status_t st = br_host_step_real(&r->hs, r->t, site, err);
	if (st != BR_OK)
		return st;
	return bp_host_resume(r, err);
}

/* A start among the first BR_BP_CALIBRATION_SAMPLES (the sample begun): a
 * real step off it (checking the host's execution at the first), the
 * counter again (proven) after it, and the resume. */
static br_status_t bp_host_calibrate(bp_run_t *r, br_host_step_site_t *site, br_error_t *err)
{
	br_status_t st = br_host_step_real(&r->hs, r->t, site, err);
	uint32_t pc = 0;
	if (st == BR_OK)
		st = br_target_pc(r->t, &pc, err);
	if (st != BR_OK)
		return st;
	bp_halt_t after;
	halt_init(r, &after, true);
	if (!bp_host_on_breakpoint(r, pc))
		halt_resume(&after, 0, 0);
	return bp_calibration_exchange(r, &after, err);
}

/*
 * One halt of a range whose breakpoints both stay inserted (host_step.h):
 * at `from` the sample begins, at `to` it ends, and at either (also when
 * it is the other one: `to` before the start, `from` again inside the
 * sample) the core goes on past it with no breakpoint change.
 */
static br_status_t bp_on_halt_host(bp_run_t *r, br_error_t *err)
{
	uint32_t from = r->span->from.address;
	uint32_t to = r->span->to.address;
	bool ending = r->phase == BP_WAIT_END;
	bp_halt_t h;
	halt_init(r, &h, true);
	size_t first = br_host_step_add_reads(&r->hs, &h.b);
	br_status_t st = halt_exchange(r, &h, err);
	if (st != BR_OK)
		return st;
	br_host_step_site_t *site = br_host_step_site(&r->hs, h.b.pc);
	if (site == NULL)
		return bp_unexpected(r, h.b.pc, err);
	bool inside = ending; /* a `from` inside the sample: passed over, counted */
	if (!ending && h.b.pc == from) {
		bp_sample_begun(r, &h, 0, to);
		if (r->starts <= BR_BP_CALIBRATION_SAMPLES)
			return bp_host_calibrate(r, site, err);
		inside = true;
	} else if (ending && h.b.pc == to) {
		st = bp_finish(r, &h, err);
		if (st != BR_OK || r->done >= bp_total(r))
			return st;
		inside = false;
		uint64_t ticks = r->current.ticks; /* the sample just kept */
		if (r->starts >= BR_BP_CALIBRATION_SAMPLES && ticks < BR_HOST_STEP_MIN_REGION) {
			/* Short: swap from now on, `from` alone inserted until it hits. */
			r->hs.on = false;
			snprintf(r->hs.why_off, sizeof(r->hs.why_off),
			         "the region is %llu instructions, under %u: a breakpoint swap "
			         "costs it less than host execution's round trip",
			         (unsigned long long)ticks, BR_HOST_STEP_MIN_REGION);
			return bp_swap_resume(r, to, 0, NULL, err);
		}
	}
	return bp_host_pass(r, site, &h, first, inside, err);
}

/* Handles one halt at a breakpoint of the session. */
static br_status_t bp_on_halt(bp_run_t *r, br_error_t *err)
{
	if (r->hs.on)
		return bp_on_halt_host(r, err);
	uint32_t start = r->span->from.address;
	bool ending = r->phase == BP_WAIT_END;
	bool last = ending && r->done + 1U >= bp_total(r);
	bool function = !bp_is_range(r);
	bp_halt_t h;
	halt_init(r, &h, true);
	/* The registers this halt needs: SP for a function's end (its depth) and
	 * start, LR at a function's start, SP at a start when painting. */
	if (function || r->o->stack != NULL)
		h.b.regs[h.b.nregs++] = BR_TARGET_REG_SP;
	if (function && !ending) {
		/* Twice, like the counter: a wrong return address would never hit. */
		h.b.regs[h.b.nregs++] = BR_TARGET_REG_LR;
		h.b.regs[h.b.nregs++] = BR_TARGET_REG_LR;
	}
	/* An end scans the stack region in its own write (bp_finish judges it). */
	if (ending && r->o->stack != NULL && r->current.stack_status == BR_STACK_MEASURED) {
		uint32_t low, len;
		br_stack_status_t ignored;
		br_stack_paint_span(r->o->stack, r->current.sp, &low, &len, &ignored);
		h.b.bulk_address = low;
		h.b.bulk_len = len;
		h.b.bulk_buf = r->scan;
	}
	/* The common cases in one write: a range's start (no calibration step,
	 * no paint) and any end but a loop pass's and the last. */
	bool fast_start = !ending && !function && r->o->stack == NULL && !bp_is_period(r) &&
	                  r->starts >= BR_BP_CALIBRATION_SAMPLES;
	bool fast_end = ending && !last && !bp_is_period(r);
	/* A function's start whose return address is as at its last entries:
	 * the return breakpoint goes in with the reads that prove it (bp_guessed). */
	bool guessed = !ending && function && r->o->stack == NULL &&
	               r->starts >= BR_BP_CALIBRATION_SAMPLES && !r->guess_off &&
	               r->guess_runs >= BP_GUESS_AFTER;
	if (fast_start)
		halt_resume(&h, start, r->end_address);
	else if (guessed)
		halt_resume(&h, start, r->guess);
	else if (fast_end)
		halt_resume(&h, r->end_address, start);
	br_status_t st = halt_exchange(r, &h, err);
	if (st != BR_OK)
		return st;
	uint32_t expected = ending ? r->end_address : start;
	if (h.b.pc != expected)
		return bp_unexpected(r, h.b.pc, err);
	if (fast_start) {
		/* bp_begin's work, already done by the batch. */
		bp_sample_begun(r, &h, 0, r->span->to.address);
		return BR_OK;
	}
	if (!ending && function && h.b.reg_values[1] != h.b.reg_values[2]) {
		r->out_of_step = true;
		return br_error_set(err, BR_ERR_PROTOCOL,
		                    "the two reads of LR at the entry of %s differ: a reply was "
		                    "changed on the way",
		                    r->span->from.text);
	}
	if (guessed)
		return bp_guessed(r, &h, err);
	if (!ending)
		return bp_begin(r, &h, h.b.reg_values[0], function ? h.b.reg_values[1] : 0, err);
	if (function && h.b.reg_values[0] != r->current.sp) {
		/* A deeper call returning to the same place. */
		if (!fast_end)
			return br_target_resume(r->t, err);
		/* Already swapped back to the entry: this call's sample is lost. */
		r->out->dropped++;
		r->phase = BP_WAIT_START;
		return BR_OK;
	}
	st = bp_finish(r, &h, err);
	if (st != BR_OK || fast_end || r->done >= bp_total(r))
		return st;
	if (bp_is_period(r)) {
		/* One pass of a loop: this halt also starts the next sample. */
		uint32_t sp = r->current.sp;
		return bp_begin(r, &h, sp, 0, err);
	}
	return bp_swap_resume(r, r->end_address, start, NULL, err);
}

/* bp_restart after the error in err, which a failed restart names. */
static br_status_t bp_restart_after(bp_run_t *r, br_error_t *err)
{
	r->phase = BP_WAIT_START;
	br_error_t why = {.status = BR_OK};
	if (err != NULL)
		why = *err;
	br_status_t st = bp_restart(r, err);
	if (st != BR_OK)
		return br_error_prefix(err, "after '%s'", why.message);
	return BR_OK;
}

/*
 * A halt where the session asked for none (bp_unexpected): the reset
 * handler's trap, or any other PC. The sample in progress ends "not
 * measured" with that PC (kept, so it is counted and said), and the session
 * goes on from the start breakpoint; more than BR_BP_STRAYS_MAX ends it.
 */
static br_status_t bp_stray(bp_run_t *r, br_error_t *err)
{
	r->stray = false;
	r->out_of_step = false;
	r->out->strays++;
	if (r->out->strays > BR_BP_STRAYS_MAX)
		return br_error_prefix(
		    err, "%zu stops where the session set no breakpoint; the last", r->out->strays);
	if (r->phase == BP_WAIT_END) {
		br_bp_sample_t *s = &r->current;
		s->measured = false;
		s->why = BR_WRAP_STRAY;
		s->stray_pc = r->stray_pc;
		s->stray_reset = r->trap != 0 && r->stray_pc == r->trap;
		s->resume_measured = false; /* its step's read may be the reset's */
		bp_keep(r);
	}
	return bp_restart_after(r, err);
}

/* A halt failed after its write went out (replies out of step, or a request
 * refused): put the stream back in step, drop the sample in progress, and go
 * on from the start breakpoint. */
static br_status_t bp_recover(bp_run_t *r, br_error_t *err)
{
	r->out_of_step = false;
	r->out->recoveries++;
	if (r->out->recoveries > BR_BP_RECOVERIES_MAX)
		return br_error_prefix(err,
		                       "%zu halts failed (replies out of step, or refused) and "
		                       "were put back in step; the last",
		                       r->out->recoveries);
	if (r->phase == BP_WAIT_END)
		r->out->dropped++;
	return bp_restart_after(r, err);
}

/* Inserts the breakpoints a session starts with: the start, the end too
 * where the host executes the instructions under them (both stay inserted,
 * host_step.h), and the reset trap. */
static br_status_t bp_insert_initial(bp_run_t *r, br_error_t *err)
{
	br_status_t st = br_target_breakpoint_insert(r->t, r->span->from.address, r->o->kind, err);
	if (st == BR_OK && r->hs.on)
		st = br_target_breakpoint_insert(r->t, r->span->to.address, r->o->kind, err);
	if (st == BR_OK && r->trap != 0)
		st = br_target_breakpoint_insert(r->t, r->trap, r->o->kind, err);
	return st;
}

/* Stops the core (if it runs) with the reply stream put back in step, and
 * runs it again to the start breakpoint with the breakpoints it started
 * with (a session that keeps both inserted needs its end again too). */
static br_status_t bp_restart(bp_run_t *r, br_error_t *err)
{
	const br_halt_proof_t *p = r->o->proof;
	br_status_t st =
	    br_target_recover(r->t, p->address, p->bytes, sizeof(p->bytes), r->o->timeout_ms, err);
	if (st == BR_OK)
		st = br_target_breakpoint_remove_all(r->t, err);
	if (st == BR_OK)
		st = bp_insert_initial(r, err);
	if (st == BR_OK)
		st = br_target_resume(r->t, err);
	if (st == BR_OK)
		bp_deadline_reset(r);
	return st;
}

/*
 * Waits for the next stop of the running core, within the phase's deadline;
 * while a sample runs, a guard halt every guard_ms (the core then runs on, or
 * is halted at the end when it had just got there). Silence until the
 * deadline is bp_timeout with the session intact (the core still runs).
 */
/* Thumb encodings of a branch to itself: B.N . (T2) and B.W . (T4). */
#define BP_B_N_SELF 0xE7FEU
#define BP_B_W_SELF_HI 0xF7FFU
#define BP_B_W_SELF_LO 0xBFFEU
#define BP_IPSR_MASK 0x1FFU

/* Whether the core, halted, sits in an endless loop it cannot leave but by
 * an exception: in Thread mode at a branch to itself. */
static bool bp_parked(bp_run_t *r, uint32_t *pc)
{
	uint32_t xpsr = 0;
	uint8_t insn[4];
	br_error_t ignored;
	if (br_target_pc(r->t, pc, &ignored) != BR_OK ||
	    br_target_reg_read(r->t, BR_TARGET_REG_XPSR, &xpsr, &ignored) != BR_OK ||
	    (xpsr & BP_IPSR_MASK) != 0U || *pc == r->span->from.address ||
	    br_target_mem_read(r->t, *pc, insn, sizeof(insn), &ignored) != BR_OK)
		return false;
	uint32_t hi = (uint32_t)insn[0] | (uint32_t)insn[1] << 8;
	uint32_t lo = (uint32_t)insn[2] | (uint32_t)insn[3] << 8;
	return hi == BP_B_N_SELF || (hi == BP_B_W_SELF_HI && lo == BP_B_W_SELF_LO);
}

/* A start not reached again within idle_wait_ms after a sample: the core is
 * stopped and looked at. Parked: the session ends (bp_ran_out, idled).
 * Otherwise it runs on, and is looked at again after twice as long, until
 * the deadline. */
static br_status_t bp_idle_check(bp_run_t *r, br_error_t *err)
{
	r->idle_wait_ms *= 2;
	br_status_t st = br_target_halt(r->t, r->o->timeout_ms, err);
	if (st != BR_OK)
		return st;
	uint32_t pc = 0;
	if (bp_parked(r, &pc)) {
		r->out->idled = true;
		r->out->idle_pc = pc;
		return bp_ran_out(r, err);
	}
	if (br_target_pc(r->t, &pc, err) == BR_OK && pc == r->span->from.address) {
		r->out->halts++; /* stopped at the start itself: it is this halt */
		return BR_OK;
	}
	return br_target_resume(r->t, err);
}

static br_status_t bp_wait(bp_run_t *r, br_error_t *err)
{
	int remaining = br_clock_remaining_ms(r->deadline_ms);
	if (remaining <= 0)
		return bp_timeout(r, err);
	bool idle = r->phase == BP_WAIT_START && r->done > 0 && r->idle_wait_ms > 0 &&
	            remaining > r->idle_wait_ms;
	if (idle) {
		br_status_t st = br_target_poll_stop(r->t, r->idle_wait_ms, NULL, err);
		if (st == BR_ERR_TIMEOUT && rsp_client_usable(r->t->rsp))
			return bp_idle_check(r, err);
		if (st != BR_OK && rsp_client_usable(r->t->rsp))
			r->out_of_step = true;
		if (st == BR_OK)
			r->out->halts++;
		return st;
	}
	bool guard = r->phase == BP_WAIT_END && r->guard_ms > 0 && remaining > r->guard_ms;
	br_status_t st = br_target_poll_stop(r->t, guard ? r->guard_ms : remaining, NULL, err);
	bool usable = rsp_client_usable(r->t->rsp);
	if (st == BR_ERR_TIMEOUT && usable && guard) {
		bool at_end = false;
		return bp_guard(r, &at_end, err);
	}
	if (st == BR_ERR_TIMEOUT && usable)
		return bp_timeout(r, err);
	if (st != BR_OK && usable)
		r->out_of_step = true; /* something else came where a stop was due */
	if (st == BR_OK)
		r->out->halts++;
	return st;
}

/* How long a halt's read waits for the next stop too (rsp_client_set_stop_
 * linger): BP_STOP_LINGER_MS, and never more than an eighth of the guard
 * interval, so a guard halt is put off by that at most; none when the
 * interval is shorter than 8 ms. */
static int bp_stop_linger_ms(int guard_ms)
{
	if (guard_ms == 0)
		return BP_STOP_LINGER_MS;
	return guard_ms / 8 < BP_STOP_LINGER_MS ? guard_ms / 8 : BP_STOP_LINGER_MS;
}

/* Removes whatever breakpoints the session left, when the session still
 * works. A core that answers no interrupt is left running, not waited for
 * a second time (out->left_running). */
static void bp_cleanup(bp_run_t *r)
{
	if (!rsp_client_usable(r->t->rsp))
		return;
	r->out->left_running = r->t->running && br_counter_uninterruptible(&r->o->counter->counter);
	if (r->out->left_running)
		return;
	if (r->t->running && br_target_halt(r->t, r->o->timeout_ms, NULL) != BR_OK)
		return;
	br_target_breakpoint_remove(r->t, r->span->from.address, NULL);
	br_target_breakpoint_remove(r->t, r->span->to.address, NULL);
	if (r->end_address != 0)
		br_target_breakpoint_remove(r->t, r->end_address, NULL);
	if (r->trap != 0)
		br_target_breakpoint_remove(r->t, r->trap, NULL);
}

br_status_t br_bp_session_run(br_target_t *t, const br_span_t *span, const br_bp_options_t *o,
                              br_bp_result_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	if (o->samples == 0)
		return br_error_set(err, BR_ERR_USAGE, "at least one sample is needed");
	if (o->proof == NULL)
		return br_error_set(err, BR_ERR_USAGE, "a breakpoint session needs a proof marker");
	bp_run_t r = {.t = t, .span = span, .o = o, .out = out, .phase = BP_WAIT_START};
	if (o->idle_check_ms < 0 || o->idle_check_ms > o->timeout_ms)
		return br_error_set(err, BR_ERR_USAGE,
		                    "the idle check's wait is not within the timeout");
	if (o->stack != NULL)
		r.scan = xmalloc(o->stack->size > 0 ? o->stack->size : 1U);
	double guard_s = br_wrap_guard_seconds(o->counter);
	r.guard_ms = guard_s > 0.0 ? (int)(guard_s * BP_MS_PER_S) : 0;
	if (guard_s > 0.0 && r.guard_ms < 1)
		r.guard_ms = 1;
	rsp_client_set_stop_linger(t->rsp, bp_stop_linger_ms(r.guard_ms));
	/* A range holds one breakpoint at a time, and a function too (its entry,
	 * or the return address of the call in progress): but both must fit. Too
	 * few comparators is an error now, not at the first resume. */
	uint32_t needed[3] = {span->from.address, span->to.address, 0};
	size_t count = span->kind == BR_SPAN_RANGE && needed[1] != needed[0] ? 2U : 1U;
	br_status_t st = br_target_breakpoints_check(t, needed, count, o->kind, err);
	/* The reset trap, when the board has a comparator to spare for it. */
	uint32_t reset_pc = o->proof->reset_pc;
	if (st == BR_OK && reset_pc != 0 && reset_pc != needed[0] && reset_pc != needed[1]) {
		needed[count] = reset_pc;
		if (br_target_breakpoints_check(t, needed, count + 1U, o->kind, NULL) == BR_OK)
			r.trap = reset_pc;
	}
	out->reset_trapped = r.trap != 0;
	/* A range (no stack) keeps both breakpoints inserted where the host can
	 * execute the instructions under them (host_step.h). */
	if (st == BR_OK && span->kind == BR_SPAN_RANGE && count == 2U && o->stack == NULL)
		br_host_step_setup(&r.hs, t, &o->counter->counter, needed, 2U, o->kind);
	else
		snprintf(r.hs.why_off, sizeof(r.hs.why_off),
		         "only --from/--to of two places without --stack keeps its breakpoints");
	if (st == BR_OK)
		st = bp_insert_initial(&r, err);
	r.wall0_ns = br_clock_ns();
	bp_deadline_reset(&r);
	if (st == BR_OK)
		st = br_target_resume(t, err);
	while (st == BR_OK && r.done < bp_total(&r)) {
		/* Halted without a stop: put on a breakpoint by the host (or a step),
		 * which is that breakpoint's halt. */
		if (t->running)
			st = bp_wait(&r, err);
		else
			out->halts++;
		if (st == BR_OK && !t->running)
			st = bp_on_halt(&r, err);
		if (st != BR_OK && r.stray)
			st = bp_stray(&r, err);
		else if (st != BR_OK && r.out_of_step)
			st = bp_recover(&r, err);
	}
	out->wall_seconds = (double)(br_clock_ns() - r.wall0_ns) / BP_NS_PER_S;
	out->runs = r.done;
	out->host_steps = r.hs.executed;
	out->host_checks = r.hs.checks;
	out->host_stepping = r.hs.on;
	out->host_check_failed = r.hs.check_failed;
	snprintf(out->host_why_off, sizeof(out->host_why_off), "%s", r.hs.on ? "" : r.hs.why_off);
	bp_cleanup(&r);
	rsp_client_set_stop_linger(t->rsp, 0);
	free(r.scan);
	return st;
}

void br_bp_sample_why(const br_bp_sample_t *s, char *buf, size_t size)
{
	if (s->why == BR_WRAP_STRAY && s->stray_reset)
		snprintf(buf, size,
		         "the target reset between the two halts (the core stopped at its reset "
		         "handler 0x%08x)",
		         s->stray_pc);
	else if (s->why == BR_WRAP_STRAY)
		snprintf(buf, size,
		         "the target stopped at PC 0x%08x, where the session set no breakpoint, "
		         "between the two halts",
		         s->stray_pc);
	else
		snprintf(buf, size, "%s", br_wrap_verdict_text(s->why));
}

void br_bp_result_free(br_bp_result_t *r)
{
	free(r->samples);
	r->samples = NULL;
	r->count = 0;
}
