#include "profile/sampler.h"

#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "debug/target_sample.h"
#include "elf/elf_symbols.h"
#include "profile/frame_names.h"
#include "profile/pacing.h"
#include "profile/region.h"
#include "stats/summary.h"

#define NS_PER_S 1000000000LL
/* Bytes read below the deepest SP seen so far (sampler.h). */
#define SAMPLER_WINDOW_MARGIN 64U
/* The most bytes one window's m asks for when the flavour sets no cap. */
#define SAMPLER_READ_CHUNK 0x800U

typedef struct sampler {
	const br_sampler_options_t *o;
	br_unwinder_t unwinder;
	br_frame_names_t names;
	bool region;                 /* a time region: sampled only between its start and end */
	br_profile_region_end_t end; /* the pass under way's end, a breakpoint there */
	uint64_t passes;             /* passes of the region started */
	bool ended; /* the pass reached its end: halted there, breakpoint removed */
	uint32_t last_sp;
	uint32_t deepest_sp; /* the lowest SP seen (0: none yet) */
	uint8_t *stack;
	uint32_t chunk;
	double *costs; /* host seconds of each sample taken, in order */
	size_t ncosts, costs_cap;
} sampler_t;

static void note_cost(sampler_t *s, double seconds)
{
	if (s->ncosts == s->costs_cap) {
		s->costs_cap = s->costs_cap != 0 ? 2U * s->costs_cap : 1024U;
		s->costs = xrealloc(s->costs, s->costs_cap * sizeof(s->costs[0]));
	}
	s->costs[s->ncosts++] = seconds;
}

/* The median, p90 and mean of what the samples cost (profile_data.h). */
static void summarize_costs(const sampler_t *s, br_profile_t *out)
{
	br_summary_t sum;
	br_error_t ignored;
	if (s->ncosts == 0 || br_stats_summarize(s->costs, s->ncosts, &sum, &ignored) != BR_OK)
		return;
	out->sample_cost_known = true;
	out->sample_cost_median_s = sum.median;
	out->sample_cost_p90_s = sum.p90;
	out->sample_cost_mean_s = sum.mean;
}

/* The windows of the next sample (see sampler.h). */
static void plan_windows(sampler_t *s, br_target_sample_t *smp)
{
	uint32_t len = s->o->stack_window & ~3U;
	uint32_t low = 0;
	if (s->o->stack_top != 0) {
		/* From the deepest SP seen less a margin, within the window. */
		uint32_t need =
		    s->deepest_sp == 0 || s->deepest_sp > s->o->stack_top
		        ? len
		        : s->o->stack_top - (s->deepest_sp & ~3U) + SAMPLER_WINDOW_MARGIN;
		if (need < len)
			len = need;
		low = s->o->stack_top - len;
		if (s->o->stack_low != 0 && low < s->o->stack_low) {
			low = s->o->stack_low;
			len = s->o->stack_top - low;
		}
	} else {
		/* From the deepest SP seen less a margin (the first: the SP at
		 * the start), stack_window bytes up. */
		uint32_t sp = s->deepest_sp != 0 ? s->deepest_sp : s->last_sp;
		low = (sp & ~3U) >= SAMPLER_WINDOW_MARGIN ? (sp & ~3U) - SAMPLER_WINDOW_MARGIN : 0;
	}
	smp->nwindows = 0;
	for (uint32_t done = 0; done < len && smp->nwindows < BR_TARGET_SAMPLE_WINDOWS;) {
		br_target_sample_window_t *w = &smp->windows[smp->nwindows++];
		w->address = low + done;
		w->len = len - done < s->chunk ? len - done : s->chunk;
		w->buf = s->stack + done;
		done += (uint32_t)w->len;
	}
}

static void count_sample(sampler_t *s, const br_unwind_result_t *u, br_profile_t *out)
{
	uint32_t chain[BR_UNWIND_MAX_FRAMES + 1U];
	size_t n = 0;
	if (!u->complete)
		chain[n++] = br_frame_names_unknown(&s->names);
	for (size_t i = u->depth; i-- > 0;)
		chain[n++] = br_frame_names_of(&s->names, br_unwind_name_pc(u, i), NULL);
	br_profile_add_sequence(out, br_profile_add_chain(out, chain, n, 1));
	if (u->depth > 0)
		br_profile_add_pc(out, u->pcs[0], chain[n - 1], 1);
	out->counted++;
	out->unwind.cfi += u->by_cfi;
	out->unwind.frame_record += u->by_frame_record;
	out->unwind.link_register += u->by_lr;
	out->unwind.exception += u->exceptions;
	if (!u->complete)
		out->unwind.failed_chains++;
}

