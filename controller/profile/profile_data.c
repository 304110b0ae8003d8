#include "profile/profile_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define PROFILE_PCS_INITIAL 256U

void br_profile_data_init(br_profile_t *p, br_profile_mode_t mode)
{
	memset(p, 0, sizeof(*p));
	p->mode = mode;
}

void br_profile_data_free(br_profile_t *p)
{
	for (size_t i = 0; i < p->nframes; i++) {
		free(p->frames[i].name);
		free(p->frames[i].file);
	}
	for (size_t i = 0; i < p->nlines; i++)
		free(p->lines[i].file);
	for (size_t i = 0; i < p->nchains; i++)
		free(p->chains[i].frames);
	free(p->frames);
	free(p->chains);
	free(p->pcs);
	free(p->lines);
	free(p->sequence);
	br_profile_data_init(p, p->mode);
}

uint32_t br_profile_frame_id(br_profile_t *p, const char *name, uint32_t address, const char *file,
                             unsigned line)
{
	for (size_t i = 0; i < p->nframes; i++)
		if (p->frames[i].address == address && strcmp(p->frames[i].name, name) == 0)
			return (uint32_t)i;
	if (p->nframes == p->frames_cap) {
		p->frames_cap = p->frames_cap == 0 ? 16U : 2U * p->frames_cap;
		p->frames = xrealloc(p->frames, p->frames_cap * sizeof(*p->frames));
	}
	br_profile_frame_t *f = &p->frames[p->nframes];
	f->name = xstrdup(name);
	f->address = address;
	f->file = file != NULL ? xstrdup(file) : NULL;
	f->line = line;
	return (uint32_t)p->nframes++;
}

size_t br_profile_add_chain(br_profile_t *p, const uint32_t *frames, size_t depth, uint64_t count)
{
	for (size_t i = p->nchains; i-- > 0;) {
		br_profile_chain_t *c = &p->chains[i];
		if (c->depth == depth && memcmp(c->frames, frames, depth * sizeof(*frames)) == 0) {
			c->count += count;
			return i;
		}
	}
	if (p->nchains == p->chains_cap) {
		p->chains_cap = p->chains_cap == 0 ? 16U : 2U * p->chains_cap;
		p->chains = xrealloc(p->chains, p->chains_cap * sizeof(*p->chains));
	}
	br_profile_chain_t *c = &p->chains[p->nchains++];
	c->frames = xmalloc((depth > 0 ? depth : 1U) * sizeof(*frames));
	memcpy(c->frames, frames, depth * sizeof(*frames));
	c->depth = depth;
	c->count = count;
	return p->nchains - 1U;
}

static size_t pc_slot(const br_profile_pc_t *table, size_t cap, uint32_t pc)
{
	size_t i = (size_t)((pc >> 1) * 2654435761U) & (cap - 1U);
	while (table[i].count != 0 && table[i].pc != pc)
		i = (i + 1U) & (cap - 1U);
	return i;
}

void br_profile_add_pc(br_profile_t *p, uint32_t pc, uint32_t frame, uint64_t count)
{
	if (count == 0)
		return;
	if (2U * (p->npcs + 1U) > p->pcs_cap) {
		size_t cap = p->pcs_cap == 0 ? PROFILE_PCS_INITIAL : 2U * p->pcs_cap;
		br_profile_pc_t *table = xcalloc(cap, sizeof(*table));
		for (size_t i = 0; i < p->pcs_cap; i++)
			if (p->pcs[i].count != 0)
				table[pc_slot(table, cap, p->pcs[i].pc)] = p->pcs[i];
		free(p->pcs);
		p->pcs = table;
		p->pcs_cap = cap;
	}
	br_profile_pc_t *e = &p->pcs[pc_slot(p->pcs, p->pcs_cap, pc)];
	if (e->count == 0) {
		e->pc = pc;
		e->frame = frame;
		p->npcs++;
	}
	e->count += count;
}

void br_profile_frame_counts(const br_profile_t *p, uint64_t *self, uint64_t *total)
{
	memset(self, 0, p->nframes * sizeof(*self));
	memset(total, 0, p->nframes * sizeof(*total));
	for (size_t i = 0; i < p->nchains; i++) {
		const br_profile_chain_t *c = &p->chains[i];
		if (c->depth == 0)
			continue;
		self[c->frames[c->depth - 1]] += c->count;
		for (size_t d = 0; d < c->depth; d++) {
			bool seen = false;
			for (size_t e = 0; e < d && !seen; e++)
				seen = c->frames[e] == c->frames[d];
			if (!seen)
				total[c->frames[d]] += c->count;
		}
	}
}

