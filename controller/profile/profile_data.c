#include "profile/profile_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define PROFILE_PCS_INITIAL 256U

void br_profile_init(br_profile_t *p, br_profile_mode_t mode)
{
	memset(p, 0, sizeof(*p));
	p->mode = mode;
}

void br_profile_free(br_profile_t *p)
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
	br_profile_init(p, p->mode);
}

uint32_t br_profile_frame_id(br_profile_t *p, const char *name, uint32_t address,
                             const char *file, unsigned line)
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

void br_profile_add_chain(br_profile_t *p, const uint32_t *frames, size_t depth, uint64_t count)
{
	for (size_t i = p->nchains; i-- > 0;) {
		br_profile_chain_t *c = &p->chains[i];
		if (c->depth == depth && memcmp(c->frames, frames, depth * sizeof(*frames)) == 0) {
			c->count += count;
			return;
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