/* A sample that found the core at the pass's end breakpoint (a stop there,
 * not a draw): lost. At the end (SP back, for a function), the core is left
 * halted there with the breakpoint removed; a recursive call's return is
 * stepped over and the core resumed. */
static br_status_t at_end(sampler_t *s, br_target_t *t, uint32_t sp, br_profile_t *out,
                          br_error_t *err)
{
	out->samples_lost++;
	out->lost_at_region_end++;
	br_status_t st = br_target_halt(t, s->o->timeout_ms, err);
	if (st == BR_OK)
		st = br_target_breakpoint_remove(t, s->end.pc, err);
	if (st != BR_OK || br_profile_region_ended(&s->end, s->end.pc, sp)) {
		s->ended = true;
		return st;
	}
	st = br_target_step(t, err);
	if (st == BR_OK)
		st = br_target_breakpoint_insert(t, s->end.pc, BR_BREAKPOINT_AUTO, err);
	if (st == BR_OK)
		st = br_target_resume(t, err);
	return st;
}

/* One sample of the running target: stop, read, resume, unwind, count. In a
 * time region, on a server that cannot take packets after the interrupt, the
 * core stays halted until the PC says it is not at the end breakpoint. */
static br_status_t take_sample(sampler_t *s, br_target_t *t, br_profile_t *out, br_error_t *err)
{
	br_target_sample_t smp;
	memset(&smp, 0, sizeof(smp));
	bool stay = s->region && !t->flavour->packets_follow_interrupt;
	smp.resume = stay ? BR_TARGET_SAMPLE_STAY : BR_TARGET_SAMPLE_CONTINUE;
	plan_windows(s, &smp);
	br_status_t st = br_target_sample_running(t, &smp, s->o->timeout_ms, err);
	if (st != BR_OK)
		return st;
	out->samples_taken++;
	uint32_t sp = smp.regs.r[BR_TARGET_REG_SP];
	if (s->region && (smp.regs.r[BR_TARGET_REG_PC] & ~1U) == s->end.pc)
		return at_end(s, t, sp, out, err);
	if (stay) {
		st = br_target_resume(t, err);
		if (st != BR_OK)
			return st;
	}
	br_unwind_memory_t mem[BR_TARGET_SAMPLE_WINDOWS];
	for (size_t i = 0; i < smp.nwindows; i++) {
		mem[i].address = smp.windows[i].address;
		mem[i].len = (uint32_t)smp.windows[i].len;
		mem[i].bytes = smp.windows[i].ok ? smp.windows[i].buf : NULL;
	}
	s->last_sp = sp;
	bool below = smp.nwindows > 0 && sp < smp.windows[0].address &&
	             (s->o->stack_top == 0 || sp >= s->o->stack_top - (s->o->stack_window & ~3U));
	if (s->deepest_sp == 0 || sp < s->deepest_sp)
		s->deepest_sp = sp;
	if (below) {
		/* Deeper than ever: the window read did not reach SP. Not an
		 * unwinding failure: lost, and the next windows reach further. */
		out->samples_lost++;
		out->lost_stack_not_read++;
		return BR_OK;
	}
	br_unwind_result_t u;
	br_unwind(&s->unwinder, smp.regs.r, mem, smp.nwindows, &u);
	count_sample(s, &u, out);
	return BR_OK;
}

/* Starts a pass of the region: the halted core run to its start (within
 * wait_ms; poll: a wait that runs out is *none, not an error, the core
 * halted again), its end found and a breakpoint put there, the core
 * resumed. A pass that ended at its own start (a loop's) starts there. */
