#include "profile/lines.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "elf/elf_addr_line.h"

static int by_count(const void *a, const void *b)
{
	const br_profile_line_t *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	int c = strcmp(x->file, y->file);
	return c != 0 ? c : (x->line > y->line) - (x->line < y->line);
}

void br_profile_resolve_lines(br_profile_t *p, const br_elf_t *elf)
{
	for (size_t i = 0; i < p->nlines; i++)
		free(p->lines[i].file);
	free(p->lines);
	p->lines = xcalloc(p->npcs + 1U, sizeof(*p->lines));
	p->nlines = 0;
	for (size_t i = 0; i < p->pcs_cap; i++) {
		const br_profile_pc_t *pc = &p->pcs[i];
		const char *file = NULL;
		unsigned line = 0;
		if (pc->count == 0 || !br_elf_addr_line(elf, pc->pc, &file, &line))
			continue;
		size_t j = 0;
		while (j < p->nlines &&
		       !(p->lines[j].line == line && p->lines[j].frame == pc->frame &&
		         strcmp(p->lines[j].file, file) == 0))
			j++;
		if (j == p->nlines) {
			p->lines[j].file = xstrdup(file);
			p->lines[j].line = line;
			p->lines[j].frame = pc->frame;
			p->nlines++;
		}
		p->lines[j].count += pc->count;
	}
	qsort(p->lines, p->nlines, sizeof(*p->lines), by_count);
}
