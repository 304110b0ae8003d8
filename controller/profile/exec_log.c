#include "profile/exec_log.h"

#include <string.h>

#include "elf/elf_symbols.h"
#include "profile/thumb_frame.h"
#include "profile/unwind.h"

/* Core 0's lines only (a machine with two cores logs both). */
#define TRACE_PREFIX "Trace 0: "
#define UNDO_PREFIX "Stopped execution of TB chain"
/* Under -icount, an I/O access re-runs its block: the line before is taken back. */
#define REWOUND_PREFIX "cpu_io_recompile: rewound execution of TB"
/* -d int (M-profile, QEMU 7.2): an exception taken, and one returned from. */
#define EXC_ENTRY_PREFIX "...taking pending"
#define EXC_RETURN_PREFIX "Exception return:"

/* xorshift64*: the sampling intervals (no need for more). */
static uint64_t next_random(br_exec_log_t *x)
{
	x->rng ^= x->rng >> 12;
	x->rng ^= x->rng << 25;
	x->rng ^= x->rng >> 27;
	return x->rng * 2685821657736338717ULL;
}

static void draw_interval(br_exec_log_t *x)
{
	uint64_t n = x->o->sample_every;
	x->next_draw = n / 2U + 1U + next_random(x) % (n > 0 ? n : 1U);
}

void br_exec_log_init(br_exec_log_t *x, const br_exec_log_options_t *o, br_profile_t *out)
{
	memset(x, 0, sizeof(*x));
	x->o = o;
	x->out = out;
	br_frame_names_init(&x->names, o->elf, out);
	x->reset = br_unwind_reset_function(o->elf);
	if (x->reset == 0) {
		br_elf_function_t fn;
		uint32_t e = br_elf_entry(o->elf) & ~1U;
		x->reset = br_elf_symbol_at(o->elf, e, &fn) ? fn.address : e;
	}
	x->rng = o->seed != 0 ? o->seed : 0x9E3779B97F4A7C15ULL;
	if (o->sample_every > 0)
		draw_interval(x);
}

void br_exec_log_free(br_exec_log_t *x)
{
	br_frame_names_free(&x->names);
}

/* Whether the instruction at pc is a call, and where it returns. */
static bool is_call(const br_elf_t *elf, uint32_t pc, uint32_t *ret)
{
	if (br_thumb_is_after_call(elf, pc + 4U)) {
		*ret = pc + 4U;
		return true;
	}
	if (br_thumb_is_after_call(elf, pc + 2U)) {
		*ret = pc + 2U;
		return true;
	}
	return false;
}

static bool pass_starts(const br_exec_log_t *x, uint32_t pc)
{
	return x->o->span == NULL || pc == x->o->span->from.address;
}

static bool pass_ends(const br_exec_log_t *x, uint32_t pc)
{
	const br_span_t *span = x->o->span;
	if (span == NULL || x->pass_count == 0)
		return false;
	if (span->kind == BR_SPAN_RANGE)
		return pc == span->to.address;
	return x->shadow.depth < x->region_depth;
}

static void count(br_exec_log_t *x, uint32_t pc)
{
	size_t depth = br_shadow_chain(&x->shadow);
	uint32_t leaf = x->shadow.f[depth - 1].id;
	x->pass_count++;
	if (x->o->sample_every == 0) {
		br_profile_add_chain(x->out, x->shadow.chain, depth, 1);
		br_profile_add_pc(x->out, pc, leaf, 1);
		x->out->counted++;
		return;
	}
	if (--x->next_draw > 0)
		return;
	draw_interval(x);
	br_profile_add_sequence(x->out, br_profile_add_chain(x->out, x->shadow.chain, depth, 1));
	br_profile_add_pc(x->out, pc, leaf, 1);
	x->out->counted++;
	x->out->samples_taken++;
}

