#include "measure/size_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "elf/elf_file.h"
#include "elf/elf_sizes.h"
#include "elf/elf_units.h"

#define KEY_BYTES (BR_ELF_SIZED_NAMES + BR_SIZE_UNIT_BYTES + 1U)

/* One row of one image, under the key it is matched by. */
typedef struct item {
	char key[KEY_BYTES];
	br_size_row_t row; /* only the new_* figures are filled */
} item_t;

typedef struct item_list {
	item_t *items;
	size_t count;
} item_list_t;

static item_t *list_add(item_list_t *l)
{
	l->items = xrealloc(l->items, (l->count + 1U) * sizeof(*l->items));
	item_t *it = &l->items[l->count++];
	memset(it, 0, sizeof(*it));
	return it;
}

static int item_by_key(const void *a, const void *b)
{
	return strcmp(((const item_t *)a)->key, ((const item_t *)b)->key);
}

/* Sorts l by key and sums items of one key into the first of them. */
static void list_coalesce(item_list_t *l)
{
	if (l->count > 1)
		qsort(l->items, l->count, sizeof(*l->items), item_by_key);
	size_t kept = 0;
	for (size_t i = 0; i < l->count; i++) {
		if (kept > 0 && strcmp(l->items[kept - 1U].key, l->items[i].key) == 0) {
			l->items[kept - 1U].row.new_flash += l->items[i].row.new_flash;
			l->items[kept - 1U].row.new_ram += l->items[i].row.new_ram;
			continue;
		}
		if (kept != i)
			l->items[kept] = l->items[i];
		kept++;
	}
	l->count = kept;
}

/* The three views of one image and its totals. */
typedef struct image {
	item_list_t views[BR_SIZE_VIEWS];
	uint64_t flash, ram;
} image_t;

static void image_free(image_t *im)
{
	for (size_t v = 0; v < BR_SIZE_VIEWS; v++)
		free(im->views[v].items);
	memset(im, 0, sizeof(*im));
}

/* The symbols of elf (keyed by unit and first name) and their units. */
static br_status_t image_symbols(const br_elf_t *elf, image_t *im, br_error_t *err)
{
	br_elf_sized_t *sized = NULL;
	size_t n = 0;
	br_status_t st = br_elf_symbol_sizes(elf, &sized, &n, err);
	if (st != BR_OK)
		return st;
	br_elf_units_t *units = br_elf_units_read(elf);
	for (size_t i = 0; i < n; i++) {
		const br_elf_sized_t *e = &sized[i];
		const char *unit = br_elf_units_find(units, e->address);
		item_t *it = list_add(&im->views[BR_SIZE_BY_SYMBOL]);
		br_size_row_t *r = &it->row;
		snprintf(r->name, sizeof(r->name), "%s", e->names);
		snprintf(r->section, sizeof(r->section), "%s", e->section);
		snprintf(r->unit, sizeof(r->unit), "%s", unit != NULL ? unit : BR_SIZE_NO_UNIT);
		snprintf(it->key, sizeof(it->key), "%s\n%s", e->name, r->unit);
		r->is_function = e->is_function;
		r->new_flash = br_elf_memory_flash(e->memory, e->size);
		r->new_ram = br_elf_memory_ram(e->memory, e->size);
		item_t *u = list_add(&im->views[BR_SIZE_BY_UNIT]);
		snprintf(u->row.name, sizeof(u->row.name), "%s", r->unit);
		snprintf(u->key, sizeof(u->key), "%s", r->unit);
		u->row.new_flash = r->new_flash;
		u->row.new_ram = r->new_ram;
	}
	br_elf_units_free(units);
	free(sized);
	return BR_OK;
}

static br_status_t image_read(const char *path, image_t *im, br_error_t *err)
{
	memset(im, 0, sizeof(*im));
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	br_elf_section_size_t *sections = NULL;
	size_t n = 0;
	br_elf_sizes_t sizes;
	st = br_elf_sizes_compute(elf, &sizes, err);
	if (st == BR_OK)
		st = br_elf_sections_list(elf, &sections, &n, err);
	if (st == BR_OK)
		st = image_symbols(elf, im, err);
	br_elf_close(elf);
	if (st != BR_OK) {
		free(sections);
		image_free(im);
		return st;
	}
	im->flash = sizes.text + sizes.data;
	im->ram = sizes.data + sizes.bss;
	for (size_t i = 0; i < n; i++) {
		item_t *it = list_add(&im->views[BR_SIZE_BY_SECTION]);
		snprintf(it->row.name, sizeof(it->row.name), "%s", sections[i].name);
		snprintf(it->key, sizeof(it->key), "%s", sections[i].name);
		it->row.new_flash = br_elf_memory_flash(sections[i].memory, sections[i].size);
		it->row.new_ram = br_elf_memory_ram(sections[i].memory, sections[i].size);
	}
	free(sections);
	for (size_t v = 0; v < BR_SIZE_VIEWS; v++)
		list_coalesce(&im->views[v]);
	return BR_OK;
}

