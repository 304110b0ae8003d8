#include "elf/elf_symbol_sizes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "elf/elf_private.h"

#define SIZED_MORE ", ..."

/* An allocated section (in flash, RAM or both). */
typedef struct alloc_section {
	bool used; /* allocated, of non-zero size: symbols in it count */
	uint64_t start, end;
	const char *name;
	br_elf_memory_t memory;
} alloc_section_t;

/* One symbol's bytes, clipped to its section. */
typedef struct piece {
	size_t section;
	uint64_t start, end;
	enum br_elf_symbol_rank rank;
	const char *name;
	bool is_function;
} piece_t;

/* The allocated sections of elf, indexed by section number, into *out (*count). */
static br_status_t sections_read(const br_elf_t *elf, alloc_section_t **out, size_t *count,
                                 br_error_t *err)
{
	*out = NULL;
	*count = 0;
	size_t n = 0;
	size_t shstrndx = 0;
	if (elf_getshdrnum(elf->elf, &n) != 0 || elf_getshdrstrndx(elf->elf, &shstrndx) != 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: corrupt ELF (section headers: %s): rebuild the firmware",
		                    elf->path, elf_errmsg(-1));
	alloc_section_t *s = xcalloc(n == 0 ? 1U : n, sizeof(*s));
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf->elf, scn)) != NULL) {
		size_t index = elf_ndxscn(scn);
		GElf_Shdr shdr;
		if (gelf_getshdr(scn, &shdr) == NULL) {
			free(s);
			return br_error_set(err, BR_ERR_INPUT,
			                    "%s: corrupt ELF (section header %zu: %s): rebuild the "
			                    "firmware",
			                    elf->path, index, elf_errmsg(-1));
		}
		if (index >= n || (shdr.sh_flags & SHF_ALLOC) == 0 || shdr.sh_size == 0)
			continue;
		const char *name = elf_strptr(elf->elf, shstrndx, shdr.sh_name);
		s[index].used = true;
		s[index].start = shdr.sh_addr;
		s[index].end = shdr.sh_addr + shdr.sh_size;
		s[index].name = name != NULL ? name : "?";
		s[index].memory = br_elf_section_memory(shdr.sh_flags, shdr.sh_type);
	}
	*out = s;
	*count = n;
	return BR_OK;
}

/* The symbol's bytes within its allocated section; false when it has none. */
static bool piece_of(const br_elf_t *elf, size_t index, const alloc_section_t *sections,
                     size_t section_count, piece_t *p)
{
	if (index > INT32_MAX)
		return false;
	GElf_Sym sym;
	if (gelf_getsym(elf->symtab, (int)index, &sym) == NULL)
		return false;
	int type = GELF_ST_TYPE(sym.st_info);
	if ((type != STT_FUNC && type != STT_OBJECT) || sym.st_size == 0 ||
	    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= section_count ||
	    !sections[sym.st_shndx].used)
		return false;
	const char *raw = elf_strptr(elf->elf, elf->symtab_strndx, sym.st_name);
	if (raw == NULL || raw[0] == '\0')
		return false;
	const alloc_section_t *s = &sections[sym.st_shndx];
	uint64_t start =
	    type == STT_FUNC ? sym.st_value & ~(uint64_t)BR_ELF_THUMB_BIT : sym.st_value;
	uint64_t end = start + sym.st_size < start ? UINT64_MAX : start + sym.st_size;
	if (start < s->start || start >= s->end)
		return false;
	p->section = sym.st_shndx;
	p->start = start;
	p->end = end < s->end ? end : s->end;
	p->rank = br_elf_symbol_rank(&sym);
	p->name = br_elf_display_name(elf, index, raw);
	p->is_function = type == STT_FUNC;
	return true;
}