double br_profile_share_error(uint64_t k, uint64_t n)
{
	if (n == 0)
		return 0.0;
	double share = (double)k / (double)n;
	return sqrt(share * (1.0 - share) / (double)n);
}

void br_profile_add_sequence(br_profile_t *p, size_t chain)
{
	if (p->nsequence == p->sequence_cap) {
		p->sequence_cap = p->sequence_cap == 0 ? 1024U : 2U * p->sequence_cap;
		p->sequence = xrealloc(p->sequence, p->sequence_cap * sizeof(*p->sequence));
	}
	p->sequence[p->nsequence++] = (uint32_t)chain;
}

/* The sample variance of values[0..n) about their mean. */
static double variance(const double *values, size_t n)
{
	double mean = 0.0, sum = 0.0;
	for (size_t i = 0; i < n; i++)
		mean += values[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		sum += (values[i] - mean) * (values[i] - mean);
	return n > 1 ? sum / (double)(n - 1U) : 0.0;
}

void br_profile_frame_errors(const br_profile_t *p, double *self_err, double *total_err)
{
	uint64_t *self = xcalloc(p->nframes + 1U, sizeof(*self));
	uint64_t *total = xcalloc(p->nframes + 1U, sizeof(*total));
	br_profile_frame_counts(p, self, total);
	for (size_t f = 0; f < p->nframes; f++) {
		self_err[f] = br_profile_share_error(self[f], p->counted);
		total_err[f] = br_profile_share_error(total[f], p->counted);
	}
	if (p->nsequence >= BR_PROFILE_MIN_BATCHED) {
		/* shares[f][b] for self (first nframes rows) and total (next nframes). */
		double *shares =
		    xcalloc(2U * p->nframes * BR_PROFILE_BATCHES + 1U, sizeof(*shares));
		for (size_t b = 0; b < BR_PROFILE_BATCHES; b++) {
			size_t lo = p->nsequence * b / BR_PROFILE_BATCHES;
			size_t hi = p->nsequence * (b + 1U) / BR_PROFILE_BATCHES;
			for (size_t i = lo; i < hi; i++) {
				const br_profile_chain_t *c = &p->chains[p->sequence[i]];
				if (c->depth == 0)
					continue;
				shares[c->frames[c->depth - 1] * BR_PROFILE_BATCHES + b] += 1.0;
				for (size_t d = 0; d < c->depth; d++) {
					bool seen = false;
					for (size_t e = 0; e < d && !seen; e++)
						seen = c->frames[e] == c->frames[d];
					if (!seen)
						shares[(p->nframes + c->frames[d]) *
						           BR_PROFILE_BATCHES +
						       b] += 1.0;
				}
			}
			for (size_t f = 0; f < 2U * p->nframes; f++)
				shares[f * BR_PROFILE_BATCHES + b] /= (double)(hi - lo);
		}
		for (size_t f = 0; f < p->nframes; f++) {
			double s =
			    sqrt(variance(&shares[f * BR_PROFILE_BATCHES], BR_PROFILE_BATCHES) /
			         BR_PROFILE_BATCHES);
			double t = sqrt(variance(&shares[(p->nframes + f) * BR_PROFILE_BATCHES],
			                         BR_PROFILE_BATCHES) /
			                BR_PROFILE_BATCHES);
			self_err[f] = s > self_err[f] ? s : self_err[f];
			total_err[f] = t > total_err[f] ? t : total_err[f];
		}
		free(shares);
	}
	free(self);
	free(total);
}

void br_profile_frame_figures_compute(const br_profile_t *p, br_profile_frame_figures_t *f)
{
	f->self = xcalloc(p->nframes + 1U, sizeof(*f->self));
	f->total = xcalloc(p->nframes + 1U, sizeof(*f->total));
	f->self_err = xcalloc(p->nframes + 1U, sizeof(*f->self_err));
	f->total_err = xcalloc(p->nframes + 1U, sizeof(*f->total_err));
	br_profile_frame_counts(p, f->self, f->total);
	br_profile_frame_errors(p, f->self_err, f->total_err);
}

void br_profile_frame_figures_free(br_profile_frame_figures_t *f)
{
	free(f->self);
	free(f->total);
	free(f->self_err);
	free(f->total_err);
	memset(f, 0, sizeof(*f));
}
