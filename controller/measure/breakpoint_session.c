#include "measure/breakpoint_session.h"

#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "measure/counter_target.h"
#include "measure/wrap.h"

/* LR values from 0xF0000000 up are EXC_RETURN codes, not return addresses
 * (ARMv7-M Architecture Reference Manual, B1.5.8 "Exception return behavior"). */
#define BP_EXC_RETURN_MIN 0xF0000000U
#define BP_THUMB_BIT 1U
#define BP_NS_PER_S 1e9
#define BP_MS_PER_S 1e3

typedef enum bp_phase {
	BP_WAIT_START, /* for `from`, or the function's entry */
	BP_WAIT_END,   /* for `to`, or the return address with the call's SP */
} bp_phase_t;

/* One session in progress. */
typedef struct bp_run {
	br_target_t *t;
	const br_span_t *span;
	const br_bp_options_t *o;
	br_bp_result_t *out;
	size_t capacity;
	bp_phase_t phase;
	uint32_t end_address; /* `to`, or the return address of the call in progress */
	uint32_t c0;          /* the counter at the start of the sample in progress */
	int64_t t0_ns;        /* host time of that read */
	br_bp_sample_t current;
	size_t done; /* samples completed, warm-up included */
	bool counting_checked;
	int64_t deadline_ms; /* when waiting for the current phase's halt gives up */
} bp_run_t;

static bool bp_is_range(const bp_run_t *r)
{
	return r->span->kind == BR_SPAN_RANGE;
}

static bool bp_is_period(const bp_run_t *r)
{
	return bp_is_range(r) && r->span->to.address == r->span->from.address;
}

static void bp_deadline_reset(bp_run_t *r)
{
	r->deadline_ms = br_clock_ms() + r->o->timeout_ms;
}