static br_status_t start_pass(sampler_t *s, br_target_t *t, int wait_ms, bool poll, bool *none,
                              br_error_t *err)
{
	const br_span_t *span = s->o->span;
	uint32_t from = span->from.address;
	uint32_t pc = 0;
	*none = false;
	br_status_t st = br_target_pc(t, &pc, err);
	if (st == BR_OK && (pc & ~1U) != from) {
		if (!poll) {
			st = br_profile_run_to(t, from, wait_ms, err);
		} else {
			st = br_target_breakpoint_insert(t, from, BR_BREAKPOINT_AUTO, err);
			if (st == BR_OK)
				st = br_target_resume(t, err);
			if (st == BR_OK)
				st = br_target_poll_stop(t, wait_ms, NULL, err);
			if (st == BR_ERR_TIMEOUT) {
				*none = true;
				st = br_target_halt(t, s->o->timeout_ms, err);
			}
			if (st == BR_OK)
				st = br_target_breakpoint_remove(t, from, err);
			if (st == BR_OK && !*none)
				st = br_target_pc(t, &pc, err);
			if (st == BR_OK && !*none && (pc & ~1U) != from)
				st = br_error_set(err, BR_ERR_TARGET,
				                  "the core stopped at 0x%08x, not at the region's "
				                  "start 0x%08x",
				                  pc, from);
		}
	}
	if (st != BR_OK || *none)
		return st;
	st = br_profile_region_end(t, span, &s->end, err);
	if (st == BR_OK && s->end.pc == from)
		st = br_target_step(t, err); /* a loop's pass: off the breakpoint's address */
	if (st == BR_OK)
		st = br_target_breakpoint_insert(t, s->end.pc, BR_BREAKPOINT_AUTO, err);
	if (st == BR_OK)
		st = br_target_resume(t, err);
	s->ended = false;
	if (st == BR_OK)
		s->passes++;
	return st;
}

br_status_t br_sampler_run(br_target_t *t, const br_sampler_options_t *o, br_profile_t *out,
                           br_error_t *err)
{
	sampler_t s;
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.chunk = t->flavour->max_read_bytes != 0 ? t->flavour->max_read_bytes : SAMPLER_READ_CHUNK;
	if (s.chunk > SAMPLER_READ_CHUNK)
		s.chunk = SAMPLER_READ_CHUNK;
	if (o->stack_window == 0 || o->stack_window > s.chunk * BR_TARGET_SAMPLE_WINDOWS)
		return br_error_set(err, BR_ERR_USAGE,
		                    "a stack window of %u bytes: give 4 to %u (%u reads of %u)",
		                    o->stack_window, s.chunk * BR_TARGET_SAMPLE_WINDOWS,
		                    BR_TARGET_SAMPLE_WINDOWS, s.chunk);
	s.region = o->span != NULL;
	br_status_t st = br_unwinder_open(&s.unwinder, o->elf, o->unwind, err);
	if (st != BR_OK)
		return st;
	br_frame_names_init(&s.names, o->elf, out);
	s.stack = xcalloc(1, (size_t)s.chunk * BR_TARGET_SAMPLE_WINDOWS);
	if (o->stack_top == 0)
		st = br_target_reg_read(t, BR_TARGET_REG_SP, &s.last_sp, err);
	if (st == BR_OK && !s.region)
		st = br_target_resume(t, err);
	unsigned long writes_before = rsp_client_counters(t->rsp)->write_calls;
	int64_t start = br_clock_ns();
	int64_t end = start + (int64_t)(o->duration_s * (double)NS_PER_S);
	bool none = false;
	if (st == BR_OK && s.region)
		st = start_pass(&s, t, o->timeout_ms, false, &none, err);
	br_pacing_t pacing;
	br_pacing_start(&pacing, o->rate_hz, start);
	while (st == BR_OK && !none && br_clock_ns() < end) {
		br_pacing_wait(&pacing);
		int64_t taken = br_clock_ns();
		st = take_sample(&s, t, out, err);
		if (st == BR_OK)
			note_cost(&s, (double)(br_clock_ns() - taken) / (double)NS_PER_S);
		int64_t left_ms = (end - br_clock_ns()) / 1000000LL;
		if (st == BR_OK && s.ended && left_ms > 0)
			st = start_pass(&s, t, (int)left_ms, true, &none, err);
		else if (s.ended)
			none = true;
	}
	out->seconds = (double)(br_clock_ns() - start) / (double)NS_PER_S;
	out->server_writes = rsp_client_counters(t->rsp)->write_calls - writes_before;
	summarize_costs(&s, out);
	free(s.costs);
	out->region_passes = s.passes;
	if (st == BR_OK)
		st = br_target_halt(t, o->timeout_ms, err);
	if (st == BR_OK && s.region && !s.ended && !none)
		st = br_target_breakpoint_remove(t, s.end.pc, err);
	free(s.stack);
	br_frame_names_free(&s.names);
	br_unwinder_close(&s.unwinder);
	return st;
}