/* By section, then address, the longest first. */
static int piece_by_place(const void *a, const void *b)
{
	const piece_t *x = a;
	const piece_t *y = b;
	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Global first, then weak, then local; by name within each. */
static int piece_by_rank(const void *a, const void *b)
{
	const piece_t *x = a;
	const piece_t *y = b;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Largest first, then by address. */
static int sized_by_size(const void *a, const void *b)
{
	const br_elf_sized_t *x = a;
	const br_elf_sized_t *y = b;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Appends name to the entry's list unless it is there; cut with ", ...". */
static void names_add(br_elf_sized_t *e, const char *name)
{
	size_t used = strlen(e->names);
	if (used >= strlen(SIZED_MORE) &&
	    strcmp(e->names + used - strlen(SIZED_MORE), SIZED_MORE) == 0)
		return;
	for (const char *p = e->names; (p = strstr(p, name)) != NULL; p++) {
		size_t n = strlen(name);
		bool starts = p == e->names || (p >= e->names + 2 && p[-2] == ',' && p[-1] == ' ');
		bool ends = p[n] == '\0' || (p[n] == ',' && p[n + 1] == ' ');
		if (starts && ends)
			return;
	}
	const char *sep = used > 0 ? ", " : "";
	if (used + strlen(sep) + strlen(name) + strlen(SIZED_MORE) < sizeof(e->names))
		snprintf(e->names + used, sizeof(e->names) - used, "%s%s", sep, name);
	else
		snprintf(e->names + used, sizeof(e->names) - used, "%s", SIZED_MORE);
}

/* The entry of pieces[0..n) (one group, sorted by rank). */
static void entry_fill(const alloc_section_t *sections, piece_t *pieces, size_t n,
                       br_elf_sized_t *e)
{
	memset(e, 0, sizeof(*e));
	uint64_t start = pieces[0].start;
	uint64_t end = pieces[0].end;
	for (size_t i = 1; i < n; i++)
		end = pieces[i].end > end ? pieces[i].end : end;
	qsort(pieces, n, sizeof(*pieces), piece_by_rank);
	snprintf(e->name, sizeof(e->name), "%s", pieces[0].name);
	for (size_t i = 0; i < n; i++) {
		names_add(e, pieces[i].name);
		e->is_function = e->is_function || pieces[i].is_function;
	}
	snprintf(e->section, sizeof(e->section), "%s", sections[pieces[0].section].name);
	e->memory = sections[pieces[0].section].memory;
	e->address = (uint32_t)start;
	e->size = (uint32_t)(end - start);
}

br_status_t br_elf_symbol_sizes(const br_elf_t *elf, br_elf_sized_t **out, size_t *count,
                                br_error_t *err)
{
	*out = NULL;
	*count = 0;
	if (elf->symtab == NULL)
		return BR_OK;
	alloc_section_t *sections = NULL;
	size_t section_count = 0;
	br_status_t st = sections_read(elf, &sections, &section_count, err);
	if (st != BR_OK)
		return st;
	piece_t *pieces = xcalloc(elf->symtab_count == 0 ? 1U : elf->symtab_count, sizeof(*pieces));
	size_t n = 0;
	for (size_t i = 0; i < elf->symtab_count; i++)
		n += piece_of(elf, i, sections, section_count, &pieces[n]);
	qsort(pieces, n, sizeof(*pieces), piece_by_place);
	br_elf_sized_t *entries = NULL;
	size_t entry_count = 0;
	for (size_t first = 0; first < n;) {
		/* a group: every piece starting before the end of those before it */
		uint64_t end = pieces[first].end;
		size_t next = first + 1U;
		while (next < n && pieces[next].section == pieces[first].section &&
		       pieces[next].start < end) {
			end = pieces[next].end > end ? pieces[next].end : end;
			next++;
		}
		entries = xrealloc(entries, (entry_count + 1U) * sizeof(*entries));
		entry_fill(sections, pieces + first, next - first, &entries[entry_count++]);
		first = next;
	}
	free(pieces);
	free(sections);
	if (entry_count > 1)
		qsort(entries, entry_count, sizeof(*entries), sized_by_size);
	*out = entries;
	*count = entry_count;
	return BR_OK;
}
