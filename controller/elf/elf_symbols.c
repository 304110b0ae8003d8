#include "elf/elf_symbols.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/edit_distance.h"
#include "elf/demangle.h"
#include "elf/elf_private.h"

/* ARM mapping symbols ($a, $t, $d, optionally "$t.n") mark code and data
 * within sections (ELF for the Arm Architecture, "Mapping symbols"); they
 * are never what a user means by a name or an address. */
#define BR_ELF_MAPPING_SYMBOL_PREFIX '$'

/* Reads symbol index; false when it is unreadable or has no name. */
static bool symbol_read(const br_elf_t *elf, size_t index, GElf_Sym *sym, const char **name)
{
	if (elf->symtab == NULL || index >= elf->symtab_count || index > INT32_MAX)
		return false;
	if (gelf_getsym(elf->symtab, (int)index, sym) == NULL)
		return false;
	*name = elf_strptr(elf->elf, elf->symtab_strndx, sym->st_name);
	return *name != NULL && (*name)[0] != '\0';
}

/* A defined symbol that names code or data: not undefined, not a section,
 * file or mapping symbol. */
static bool symbol_is_named_definition(const GElf_Sym *sym, const char *name)
{
	int type = GELF_ST_TYPE(sym->st_info);
	if (sym->st_shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE)
		return false;
	return !(type == STT_NOTYPE && name[0] == BR_ELF_MAPPING_SYMBOL_PREFIX);
}

static bool symbol_is_function(const GElf_Sym *sym)
{
	return GELF_ST_TYPE(sym->st_info) == STT_FUNC && sym->st_shndx != SHN_UNDEF;
}

/* The byte address of a symbol: functions lose the Thumb bit. */
static uint32_t symbol_address(const GElf_Sym *sym)
{
	uint32_t value = (uint32_t)sym->st_value;
	return symbol_is_function(sym) ? value & ~BR_ELF_THUMB_BIT : value;
}

static br_status_t symbol_no_table(const br_elf_t *elf, const char *name, br_error_t *err)
{
	return br_error_set(err, BR_ERR_INPUT,
	                    "symbol '%s' not found: %s has no symbol table (stripped?): pass the "
	                    "unstripped ELF the linker wrote",
	                    name, elf->path);
}

static void symbol_fill(const GElf_Sym *sym, br_elf_symbol_t *out)
{
	out->address = symbol_address(sym);
	out->size = (uint32_t)sym->st_size;
	out->is_function = symbol_is_function(sym);
	out->is_thumb = out->is_function && (sym->st_value & BR_ELF_THUMB_BIT) != 0;
}

/* True when name is how a programmer writes the symbol demangled as
 * demangled: all of it ("dsp::Fir::step(short)"), or its name without the
 * parameter list ("dsp::Fir::step", which every overload answers to), with or
 * without a template's return type. */
static bool demangled_matches(const char *demangled, const char *name)
{
	if (strcmp(demangled, name) == 0)
		return true;
	size_t base = br_demangled_base_length(demangled);
	size_t length = strlen(name);
	if (length == base && strncmp(demangled, name, base) == 0)
		return true;
	/* A function template's return type comes first ("void dsp::mix<int>(int)"):
	 * the name also matches after it. */
	return length < base && demangled[base - length - 1U] == ' ' &&
	       strncmp(demangled + base - length, name, length) == 0;
}

#define SYMBOL_CANDIDATES_SHOWN 8U
/* Names suggested for a symbol not found, the nearest first. */
#define SYMBOL_SUGGESTIONS 3U
/* Suggested only within this many edits, or a third of the name's length. */
#define SYMBOL_SUGGEST_DISTANCE 2U
#define SYMBOL_SUGGEST_FRACTION 3U

/* How far name is from the symbol at index i: the nearer of its raw name and
 * its demangled one (without the parameter list), SIZE_MAX when the symbol is
 * no named definition; *shown is the name to suggest. */
static size_t symbol_distance(const br_elf_t *elf, size_t i, const char *name, const char **shown)
{
	GElf_Sym sym;
	const char *raw;
	if (!symbol_read(elf, i, &sym, &raw) || !symbol_is_named_definition(&sym, raw))
		return SIZE_MAX;
	*shown = raw;
	size_t best = br_edit_distance(name, raw);
	const char *d = elf->demangled != NULL ? elf->demangled[i] : NULL;
	if (d != NULL) {
		char base[BR_EDIT_DISTANCE_MAX_LEN];
		size_t n = br_demangled_base_length(d);
		snprintf(base, sizeof(base), "%.*s", (int)n, d);
		size_t dd = br_edit_distance(name, base);
		size_t full = br_edit_distance(name, d);
		if (dd < full)
			full = dd;
		if (full <= best) {
			best = full;
			*shown = d;
		}
	}
	return best;
}

