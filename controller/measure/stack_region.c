#include "measure/stack_region.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elf_symbols.h"

#define REGION_KIB 1024ULL
#define REGION_WORD_MASK 3U
#define REGION_LIMIT 0x100000000ULL

/* Symbols a linker script may define around its stack: a low and a top
 * symbol, or a top symbol and one whose value is the size. */
typedef struct region_symbols {
	const char *low;
	const char *top;
	const char *size;
} region_symbols_t;

static const region_symbols_t region_table[] = {
    {"br_ld_stack_limit", "br_ld_stack_top", NULL},
    {"__StackLimit", "__StackTop", NULL},
    {"_sstack", "_estack", NULL},
    {NULL, "_estack", "_Min_Stack_Size"},
};

static bool region_symbol(const br_elf_t *elf, const char *name, uint32_t *value)
{
	br_elf_symbol_t sym;
	if (name == NULL || br_elf_symbol_find(elf, name, &sym, NULL) != BR_OK)
		return false;
	*value = sym.address;
	return true;
}

static br_status_t region_check(br_stack_region_t *r, const char *what, br_error_t *err)
{
	if (r->size == 0 || (uint64_t)r->low + r->size > REGION_LIMIT)
		return br_error_set(err, BR_ERR_USAGE, "stack region %s is empty or past 4 GiB",
		                    what);
	if ((r->low & REGION_WORD_MASK) != 0 || (r->size & REGION_WORD_MASK) != 0)
		return br_error_set(err, BR_ERR_USAGE,
		                    "stack region %s (0x%08x, %u bytes) is not word-aligned", what,
		                    r->low, r->size);
	return BR_OK;
}

br_status_t br_stack_region_from_elf(const br_elf_t *elf, br_stack_region_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(region_table) / sizeof(region_table[0]); i++) {
		const region_symbols_t *row = &region_table[i];
		uint32_t low = 0, top = 0, size = 0;
		if (!region_symbol(elf, row->top, &top))
			continue;
		if (row->low != NULL && region_symbol(elf, row->low, &low) && low < top) {
			snprintf(out->source, sizeof(out->source), "%s..%s", row->low, row->top);
		} else if (row->size != NULL && region_symbol(elf, row->size, &size) && size != 0 &&
		           size <= top) {
			low = top - size;
			snprintf(out->source, sizeof(out->source), "%s - %s", row->top, row->size);
		} else {
			continue;
		}
		out->low = low;
		out->size = top - low;
		return region_check(out, out->source, err);
	}
	return br_error_set(err, BR_ERR_USAGE,
	                    "%s has no stack region symbols (br_ld_stack_limit/br_ld_stack_top, "
	                    "__StackLimit/__StackTop, _sstack/_estack, _estack/_Min_Stack_Size): "
	                    "give the region with --stack-region LOW:SIZE",
	                    br_elf_path(elf));
}

/* A number: 0x hex or decimal, optionally followed by K when k_allowed. */
static bool region_number(const char *text, bool k_allowed, uint64_t *out)
{
	if (text[0] == '\0' || text[0] == '-' || text[0] == '+')
		return false;
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 0);
	if (errno != 0 || end == text)
		return false;
	if (k_allowed && (*end == 'K' || *end == 'k')) {
		if (v > REGION_LIMIT / REGION_KIB)
			return false;
		v *= REGION_KIB;
		end++;
	}
	if (*end != '\0' || v > REGION_LIMIT)
		return false;
	*out = v;
	return true;
}

br_status_t br_stack_region_parse(const char *text, br_stack_region_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	const char *colon = strchr(text, ':');
	char low_text[32];
	uint64_t low = 0, size = 0;
	size_t len = colon != NULL ? (size_t)(colon - text) : 0;
	if (colon == NULL || len == 0 || len >= sizeof(low_text))
		return br_error_set(err, BR_ERR_USAGE,
		                    "stack region '%s': expected LOW:SIZE, e.g. 0x2001e000:8K",
		                    text);
	memcpy(low_text, text, len);
	low_text[len] = '\0';
	if (!region_number(low_text, false, &low) || !region_number(colon + 1, true, &size) ||
	    low >= REGION_LIMIT)
		return br_error_set(err, BR_ERR_USAGE,
		                    "stack region '%s': expected LOW:SIZE, e.g. 0x2001e000:8K",
		                    text);
	out->low = (uint32_t)low;
	out->size = size >= REGION_LIMIT ? 0U : (uint32_t)size;
	snprintf(out->source, sizeof(out->source), "--stack-region %s", text);
	return region_check(out, text, err);
}