/* The message for a breakpoint that did not hit in time. */
static br_status_t bp_timeout(const bp_run_t *r, br_error_t *err)
{
	double s = (double)r->o->timeout_ms / BP_MS_PER_S;
	const br_span_t *g = r->span;
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

/* Halted where the sample in progress ends: read, check, keep. */
static br_status_t bp_end_sample(bp_run_t *r, br_error_t *err)
{
	uint32_t c1 = 0;
	br_status_t st = br_counter_read(r->t, r->o->counter, &c1, err);
	if (st != BR_OK)
		return st;
	int64_t t1 = br_clock_ns();
	br_bp_sample_t *s = &r->current;
	s->ticks = br_counter_state_delta(r->o->counter, r->c0, c1);
	s->host_seconds = (double)(t1 - r->t0_ns) / BP_NS_PER_S;
	s->measured = br_wrap_sample_ok(r->o->counter, s->ticks, s->host_seconds);
	if (r->o->stack != NULL && s->stack_status == BR_STACK_MEASURED) {
		st =
		    br_stack_scan(r->t, r->o->stack, s->sp, &s->stack_bytes, &s->stack_status, err);
		if (st != BR_OK)
			return st;
	}
	if (!r->counting_checked) {
		r->counting_checked = true;
		if (s->ticks == 0 && s->resume_ticks == 0)
			return br_counter_not_counting(
			    r->o->counter, bp_is_range(r) ? "the region ran" : "the function ran",
			    err);
	}
	bp_keep(r);
	r->phase = BP_WAIT_START;
	if (!bp_is_range(r)) {
		st = br_target_breakpoint_remove(r->t, r->end_address, err);
		if (st == BR_OK)
			st = br_target_breakpoint_insert(r->t, r->span->from.address, r->o->kind,
			                                 err);
	}
	bp_deadline_reset(r);
	return st;
}

/*
 * Halted at the start: note SP (and, for a function, the return address),
 * paint, read C0, step off the breakpoint, read Cs, arm the end. *landed is
 * set when the step itself reached the end (a one-instruction region).
 */
static br_status_t bp_start_sample(bp_run_t *r, bool restart, bool *landed, br_error_t *err)
{
	br_target_t *t = r->t;
	uint32_t start = r->span->from.address;
	memset(&r->current, 0, sizeof(r->current));
	r->current.stack_bytes = BR_STACK_NOT_MEASURED;
	br_status_t st = br_target_reg_read(t, BR_TARGET_REG_SP, &r->current.sp, err);
	if (st != BR_OK)
		return st;
	r->end_address = r->span->to.address;
	if (!bp_is_range(r)) {
		uint32_t lr = 0;
		st = br_target_reg_read(t, BR_TARGET_REG_LR, &lr, err);
		if (st != BR_OK)
			return st;
		if (lr >= BP_EXC_RETURN_MIN)
			return br_error_set(
			    err, BR_ERR_TARGET,
			    "--function %s was entered from an exception (LR 0x%08x): "
			    "it has no return address to stop at; measure a range with "
			    "--from/--to instead",
			    r->span->from.text, lr);
		r->end_address = lr & ~BP_THUMB_BIT;
	}
	if (r->o->stack != NULL) {
		st = br_stack_paint(t, r->o->stack, r->current.sp, &r->current.stack_status, err);
		if (st != BR_OK)
			return st;
	}
	st = br_counter_read(t, r->o->counter, &r->c0, err);
	if (st != BR_OK)
		return st;
	r->t0_ns = br_clock_ns();
	st = br_target_breakpoint_remove(t, start, err);
	if (st == BR_OK)
		st = br_target_step(t, err);
	uint32_t cs = 0;
	if (st == BR_OK)
		st = br_counter_read(t, r->o->counter, &cs, err);
	if (st != BR_OK)
		return br_error_prefix(err, "stepping off the breakpoint at %s",
		                       r->span->from.describe);
	r->current.resume_ticks = br_counter_state_delta(r->o->counter, r->c0, cs);
	st = br_target_breakpoint_insert(t, bp_is_range(r) ? start : r->end_address, r->o->kind,
	                                 err);
	if (st != BR_OK)
		return st;
	r->phase = BP_WAIT_END;
	if (!restart)
		bp_deadline_reset(r);
	uint32_t pc = 0;
	st = br_target_pc(t, &pc, err);
	if (st != BR_OK)
		return st;
	*landed = pc == r->end_address;
	return BR_OK;
}

/* True when the core halted at the end of the sample in progress. For a
 * function that is the return address with the SP the call started with:
 * a recursive call returning to the same place has a lower SP. */
static br_status_t bp_at_end(bp_run_t *r, uint32_t pc, bool *at_end, br_error_t *err)
{
	*at_end = pc == r->end_address;
	if (!*at_end || bp_is_range(r))
		return BR_OK;
	uint32_t sp = 0;
	br_status_t st = br_target_reg_read(r->t, BR_TARGET_REG_SP, &sp, err);
	if (st != BR_OK)
		return st;
	*at_end = sp == r->current.sp;
	return BR_OK;
}

static br_status_t bp_unexpected(const bp_run_t *r, uint32_t pc, int signal, br_error_t *err)
{
	return br_error_set(err, BR_ERR_TARGET,
	                    "the core stopped at 0x%08x (signal %d), which is not a breakpoint of "
	                    "this measurement (%s %s): the firmware faulted, or something else "
	                    "halted it",
	                    pc, signal, br_span_kind_name(r->span->kind), r->span->from.text);
}

/* What to do about one halt at pc. Sets *again (with *pc updated) when the
 * step of a new sample already reached its end: handle that without resuming. */
static br_status_t bp_on_halt(bp_run_t *r, uint32_t *pc, int signal, bool *again, br_error_t *err)
{
	*again = false;
	uint32_t start = r->span->from.address;
	bool at_end = false;
	br_status_t st = BR_OK;
	if (r->phase == BP_WAIT_END) {
		st = bp_at_end(r, *pc, &at_end, err);
		if (st != BR_OK)
			return st;
		if (at_end) {
			st = bp_end_sample(r, err);
			if (st != BR_OK || !bp_is_period(r))
				return st;
			/* One pass of a loop: this halt also starts the next sample. */
		} else if (bp_is_range(r) && *pc == start) {
			/* `from` again before `to`: the latest start counts. */
			st = bp_start_sample(r, true, again, err);
			*pc = r->end_address;
			return st;
		} else if (!bp_is_range(r) && *pc == r->end_address) {
			return BR_OK; /* a deeper call returning to the same place */
		} else {
			return bp_unexpected(r, *pc, signal, err);
		}
	}
	if (r->done >= (size_t)r->o->warmup + r->o->samples)
		return BR_OK;
	if (*pc == start) {
		st = bp_start_sample(r, false, again, err);
		*pc = r->end_address;
		return st;
	}
	if (bp_is_range(r) && *pc == r->span->to.address)
		return BR_OK; /* `to` before any `from`: pass over it */
	return bp_unexpected(r, *pc, signal, err);
}

/* Removes whatever breakpoints the session left, when the session still works. */
static void bp_cleanup(bp_run_t *r)
{
	if (!rsp_client_usable(&r->t->rsp))
		return;
	br_target_breakpoint_remove(r->t, r->span->from.address, NULL);
	br_target_breakpoint_remove(r->t, r->span->to.address, NULL);
	if (r->end_address != 0)
		br_target_breakpoint_remove(r->t, r->end_address, NULL);
}

br_status_t br_bp_session_run(br_target_t *t, const br_span_t *span, const br_bp_options_t *o,
                              br_bp_result_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	if (o->samples == 0)
		return br_error_set(err, BR_ERR_USAGE, "at least one sample is needed");
	bp_run_t r = {.t = t, .span = span, .o = o, .out = out, .phase = BP_WAIT_START};
	size_t total = (size_t)o->warmup + o->samples;
	/* A range holds both its breakpoints; a function one at a time (its entry,
	 * or the return address of the call in progress). Too few comparators is
	 * an error now, not at the first resume. */
	uint32_t needed[2] = {span->from.address, span->to.address};
	size_t count = span->kind == BR_SPAN_RANGE && needed[1] != needed[0] ? 2U : 1U;
	br_status_t st = br_target_breakpoints_check(t, needed, count, o->kind, err);
	if (st == BR_OK)
		st = br_target_breakpoint_insert(t, span->from.address, o->kind, err);
	if (st == BR_OK && span->kind == BR_SPAN_RANGE)
		st = br_target_breakpoint_insert(t, span->to.address, o->kind, err);
	int64_t wall0 = br_clock_ns();
	bp_deadline_reset(&r);
	while (st == BR_OK && r.done < total) {
		/* Checked before resuming, not only by the wait: a `from` that keeps
		 * hitting (restarts keep the deadline) would otherwise go on for
		 * ever — and the core is still halted here, so the breakpoints can
		 * be taken out. */
		if (br_clock_remaining_ms(r.deadline_ms) <= 0) {
			st = bp_timeout(&r, err);
			break;
		}
		st = br_target_resume(t, err);
		if (st != BR_OK)
			break;
		/* At least 1 ms: a wait of 0 means the client's default below. */
		int remaining = br_clock_remaining_ms(r.deadline_ms);
		rsp_stop_reply_t stop;
		st = br_target_wait_stop(t, remaining > 0 ? remaining : 1, &stop, err);
		if (st == BR_ERR_TIMEOUT) {
			st = bp_timeout(&r, err);
			break;
		}
		out->halts++;
		uint32_t pc = 0;
		if (st == BR_OK)
			st = br_target_pc(t, &pc, err);
		bool again = true;
		while (st == BR_OK && again)
			st = bp_on_halt(&r, &pc, (int)stop.code, &again, err);
	}
	out->wall_seconds = (double)(br_clock_ns() - wall0) / BP_NS_PER_S;
	bp_cleanup(&r);
	return st;
}

void br_bp_result_free(br_bp_result_t *r)
{
	free(r->samples);
	r->samples = NULL;
	r->count = 0;
}