/* One instruction that ran. */
static void instruction(br_exec_log_t *x, uint32_t pc)
{
	x->instructions++;
	uint32_t entry = 0;
	uint32_t id = br_frame_names_of(&x->names, pc, &entry);
	uint32_t ret = 0;
	bool call = x->have_prev && is_call(x->o->elf, x->prev_pc, &ret);
	if (x->exception_entry && x->shadow.depth > 0 && x->shadow.depth < BR_SHADOW_MAX_DEPTH) {
		/* An exception's handler, above the code it interrupted. */
		br_shadow_frame_t *f = &x->shadow.f[x->shadow.depth++];
		memset(f, 0, sizeof(*f));
		f->id = id;
		f->exception = true;
	} else if (x->after_exception) {
		if (x->shadow.f[x->shadow.depth - 1].id != id)
			x->shadow.f[x->shadow.depth - 1].id = id;
	} else if ((pc == x->reset && !call) || x->shadow.depth == 0) {
		memset(&x->shadow.f[0], 0, sizeof(x->shadow.f[0]));
		x->shadow.f[0].id = id;
		x->shadow.depth = 1;
	} else {
		br_shadow_update(&x->shadow, pc, id, entry, call, ret, 0);
	}
	x->exception_entry = false;
	x->after_exception = false;
	x->have_prev = true;
	x->prev_pc = pc;
	if (x->inside && pass_ends(x, pc)) {
		x->inside = false;
		x->out->region_passes++;
		if (x->o->sample_every == 0 || x->finish_pass) {
			x->done = true;
			return;
		}
	}
	if (!x->inside && pass_starts(x, pc)) {
		x->inside = true;
		x->pass_count = 0;
		x->region_depth = x->shadow.depth;
	}
	if (!x->inside)
		return;
	if (x->o->sample_every == 0 && x->pass_count >= x->o->max_steps) {
		x->over = true; /* counted no more: the pass's length only */
		x->pass_count++;
		if (x->pass_count - x->o->max_steps >= BR_EXEC_LOG_LENGTH_MORE) {
			x->length_unknown = true; /* a region that may never end */
			x->done = true;
		}
		return;
	}
	count(x, pc);
}

/* "Trace 0: 0x7f... [00800408/08000040/00000110/ff020201] name": the PC. */
static bool trace_pc(const char *line, size_t len, uint32_t *pc)
{
	const char *open = memchr(line, '[', len);
	if (open == NULL)
		return false;
	const char *p = memchr(open, '/', len - (size_t)(open - line));
	if (p == NULL)
		return false;
	uint32_t v = 0;
	unsigned digits = 0;
	for (p++; p < line + len && *p != '/'; p++, digits++) {
		unsigned d = *p >= '0' && *p <= '9'   ? (unsigned)(*p - '0')
		             : *p >= 'a' && *p <= 'f' ? (unsigned)(*p - 'a' + 10)
		                                      : 16U;
		if (d > 15U || digits >= 8U)
			return false;
		v = v << 4 | d;
	}
	*pc = v & ~1U;
	return digits > 0;
}

static bool starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(line, prefix, n) == 0;
}

/* The pending instruction ran (an exception comes after it). */
static void flush_pending(br_exec_log_t *x)
{
	if (x->have_pending)
		instruction(x, x->pending);
	x->have_pending = false;
}

static void line_done(br_exec_log_t *x, const char *line, size_t len)
{
	uint32_t pc = 0;
	if (starts(line, len, REWOUND_PREFIX)) {
		x->have_pending = false;
		return;
	}
	if (starts(line, len, EXC_ENTRY_PREFIX)) {
		flush_pending(x);
		x->exception_entry = true;
		return;
	}
	if (starts(line, len, EXC_RETURN_PREFIX)) {
		flush_pending(x);
		for (size_t d = x->shadow.depth; d-- > 1;)
			if (x->shadow.f[d].exception) {
				x->shadow.depth = d;
				break;
			}
		x->have_prev = false; /* the next PC follows no call */
		x->after_exception = true;
		return;
	}
	if (starts(line, len, TRACE_PREFIX) && trace_pc(line, len, &pc)) {
		if (x->have_pending)
			instruction(x, x->pending);
		x->pending = pc;
		x->have_pending = true;
	} else if (len >= sizeof(UNDO_PREFIX) - 1U &&
	           memcmp(line, UNDO_PREFIX, sizeof(UNDO_PREFIX) - 1U) == 0) {
		x->have_pending = false; /* entered, not run */
	}
}

bool br_exec_log_feed(br_exec_log_t *x, const char *bytes, size_t len)
{
	for (size_t i = 0; i < len && !x->done; i++) {
		char ch = bytes[i];
		if (ch != '\n') {
			if (x->line_len < sizeof(x->line))
				x->line[x->line_len++] = ch;
			continue;
		}
		line_done(x, x->line, x->line_len);
		x->line_len = 0;
	}
	return x->done;
}
