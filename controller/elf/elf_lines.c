#include "elf/elf_lines.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "elf/elf_private.h"

#define BR_ELF_PATH_SEPARATOR '/'

/* What a walk over the line table found for one file:line request. */
typedef struct line_search {
	const char *file; /* as the user wrote it */
	unsigned line;
	const char *path;       /* first line-table path matching file (libdw's memory) */
	const char *other_path; /* a different path also matching file, if any */
	bool found;
	Dwarf_Addr lowest;      /* lowest is_stmt address of line, when found */
	unsigned nearest_below; /* the highest line < line with code; 0 if none */
	unsigned nearest_above; /* the lowest line > line with code; 0 if none */
} line_search_t;

/* True when path ends with suffix at a path component boundary. */
static bool path_has_suffix(const char *path, const char *suffix)
{
	size_t path_len = strlen(path);
	size_t suffix_len = strlen(suffix);
	if (suffix_len == 0 || suffix_len > path_len)
		return false;
	const char *tail = path + path_len - suffix_len;
	if (strcmp(tail, suffix) != 0)
		return false;
	return tail == path || tail[-1] == BR_ELF_PATH_SEPARATOR ||
	       suffix[0] == BR_ELF_PATH_SEPARATOR;
}

/* Removes the last component of the normalized path out[0..*len), unless it
 * is "..", keeping the first root bytes ("/" of an absolute path).
 * Returns false when there was nothing to remove. */
static bool path_pop(char *out, size_t *len, size_t root)
{
	size_t cut = *len;
	while (cut > root && out[cut - 1] != BR_ELF_PATH_SEPARATOR)
		cut--;
	if (*len == root || (*len - cut == 2 && out[cut] == '.' && out[cut + 1] == '.'))
		return false;
	*len = cut > root ? cut - 1 : root;
	return true;
}

/*
 * Normalizes a path lexically: no empty or "." components, "dir/.." folded.
 * The same file reached through different relative paths (common when the
 * line tables of several compilation units name one header) compares equal.
 * Returns a new string the caller frees.
 */
static char *path_normalize(const char *path)
{
	char *out = xmalloc(strlen(path) + 1);
	size_t root = path[0] == BR_ELF_PATH_SEPARATOR ? 1 : 0;
	size_t len = root;
	const char *p = path;

	if (root != 0)
		out[0] = BR_ELF_PATH_SEPARATOR;
	while (*p != '\0') {
		while (*p == BR_ELF_PATH_SEPARATOR)
			p++;
		const char *start = p;
		while (*p != '\0' && *p != BR_ELF_PATH_SEPARATOR)
			p++;
		size_t component = (size_t)(p - start);
		if (component == 0 || (component == 1 && start[0] == '.'))
			continue;
		bool is_parent = component == 2 && start[0] == '.' && start[1] == '.';
		if (is_parent && (path_pop(out, &len, root) || root != 0))
			continue;
		if (len > root)
			out[len++] = BR_ELF_PATH_SEPARATOR;
		memcpy(out + len, start, component);
		len += component;
	}
	out[len] = '\0';
	return out;
}

/* True when two line-table paths name the same file. */
static bool path_same(const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return true;
	char *na = path_normalize(a);
	char *nb = path_normalize(b);
	bool same = strcmp(na, nb) == 0;
	free(na);
	free(nb);
	return same;
}

/* Takes one line-table row into account. */
static void line_search_row(line_search_t *search, Dwarf_Line *row)
{
	bool end_sequence;
	bool is_stmt;
	int lineno;
	Dwarf_Addr address;
	if (dwarf_lineendsequence(row, &end_sequence) != 0 || end_sequence ||
	    dwarf_linebeginstatement(row, &is_stmt) != 0 || !is_stmt ||
	    dwarf_lineno(row, &lineno) != 0 || lineno <= 0 || dwarf_lineaddr(row, &address) != 0)
		return;
	const char *path = dwarf_linesrc(row, NULL, NULL);
	if (path == NULL || !path_has_suffix(path, search->file))
		return;

	if (search->path == NULL)
		search->path = path;
	else if (search->other_path == NULL && !path_same(search->path, path))
		search->other_path = path;

	unsigned row_line = (unsigned)lineno;
	if (row_line == search->line) {
		if (!search->found || address < search->lowest)
			search->lowest = address;
		search->found = true;
	} else if (row_line < search->line) {
		if (row_line > search->nearest_below)
			search->nearest_below = row_line;
	} else if (search->nearest_above == 0 || row_line < search->nearest_above) {
		search->nearest_above = row_line;
	}
}

/* Walks the line tables of every compilation unit. */
static void line_search_run(const br_elf_t *elf, line_search_t *search)
{
	Dwarf_CU *cu = NULL;
	for (;;) {
		Dwarf_Die cudie;
		if (dwarf_get_units(elf->dwarf, cu, &cu, NULL, NULL, &cudie, NULL) != 0)
			return;
		Dwarf_Lines *lines;
		size_t count;
		if (dwarf_getsrclines(&cudie, &lines, &count) != 0)
			continue;
		for (size_t i = 0; i < count; i++) {
			Dwarf_Line *row = dwarf_onesrcline(lines, i);
			if (row != NULL)
				line_search_row(search, row);
		}
	}
}

/* The error for a line without code, naming the nearest lines with code. */
static br_status_t line_no_code(const br_elf_t *elf, const line_search_t *search, br_error_t *err)
{
	const char *file = search->file;
	unsigned line = search->line;
	unsigned below = search->nearest_below;
	unsigned above = search->nearest_above;

	if (below != 0 && above != 0)
		return br_error_set(
		    err, BR_ERR_INPUT,
		    "%s:%u has no code in %s: the nearest lines with code are %s:%u "
		    "and %s:%u",
		    file, line, elf->path, file, below, file, above);
	if (below != 0 || above != 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s:%u has no code in %s: the nearest line with code is %s:%u",
		                    file, line, elf->path, file, below != 0 ? below : above);
	return br_error_set(err, BR_ERR_INPUT,
	                    "%s:%u has no code in %s: no line of %s has code (optimized away?)",
	                    file, line, elf->path, file);
}

br_status_t br_elf_line_address(const br_elf_t *elf, const char *file, unsigned line,
                                uint32_t *address, br_error_t *err)
{
	if (elf->dwarf == NULL)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s:%u: %s has no debug information: rebuild the firmware with "
		                    "-g to use file:line",
		                    file, line, elf->path);
	if (line == 0)
		return br_error_set(
		    err, BR_ERR_INPUT,
		    "%s:0: lines are numbered from 1: give the line to measure from", file);

	line_search_t search = {.file = file, .line = line};
	line_search_run(elf, &search);

	if (search.path == NULL)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s:%u: no source file '%s' in the line table of %s: check the "
		                    "name (matched as a path suffix, e.g. crc32.c or src/crc32.c)",
		                    file, line, file, elf->path);
	if (search.other_path != NULL)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s:%u: '%s' is ambiguous in %s: it matches %s and %s: give "
		                    "more of the path",
		                    file, line, file, elf->path, search.path, search.other_path);
	if (!search.found)
		return line_no_code(elf, &search, err);
	if (search.lowest > UINT32_MAX)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s:%u: address 0x%llx in %s does not fit 32 bits: pass the "
		                    "firmware built for the Cortex-M target",
		                    file, line, (unsigned long long)search.lowest, elf->path);
	*address = (uint32_t)search.lowest;
	return BR_OK;
}