/* " (did you mean 'a', 'b'?)" with the nearest names to name by edit
 * distance (raw or demangled), "" when none is near. */
static void symbol_suggest(const br_elf_t *elf, const char *name, char *buf, size_t cap)
{
	const char *names[SYMBOL_SUGGESTIONS] = {NULL};
	size_t dist[SYMBOL_SUGGESTIONS];
	size_t limit = strlen(name) / SYMBOL_SUGGEST_FRACTION;
	if (limit < SYMBOL_SUGGEST_DISTANCE)
		limit = SYMBOL_SUGGEST_DISTANCE;
	for (size_t k = 0; k < SYMBOL_SUGGESTIONS; k++)
		dist[k] = SIZE_MAX;
	for (size_t i = 0; elf->symtab != NULL && i < elf->symtab_count; i++) {
		const char *shown = NULL;
		size_t d = symbol_distance(elf, i, name, &shown);
		if (d > limit)
			continue;
		bool seen = false;
		for (size_t k = 0; k < SYMBOL_SUGGESTIONS && names[k] != NULL && !seen; k++)
			seen = strcmp(names[k], shown) == 0;
		if (seen)
			continue;
		/* insert in order of distance (the first found wins a tie) */
		for (size_t k = 0; k < SYMBOL_SUGGESTIONS; k++) {
			if (d >= dist[k])
				continue;
			for (size_t m = SYMBOL_SUGGESTIONS - 1U; m > k; m--) {
				dist[m] = dist[m - 1U];
				names[m] = names[m - 1U];
			}
			dist[k] = d;
			names[k] = shown;
			break;
		}
	}
	buf[0] = '\0';
	size_t o = 0;
	for (size_t k = 0; k < SYMBOL_SUGGESTIONS && names[k] != NULL && o < cap; k++) {
		int n = snprintf(buf + o, cap - o, "%s'%s'", k == 0 ? " (did you mean " : ", ",
		                 names[k]);
		o = n < 0 ? cap : o + (size_t)n;
	}
	if (o > 0 && o < cap)
		snprintf(buf + o, cap - o, "?)");
}

/* name as a C++ or Rust programmer writes it: the one definition whose
 * demangled name it is (aliases at one address count once), else "not
 * found", or "ambiguous" listing the candidates. */
static br_status_t symbol_find_demangled(const br_elf_t *elf, const char *name,
                                         br_elf_symbol_t *out, br_error_t *err)
{
	GElf_Sym found = {0};
	size_t count = 0;
	char list[BR_ERROR_MESSAGE_BYTES / 2];
	size_t used = 0;
	list[0] = '\0';
	for (size_t i = 0; elf->demangled != NULL && i < elf->symtab_count; i++) {
		GElf_Sym sym;
		const char *raw;
		if (elf->demangled[i] == NULL || !symbol_read(elf, i, &sym, &raw) ||
		    !symbol_is_named_definition(&sym, raw) ||
		    !demangled_matches(elf->demangled[i], name))
			continue;
		if (count > 0 && symbol_address(&sym) == symbol_address(&found))
			continue;
		if (count < SYMBOL_CANDIDATES_SHOWN && used < sizeof(list)) {
			int n = snprintf(list + used, sizeof(list) - used, "%s%s at 0x%08" PRIx32,
			                 count > 0 ? ", " : "", elf->demangled[i],
			                 symbol_address(&sym));
			used = n < 0 ? sizeof(list) : used + (size_t)n;
		}
		if (count == 0)
			found = sym;
		count++;
	}
	if (count == 0) {
		char hint[BR_ERROR_MESSAGE_BYTES / 2];
		symbol_suggest(elf, name, hint, sizeof(hint));
		return br_error_set(
		    err, BR_ERR_INPUT,
		    "symbol '%s' not found in %s%s: check the spelling, and that the "
		    "compiler did not inline it or the linker drop it",
		    name, elf->path, hint);
	}
	if (count > 1)
		return br_error_set(
		    err, BR_ERR_INPUT,
		    "symbol '%s' is ambiguous in %s: %zu candidates: %s%s: name one "
		    "with its parameter types, as listed, or pass an address",
		    name, elf->path, count, list, count > SYMBOL_CANDIDATES_SHOWN ? ", ..." : "");
	symbol_fill(&found, out);
	return BR_OK;
}

