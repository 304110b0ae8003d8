#include "profile/exact.h"

#include <string.h>

#include "common/clock.h"
#include "debug/target_sample.h"
#include "measure/counter_target.h"
#include "profile/frame_names.h"
#include "profile/region.h"

#define EXACT_MAX_DEPTH 256U

typedef struct shadow_frame {
	uint32_t id;    /* frame id of the function */
	uint32_t ret;   /* return address (Thumb bit cleared) */
	uint32_t sp;    /* SP at the call */
	bool ret_known; /* false for the root of a range */
} shadow_frame_t;

typedef struct shadow {
	shadow_frame_t f[EXACT_MAX_DEPTH];
	size_t depth;
	uint32_t chain[EXACT_MAX_DEPTH];
} shadow_t;

/* One pass at breakpoints: the region's count on the counter. Leaves the core
 * halted at the region's start again. */
static br_status_t pre_pass(br_target_t *t, const br_exact_options_t *o, uint64_t *count,
                            br_error_t *err)
{
	br_profile_region_end_t re;
	uint64_t c0 = 0, c1 = 0;
	br_status_t st = br_profile_region_end(t, o->span, &re, err);
	uint32_t end = re.pc, sp = re.sp;
	if (st == BR_OK)
		st = br_counter_read(t, o->counter, &c0, err);
	bool loop_pass = end == o->span->from.address;
	if (st == BR_OK && !loop_pass)
		st = br_profile_run_to(t, end, o->timeout_ms, err);
	for (uint32_t now_sp = sp;
	     st == BR_OK && !loop_pass && o->span->kind == BR_SPAN_FUNCTION;) {
		st = br_target_reg_read(t, BR_TARGET_REG_SP, &now_sp, err);
		if (st != BR_OK || now_sp >= sp)
			break;
		st = br_profile_run_to(t, end, o->timeout_ms, err); /* a recursive call's return */
	}
	if (st == BR_OK && loop_pass)
		st = br_profile_run_to(t, end, o->timeout_ms, err);
	if (st == BR_OK)
		st = br_counter_read(t, o->counter, &c1, err);
	*count = br_counter_state_delta64(o->counter, c0, c1);
	if (st == BR_OK && !loop_pass)
		st = br_profile_run_to(t, o->span->from.address, o->timeout_ms, err);
	return st;
}

/* Follows calls, tail calls and returns (see exact.h); the top frame is
 * always the function of pc. */
static void shadow_update(shadow_t *s, br_frame_names_t *names, uint32_t prev_pc,
                          const br_target_regs_t *r)
{
	uint32_t pc = r->r[BR_TARGET_REG_PC] & ~1U;
	uint32_t sp = r->r[BR_TARGET_REG_SP];
	uint32_t lr = r->r[BR_TARGET_REG_LR] & ~1U;
	uint32_t entry = 0;
	uint32_t id = br_frame_names_of(names, pc, &entry);
	for (size_t d = s->depth; d-- > 1;) {
		if (s->f[d].ret_known && s->f[d].ret == pc && sp >= s->f[d].sp) {
			s->depth = d;
			break;
		}
	}
	shadow_frame_t *top = &s->f[s->depth - 1];
	if (pc == entry && (lr - prev_pc == 2U || lr - prev_pc == 4U) &&
	    s->depth < EXACT_MAX_DEPTH) {
		shadow_frame_t *f = &s->f[s->depth++];
		f->id = id;
		f->ret = lr;
		f->sp = sp;
		f->ret_known = true;
	} else if (top->id != id && s->depth == 1 && s->depth < EXACT_MAX_DEPTH) {
		/* The region's function jumped (a tail call): it stays the root, as
		 * the region goes on until its return. */
		shadow_frame_t *f = &s->f[s->depth++];
		*f = *top;
		f->id = id;
	} else if (top->id != id) {
		top->id = id; /* a tail call, or a jump into another function */
	}
}

br_status_t br_exact_run(br_target_t *t, const br_exact_options_t *o, br_profile_t *out,
                         br_error_t *err)
{
	const br_span_t *span = o->span;
	out->step_limit = o->max_steps;
	br_status_t st = br_profile_run_to(t, span->from.address, o->timeout_ms, err);
	if (st != BR_OK)
		return st;
	if (o->counter != NULL) {
		uint64_t count = 0;
		st = pre_pass(t, o, &count, err);
		if (st != BR_OK)
			return br_error_prefix(err, "the pass at breakpoints before stepping");
		if (count > o->max_steps)
			return br_error_set(
			    err, BR_ERR_USAGE,
			    "the region runs %llu instructions by the counter, more than "
			    "the %llu --exact steps at most (one round trip each): raise "
			    "--max-steps, or profile it by sampling",
			    (unsigned long long)count, (unsigned long long)o->max_steps);
	}
	br_profile_region_end_t end;
	uint64_t c0 = 0, c1 = 0;
	st = br_profile_region_end(t, span, &end, err);
	if (st == BR_OK && o->counter != NULL)
		st = br_counter_read(t, o->counter, &c0, err);
	if (st != BR_OK)
		return st;

	br_frame_names_t names;
	br_frame_names_init(&names, o->elf, out);
	static shadow_t s;
	memset(&s, 0, sizeof(s));
	s.depth = 1;
	s.f[0].id = br_frame_names_of(&names, span->from.address, NULL);
	s.f[0].ret_known = span->kind == BR_SPAN_FUNCTION;
	s.f[0].ret = end.pc;
	s.f[0].sp = end.sp;
	uint64_t steps = 0;
	uint32_t prev_pc = 0;
	int64_t start = br_clock_ns();
	for (;;) {
		br_target_sample_t smp;
		memset(&smp, 0, sizeof(smp));
		smp.resume = BR_TARGET_SAMPLE_STEP;
		st = br_target_sample(t, &smp, err);
		if (st != BR_OK)
			break;
		uint32_t pc = smp.regs.r[BR_TARGET_REG_PC] & ~1U;
		bool done =
		    steps > 0 && br_profile_region_ended(&end, pc, smp.regs.r[BR_TARGET_REG_SP]);
		if (!done && steps == o->max_steps) {
			st = br_error_set(
			    err, BR_ERR_TARGET,
			    "stepped %llu instructions (--max-steps) and the region has "
			    "not ended: raise --max-steps",
			    (unsigned long long)steps);
		} else if (!done) {
			if (steps > 0)
				shadow_update(&s, &names, prev_pc, &smp.regs);
			for (size_t d = 0; d < s.depth; d++)
				s.chain[d] = s.f[d].id;
			br_profile_add_chain(out, s.chain, s.depth, 1);
			br_profile_add_pc(out, pc, s.f[s.depth - 1].id, 1);
			steps++;
			prev_pc = pc;
		}
		br_status_t wst = br_target_wait_stop(t, o->timeout_ms, NULL, err);
		if (st == BR_OK)
			st = wst;
		if (st != BR_OK || done)
			break;
	}
	out->seconds = (double)(br_clock_ns() - start) / 1e9;
	out->counted = steps;
	br_frame_names_free(&names);
	if (st == BR_OK && o->counter != NULL) {
		st = br_counter_read(t, o->counter, &c1, err);
		out->counter_delta = br_counter_state_delta64(o->counter, c0, c1);
		out->counter_known = st == BR_OK;
	}
	return st;
}
