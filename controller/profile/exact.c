#include "profile/exact.h"

#include <string.h>

#include "common/clock.h"
#include "debug/target_sample.h"
#include "measure/counter_target.h"
#include "profile/frame_names.h"
#include "profile/region.h"
#include "profile/shadow.h"
#include "profile/unwind.h"

/* Stack bytes read at the region's start to unwind the call stack there. */
#define EXACT_STACK_READ 1024U

/* From a halt inside the region (stepping stopped at --max-steps), runs to
 * its end at breakpoints and reads the counter there: how long the region
 * is. */
static br_status_t rest_at_breakpoints(br_target_t *t, const br_exact_options_t *o,
                                       const br_profile_region_end_t *end, uint64_t *c1,
                                       br_error_t *err)
{
	/* The step that stopped stepping may have reached the end already. */
	br_status_t st = BR_OK;
	for (;;) {
		uint32_t sp = 0, pc = 0;
		if (st == BR_OK)
			st = br_target_reg_read(t, BR_TARGET_REG_SP, &sp, err);
		if (st == BR_OK)
			st = br_target_pc(t, &pc, err);
		if (st != BR_OK || br_profile_region_ended(end, pc, sp))
			break;
		if ((pc & ~1U) == end->pc)
			st = br_target_step(t, err); /* a recursive call's return */
		if (st == BR_OK)
			st = br_profile_run_to(t, end->pc, o->timeout_ms, err);
	}
	if (st == BR_OK)
		st = br_counter_read(t, o->counter, c1, err);
	return st;
}

/* The call stack at the region's start, unwound from the registers and the
 * stack (profile/unwind.h), as the shadow stack's first frames: the
 * outermost first, each with the return address into it; a chain that does
 * not reach a root starts with [unknown]. The innermost frame is the
 * region's function, ending at end (a function's return, SP checked). */
static br_status_t shadow_seed(br_shadow_t *s, br_target_t *t, const br_exact_options_t *o,
                               br_frame_names_t *names, const br_profile_region_end_t *end,
                               br_error_t *err)
{
	br_target_regs_t regs;
	br_status_t st = br_target_regs_read(t, &regs, err);
	if (st != BR_OK)
		return st;
	static uint8_t stack[EXACT_STACK_READ];
	uint32_t sp = regs.r[BR_TARGET_REG_SP] & ~3U;
	br_unwind_memory_t mem = {sp, EXACT_STACK_READ, stack};
	br_error_t ignored;
	while (mem.len >= 4U && br_target_mem_read(t, sp, stack, mem.len, &ignored) != BR_OK)
		mem.len /= 2U; /* the stack's top is nearer than the read asked */
	if (mem.len < 4U)
		mem.bytes = NULL;
	br_unwinder_t u;
	br_unwind_result_t r;
	memset(&r, 0, sizeof(r));
	r.pcs[0] = regs.r[BR_TARGET_REG_PC] & ~1U;
	r.depth = 1;
	if (br_unwinder_open(&u, o->elf, BR_UNWIND_AUTO, &ignored) == BR_OK) {
		br_unwind(&u, regs.r, &mem, 1, &r);
		br_unwinder_close(&u);
	}
	s->depth = 0;
	if (!r.complete) {
		br_shadow_frame_t *f = &s->f[s->depth++];
		f->id = br_frame_names_unknown(names);
		f->ret_known = false;
	}
	for (size_t i = r.depth; i-- > 0 && s->depth < BR_SHADOW_MAX_DEPTH;) {
		br_shadow_frame_t *f = &s->f[s->depth++];
		f->id = br_frame_names_of(names, br_unwind_name_pc(&r, i), NULL);
		f->ret_known = i + 1U < r.depth;
		f->ret = f->ret_known ? r.pcs[i + 1U] : 0;
		f->sp = 0; /* not known: any SP returns */
		f->tail = false;
	}
	br_shadow_frame_t *top = &s->f[s->depth - 1];
	top->ret_known = end->check_sp || top->ret_known;
	if (end->check_sp) {
		top->ret = end->pc;
		top->sp = end->sp;
	}
	return BR_OK;
}

br_status_t br_exact_run(br_target_t *t, const br_exact_options_t *o, br_profile_t *out,
                         br_error_t *err)
{
	const br_span_t *span = o->span;
	out->step_limit = o->max_steps;
	/* A core already at the region's start (a launch halts it at the reset
	 * vector: --from the reset handler) is there; resuming would run past. */
	uint32_t at = 0;
	br_status_t st = br_target_pc(t, &at, err);
	if (st == BR_OK && (at & ~1U) != span->from.address)
		st = br_profile_run_to(t, span->from.address, o->timeout_ms, err);
	if (st != BR_OK)
		return st;
	br_profile_region_end_t end;
	uint64_t c0 = 0, c1 = 0;
	st = br_profile_region_end(t, span, &end, err);
	if (st == BR_OK && o->counter != NULL)
		st = br_counter_read(t, o->counter, &c0, err);
	if (st != BR_OK)
		return st;

	br_frame_names_t names;
	br_frame_names_init(&names, o->elf, out);
	static br_shadow_t s;
	memset(&s, 0, sizeof(s));
	st = shadow_seed(&s, t, o, &names, &end, err);
	uint64_t steps = 0;
	uint32_t prev_pc = 0;
	bool over = false;
	int64_t start = br_clock_ns();
	while (st == BR_OK) {
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
			over = true;
		} else if (!done) {
			if (steps > 0) {
				uint32_t entry = 0;
				uint32_t id = br_frame_names_of(&names, pc, &entry);
				uint32_t lr = smp.regs.r[BR_TARGET_REG_LR] & ~1U;
				bool call = lr - prev_pc == 2U || lr - prev_pc == 4U;
				br_shadow_update(&s, pc, id, entry, call, lr,
				                 smp.regs.r[BR_TARGET_REG_SP]);
			}
			size_t depth = br_shadow_chain(&s);
			br_profile_add_chain(out, s.chain, depth, 1);
			br_profile_add_pc(out, pc, s.f[depth - 1].id, 1);
			steps++;
			prev_pc = pc;
		}
		br_status_t wst = br_target_wait_stop(t, o->timeout_ms, NULL, err);
		if (st == BR_OK)
			st = wst;
		if (st != BR_OK || done || over)
			break;
	}
	if (st == BR_OK && over) {
		uint64_t count = 0;
		if (o->counter != NULL)
			st = rest_at_breakpoints(t, o, &end, &c1, err);
		if (st == BR_OK && o->counter != NULL)
			count = br_counter_state_delta64(o->counter, c0, c1);
		if (st == BR_OK && o->counter == NULL)
			st = br_error_set(err, BR_ERR_USAGE,
			                  "the region did not end within the %llu --max-steps "
			                  "stepped: raise --max-steps, or profile it by sampling",
			                  (unsigned long long)o->max_steps);
		else if (st == BR_OK)
			st = br_error_set(
			    err, BR_ERR_USAGE,
			    "the region runs %llu instructions by the counter, more "
			    "than the %llu --max-steps stepped: raise --max-steps, or "
			    "profile it by sampling",
			    (unsigned long long)count, (unsigned long long)o->max_steps);
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