br_status_t br_elf_symbol_find(const br_elf_t *elf, const char *name, br_elf_symbol_t *out,
                               br_error_t *err)
{
	if (elf->symtab == NULL)
		return symbol_no_table(elf, name, err);

	GElf_Sym best = {0};
	enum br_elf_symbol_rank best_rank = BR_ELF_RANK_NONE;
	size_t best_count = 0;      /* definitions at best_rank */
	uint32_t other_address = 0; /* a best_rank definition elsewhere than best */
	bool ambiguous = false;

	for (size_t i = 0; i < elf->symtab_count; i++) {
		GElf_Sym sym;
		const char *sym_name;
		if (!symbol_read(elf, i, &sym, &sym_name) || strcmp(sym_name, name) != 0 ||
		    !symbol_is_named_definition(&sym, sym_name))
			continue;
		enum br_elf_symbol_rank rank = br_elf_symbol_rank(&sym);
		if (rank < best_rank)
			continue;
		if (rank > best_rank) {
			best = sym;
			best_rank = rank;
			best_count = 1;
			ambiguous = false;
			continue;
		}
		best_count++;
		if (symbol_address(&sym) != symbol_address(&best)) {
			ambiguous = true;
			other_address = symbol_address(&sym);
		}
	}

	if (best_count == 0)
		return symbol_find_demangled(elf, name, out, err);
	if (ambiguous)
		return br_error_set(err, BR_ERR_INPUT,
		                    "symbol '%s' is ambiguous in %s: %zu file-local definitions "
		                    "(0x%08" PRIx32 ", 0x%08" PRIx32 ", ...): pass an address or "
		                    "file:line instead",
		                    name, elf->path, best_count, symbol_address(&best),
		                    other_address);

	symbol_fill(&best, out);
	return BR_OK;
}

/* True when the function symbol sym covers address. */
static bool function_contains(const GElf_Sym *sym, uint32_t address)
{
	uint32_t start = symbol_address(sym);
	if (address < start)
		return false;
	if (sym->st_size == 0)
		return address == start;
	return (uint64_t)(address - start) < sym->st_size;
}

static void function_fill(const br_elf_t *elf, size_t index, const GElf_Sym *sym, const char *name,
                          br_elf_function_t *out)
{
	out->name = br_elf_display_name(elf, index, name);
	out->address = symbol_address(sym);
	out->size = (uint32_t)sym->st_size;
}

bool br_elf_symbol_at(const br_elf_t *elf, uint32_t address, br_elf_function_t *out)
{
	enum br_elf_symbol_rank best_rank = BR_ELF_RANK_NONE;
	for (size_t i = 0; i < elf->symtab_count; i++) {
		GElf_Sym sym;
		const char *name;
		if (!symbol_read(elf, i, &sym, &name) || !symbol_is_function(&sym) ||
		    !function_contains(&sym, address))
			continue;
		enum br_elf_symbol_rank rank = br_elf_symbol_rank(&sym);
		if (rank > best_rank) {
			best_rank = rank;
			function_fill(elf, i, &sym, name, out);
		}
	}
	return best_rank != BR_ELF_RANK_NONE;
}

void br_elf_symbol_describe(const br_elf_t *elf, uint32_t address, char *buf, size_t size)
{
	br_elf_function_t fn;
	if (!br_elf_symbol_at(elf, address, &fn)) {
		snprintf(buf, size, "0x%08" PRIx32, address);
		return;
	}
	snprintf(buf, size, "0x%08" PRIx32 " (%s+0x%" PRIx32 ")", address, fn.name,
	         address - fn.address);
}

void br_elf_functions_begin(const br_elf_t *elf, br_elf_function_iter_t *it)
{
	it->elf = elf;
	it->next = 0;
}

bool br_elf_functions_next(br_elf_function_iter_t *it, br_elf_function_t *out)
{
	while (it->next < it->elf->symtab_count) {
		GElf_Sym sym;
		const char *name;
		size_t index = it->next++;
		if (symbol_read(it->elf, index, &sym, &name) && symbol_is_function(&sym)) {
			function_fill(it->elf, index, &sym, name, out);
			return true;
		}
	}
	return false;
}
