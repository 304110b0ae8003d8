#include "elf/elf_units.h"

#include <stdbool.h>
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "elf/elf_private.h"

/* [start, end) of one unit. */
typedef struct unit_span {
	uint64_t start, end;
	size_t unit;
} unit_span_t;

struct br_elf_units {
	char **names;
	size_t name_count;
	unit_span_t *spans;
	size_t span_count;
};

static void span_add(br_elf_units_t *u, uint64_t start, uint64_t end, size_t unit)
{
	if (end <= start)
		return;
	u->spans = xrealloc(u->spans, (u->span_count + 1U) * sizeof(*u->spans));
	u->spans[u->span_count++] = (unit_span_t){.start = start, .end = end, .unit = unit};
}

/* The address of a variable whose location is one DW_OP_addr; false if not. */
static bool variable_address(Dwarf_Die *die, uint64_t *address, uint64_t *size)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops = NULL;
	size_t n = 0;
	if (dwarf_attr(die, DW_AT_location, &attr) == NULL ||
	    dwarf_getlocation(&attr, &ops, &n) != 0 || n != 1 || ops[0].atom != DW_OP_addr)
		return false;
	*address = ops[0].number;
	Dwarf_Die type;
	Dwarf_Attribute type_attr;
	Dwarf_Word bytes = 0;
	if (dwarf_attr_integrate(die, DW_AT_type, &type_attr) != NULL &&
	    dwarf_formref_die(&type_attr, &type) != NULL &&
	    dwarf_aggregate_size(&type, &bytes) == 0)
		*size = bytes > 0 ? bytes : 1U;
	else
		*size = 1U;
	return true;
}

/* The code ranges and variables of one unit. */
static void unit_read(br_elf_units_t *u, Dwarf_Die *cu, size_t unit)
{
	Dwarf_Addr base = 0, start = 0, end = 0;
	ptrdiff_t offset = 0;
	while ((offset = dwarf_ranges(cu, offset, &base, &start, &end)) > 0)
		span_add(u, start, end, unit);
	Dwarf_Die child;
	if (dwarf_child(cu, &child) != 0)
		return;
	do {
		uint64_t address = 0, size = 0;
		if (dwarf_tag(&child) == DW_TAG_variable &&
		    variable_address(&child, &address, &size))
			span_add(u, address, address + size, unit);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int span_order(const void *a, const void *b)
{
	const unit_span_t *x = a;
	const unit_span_t *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

br_elf_units_t *br_elf_units_read(const br_elf_t *elf)
{
	br_elf_units_t *u = xcalloc(1, sizeof(*u));
	if (elf->dwarf == NULL)
		return u;
	Dwarf_Off offset = 0, next = 0;
	size_t header = 0;
	while (dwarf_nextcu(elf->dwarf, offset, &next, &header, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(elf->dwarf, offset + header, &cu) != NULL) {
			const char *name = dwarf_diename(&cu);
			u->names = xrealloc(u->names, (u->name_count + 1U) * sizeof(*u->names));
			u->names[u->name_count] = xstrdup(name != NULL ? name : "?");
			unit_read(u, &cu, u->name_count);
			u->name_count++;
		}
		offset = next;
	}
	if (u->span_count > 1)
		qsort(u->spans, u->span_count, sizeof(*u->spans), span_order);
	return u;
}

const char *br_elf_units_find(const br_elf_units_t *units, uint32_t address)
{
	/* the last span starting at or before address, then back while they
	 * still could hold it (spans of one unit may nest in another's) */
	size_t lo = 0, hi = units->span_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2U;
		if (units->spans[mid].start <= address)
			lo = mid + 1U;
		else
			hi = mid;
	}
	for (size_t i = lo; i > 0; i--) {
		const unit_span_t *s = &units->spans[i - 1U];
		if (address < s->end)
			return units->names[s->unit];
	}
	return NULL;
}

void br_elf_units_free(br_elf_units_t *units)
{
	if (units == NULL)
		return;
	for (size_t i = 0; i < units->name_count; i++)
		free(units->names[i]);
	free(units->names);
	free(units->spans);
	free(units);
}
