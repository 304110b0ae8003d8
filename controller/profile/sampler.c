#include "profile/sampler.h"

#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "debug/target_sample.h"
#include "elf/elf_symbols.h"
#include "profile/frame_names.h"
#include "profile/pacing.h"
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
	uint32_t region_lo, region_hi; /* PCs of the region: [lo, hi) */
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
		low = s->last_sp & ~3U;
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

static bool in_region(const sampler_t *s, const br_unwind_result_t *u)
{
	if (s->o->span == NULL)
		return true;
	for (size_t i = 0; i < u->depth; i++)
		if (u->pcs[i] >= s->region_lo && u->pcs[i] < s->region_hi)
			return true;
	return false;
}

static void count_sample(sampler_t *s, const br_unwind_result_t *u, br_profile_t *out)
{
	uint32_t chain[BR_UNWIND_MAX_FRAMES + 1U];
	size_t n = 0;
	if (!u->complete)
		chain[n++] = br_frame_names_unknown(&s->names);
	for (size_t i = u->depth; i-- > 0;)
		chain[n++] = br_frame_names_of(&s->names, u->pcs[i], NULL);
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

/* One sample of the running target: stop, read, resume, unwind, count. */
static br_status_t take_sample(sampler_t *s, br_target_t *t, br_profile_t *out, br_error_t *err)
{
	br_target_sample_t smp;
	memset(&smp, 0, sizeof(smp));
	smp.resume = BR_TARGET_SAMPLE_CONTINUE;
	plan_windows(s, &smp);
	br_status_t st = br_target_sample_running(t, &smp, s->o->timeout_ms, err);
	if (st != BR_OK)
		return st;
	out->samples_taken++;
	br_unwind_memory_t mem[BR_TARGET_SAMPLE_WINDOWS];
	for (size_t i = 0; i < smp.nwindows; i++) {
		mem[i].address = smp.windows[i].address;
		mem[i].len = (uint32_t)smp.windows[i].len;
		mem[i].bytes = smp.windows[i].ok ? smp.windows[i].buf : NULL;
	}
	uint32_t sp = smp.regs.r[BR_TARGET_REG_SP];
	s->last_sp = sp;
	bool below = s->o->stack_top != 0 && smp.nwindows > 0 && sp < smp.windows[0].address &&
	             sp >= s->o->stack_top - (s->o->stack_window & ~3U);
	if (s->deepest_sp == 0 || sp < s->deepest_sp)
		s->deepest_sp = sp;
	if (below) {
		/* Deeper than ever: the window read did not reach SP. Not an
		 * unwinding failure: lost, and the next windows reach further. */
		out->samples_lost++;
		return BR_OK;
	}
	br_unwind_result_t u;
	br_unwind(&s->unwinder, smp.regs.r, mem, smp.nwindows, &u);
	if (!in_region(s, &u)) {
		out->outside_region++;
		return BR_OK;
	}
	count_sample(s, &u, out);
	return BR_OK;
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
	if (o->span != NULL) {
		s.region_lo = o->span->from.address;
		s.region_hi = o->span->to.address;
		br_elf_function_t fn;
		if (o->span->kind == BR_SPAN_FUNCTION && br_elf_symbol_at(o->elf, s.region_lo, &fn))
			s.region_hi = fn.address + (fn.size > 0 ? fn.size : 1U);
		if (s.region_hi <= s.region_lo)
			return br_error_set(
			    err, BR_ERR_USAGE,
			    "sampling a range needs --to above --from in memory (the "
			    "code between them): 0x%08x .. 0x%08x",
			    s.region_lo, s.region_hi);
	}
	br_status_t st = br_unwinder_open(&s.unwinder, o->elf, o->unwind, err);
	if (st != BR_OK)
		return st;
	br_frame_names_init(&s.names, o->elf, out);
	s.stack = xcalloc(1, (size_t)s.chunk * BR_TARGET_SAMPLE_WINDOWS);
	if (o->stack_top == 0)
		st = br_target_reg_read(t, BR_TARGET_REG_SP, &s.last_sp, err);
	if (st == BR_OK)
		st = br_target_resume(t, err);
	unsigned long writes_before = t->rsp.counters.write_calls;
	int64_t start = br_clock_ns();
	int64_t end = start + (int64_t)(o->duration_s * (double)NS_PER_S);
	br_pacing_t pacing;
	br_pacing_start(&pacing, o->rate_hz, start);
	while (st == BR_OK && br_clock_ns() < end) {
		br_pacing_wait(&pacing);
		int64_t taken = br_clock_ns();
		st = take_sample(&s, t, out, err);
		if (st == BR_OK)
			note_cost(&s, (double)(br_clock_ns() - taken) / (double)NS_PER_S);
	}
	out->seconds = (double)(br_clock_ns() - start) / (double)NS_PER_S;
	out->server_writes = t->rsp.counters.write_calls - writes_before;
	summarize_costs(&s, out);
	free(s.costs);
	if (st == BR_OK)
		st = br_target_halt(t, o->timeout_ms, err);
	free(s.stack);
	br_frame_names_free(&s.names);
	br_unwinder_close(&s.unwinder);
	return st;
}