int64_t br_size_row_flash_change(const br_size_row_t *row)
{
	return (int64_t)row->new_flash - (int64_t)row->old_flash;
}

int64_t br_size_row_ram_change(const br_size_row_t *row)
{
	return (int64_t)row->new_ram - (int64_t)row->old_ram;
}

static uint64_t row_change(const br_size_row_t *r)
{
	int64_t f = br_size_row_flash_change(r);
	int64_t m = br_size_row_ram_change(r);
	return (uint64_t)(f < 0 ? -f : f) + (uint64_t)(m < 0 ? -m : m);
}

static int row_by_change(const void *a, const void *b)
{
	const br_size_row_t *x = a;
	const br_size_row_t *y = b;
	uint64_t cx = row_change(x), cy = row_change(y);
	if (cx != cy)
		return cx > cy ? -1 : 1;
	int by_name = strcmp(x->name, y->name);
	return by_name != 0 ? by_name : strcmp(x->unit, y->unit);
}

/* The changed rows of two sorted lists into *out. */
static void view_merge(const item_list_t *old_list, const item_list_t *new_list,
                       br_size_table_t *out)
{
	memset(out, 0, sizeof(*out));
	size_t cap = old_list->count + new_list->count;
	out->rows = cap > 0 ? xcalloc(cap, sizeof(*out->rows)) : NULL;
	size_t i = 0, j = 0;
	while (i < old_list->count || j < new_list->count) {
		int c = i >= old_list->count ? 1
		        : j >= new_list->count
		            ? -1
		            : strcmp(old_list->items[i].key, new_list->items[j].key);
		br_size_row_t row;
		if (c > 0) {
			row = new_list->items[j++].row;
			row.in_new = true;
		} else {
			const br_size_row_t *o = &old_list->items[i++].row;
			if (c == 0) {
				row = new_list->items[j++].row;
				row.in_new = true;
			} else {
				row = *o;
				row.new_flash = 0;
				row.new_ram = 0;
			}
			row.in_old = true;
			row.old_flash = o->new_flash;
			row.old_ram = o->new_ram;
		}
		if (row.in_old && row.in_new && row_change(&row) == 0) {
			out->unchanged++;
			continue;
		}
		out->rows[out->count++] = row;
	}
	if (out->count > 1)
		qsort(out->rows, out->count, sizeof(*out->rows), row_by_change);
}

br_status_t br_size_diff_compute(const char *old_elf, const char *new_elf, br_size_diff_t *out,
                                 br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	image_t old_im, new_im;
	br_status_t st = image_read(old_elf, &old_im, err);
	if (st != BR_OK)
		return st;
	st = image_read(new_elf, &new_im, err);
	if (st != BR_OK) {
		image_free(&old_im);
		return st;
	}
	out->old_elf = old_elf;
	out->new_elf = new_elf;
	for (size_t v = 0; v < BR_SIZE_VIEWS; v++)
		view_merge(&old_im.views[v], &new_im.views[v], &out->views[v]);
	snprintf(out->total.name, sizeof(out->total.name), "total");
	out->total.in_old = out->total.in_new = true;
	out->total.old_flash = old_im.flash;
	out->total.old_ram = old_im.ram;
	out->total.new_flash = new_im.flash;
	out->total.new_ram = new_im.ram;
	image_free(&old_im);
	image_free(&new_im);
	return BR_OK;
}

void br_size_diff_free(br_size_diff_t *d)
{
	for (size_t v = 0; v < BR_SIZE_VIEWS; v++)
		free(d->views[v].rows);
	memset(d, 0, sizeof(*d));
}

const char *br_size_view_name(br_size_view_t view)
{
	switch (view) {
	case BR_SIZE_BY_SYMBOL:
		return "symbols";
	case BR_SIZE_BY_SECTION:
		return "sections";
	case BR_SIZE_BY_UNIT:
		return "compile_units";
	case BR_SIZE_VIEWS:
		break;
	}
	return "?";
}
