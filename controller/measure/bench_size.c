#include "measure/bench_size.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "elf/elf_file.h"
#include "elf/elf_symbols.h"

br_status_t br_bench_size_elf(const char *path, br_elf_sizes_t *out, br_error_t *err)
{
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	st = br_elf_sizes_compute(elf, out, err);
	br_elf_close(elf);
	return st;
}

br_status_t br_bench_size_compute(const char *bench_elf, const char *empty_elf,
                                  br_bench_size_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	br_status_t st = br_bench_size_elf(bench_elf, &out->bench, err);
	if (st == BR_OK)
		st = br_bench_size_elf(empty_elf, &out->empty, err);
	if (st != BR_OK)
		return st;
	out->text = (int64_t)out->bench.text - (int64_t)out->empty.text;
	out->data = (int64_t)out->bench.data - (int64_t)out->empty.data;
	out->bss = (int64_t)out->bench.bss - (int64_t)out->empty.bss;
	return BR_OK;
}

/* The size of the function called name in elf, 0 when it has none. */
static uint32_t function_size(const br_elf_t *elf, const char *name)
{
	br_elf_symbol_t sym;
	if (elf == NULL || br_elf_symbol_find(elf, name, &sym, NULL) != BR_OK || !sym.is_function)
		return 0;
	return sym.size;
}

static int symbol_order(const void *a, const void *b)
{
	const br_size_symbol_t *x = a;
	const br_size_symbol_t *y = b;
	int64_t gx = (int64_t)x->size - x->empty_size;
	int64_t gy = (int64_t)y->size - y->empty_size;
	if (gx != gy)
		return gx > gy ? -1 : 1;
	return strcmp(x->name, y->name);
}

br_status_t br_bench_size_symbols(const char *bench_elf, const char *empty_elf,
                                  br_size_symbol_t **out, size_t *count, br_error_t *err)
{
	*out = NULL;
	*count = 0;
	br_elf_t *bench = NULL, *empty = NULL;
	br_status_t st = br_elf_open(bench_elf, &bench, err);
	if (st == BR_OK && empty_elf != NULL)
		st = br_elf_open(empty_elf, &empty, err);
	if (st != BR_OK) {
		br_elf_close(bench);
		return st;
	}
	size_t cap = 0;
	br_elf_function_iter_t it;
	br_elf_function_t fn;
	br_elf_functions_begin(bench, &it);
	while (br_elf_functions_next(&it, &fn)) {
		uint32_t before = function_size(empty, fn.name);
		if (fn.size <= before && empty != NULL)
			continue;
		bool seen = false;
		for (size_t i = 0; i < *count && !seen; i++)
			seen = strcmp((*out)[i].name, fn.name) == 0;
		if (seen)
			continue;
		if (*count == cap) {
			cap = cap == 0 ? 16U : 2U * cap;
			*out = xrealloc(*out, cap * sizeof(**out));
		}
		br_size_symbol_t *s = &(*out)[(*count)++];
		snprintf(s->name, sizeof(s->name), "%s", fn.name);
		s->size = fn.size;
		s->empty_size = before;
	}
	if (*count > 1)
		qsort(*out, *count, sizeof(**out), symbol_order);
	br_elf_close(empty);
	br_elf_close(bench);
	return BR_OK;
}

bool br_bench_size_sibling(const char *elf, const char *bench, char *out, size_t cap)
{
	const char *slash = strrchr(elf, '/');
	const char *base = slash != NULL ? slash + 1 : elf;
	int dir_len = slash != NULL ? (int)(base - elf) : 0;
	const char *rest = NULL;
	if (strncmp(base, "suite-", strlen("suite-")) == 0)
		rest = base + strlen("suite-");
	else if (strncmp(base, "bench-", strlen("bench-")) == 0)
		rest = strrchr(base, '-') != NULL ? strrchr(base, '-') + 1 : NULL;
	if (rest == NULL)
		return false;
	int n = snprintf(out, cap, "%.*sbench-%s-%s", dir_len, elf, bench, rest);
	return n > 0 && (size_t)n < cap && access(out, R_OK) == 0;
}
