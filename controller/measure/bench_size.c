#include "measure/bench_size.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "elf/elf_file.h"

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

/* The size of the entry whose first name is name among sized, 0 when none. */
static uint32_t empty_size(const br_elf_sized_t *sized, size_t count, const char *name)
{
	for (size_t i = 0; i < count; i++) {
		if (strcmp(sized[i].name, name) == 0)
			return sized[i].size;
	}
	return 0;
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

/* The sized symbols of the ELF at path into *out, *count. */
static br_status_t sized_read(const char *path, br_elf_sized_t **out, size_t *count,
                              br_error_t *err)
{
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st == BR_OK)
		st = br_elf_symbol_sizes(elf, out, count, err);
	br_elf_close(elf);
	return st;
}

br_status_t br_bench_size_symbols(const char *bench_elf, const char *empty_elf,
                                  br_size_symbol_t **out, size_t *count, br_error_t *err)
{
	*out = NULL;
	*count = 0;
	br_elf_sized_t *bench = NULL, *empty = NULL;
	size_t bench_count = 0, empty_count = 0;
	br_status_t st = sized_read(bench_elf, &bench, &bench_count, err);
	if (st == BR_OK && empty_elf != NULL)
		st = sized_read(empty_elf, &empty, &empty_count, err);
	if (st != BR_OK) {
		free(bench);
		free(empty);
		return st;
	}
	*out = bench_count > 0 ? xcalloc(bench_count, sizeof(**out)) : NULL;
	for (size_t i = 0; i < bench_count; i++) {
		const br_elf_sized_t *e = &bench[i];
		uint32_t before = empty_size(empty, empty_count, e->name);
		if (empty_elf != NULL && e->size <= before)
			continue;
		br_size_symbol_t *s = &(*out)[(*count)++];
		snprintf(s->name, sizeof(s->name), "%s", e->names);
		snprintf(s->section, sizeof(s->section), "%s", e->section);
		s->is_function = e->is_function;
		s->memory = e->memory;
		s->size = e->size;
		s->empty_size = before;
	}
	if (*count > 1)
		qsort(*out, *count, sizeof(**out), symbol_order);
	free(bench);
	free(empty);
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
