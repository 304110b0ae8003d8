#include "measure/stub_footprint.h"

#include <stdio.h>
#include <string.h>

#include "elf/elf_file.h"
#include "elf/elf_sizes.h"
#include "elf/elf_symbols.h"
#include "measure/bench_size.h"
#include "measure/calibration.h"
#include "measure/stub_layout.h"

/* Fills out from an open elf; layout, when not NULL, gets the stub's layout
 * (the image must then have the stub). */
static br_status_t footprint_of_elf(const br_elf_t *elf, br_footprint_t *out,
                                    br_stub_layout_t *layout, br_error_t *err)
{
	br_elf_sizes_t sizes;
	br_status_t st = br_elf_sizes_compute(elf, &sizes, err);
	if (st != BR_OK)
		return st;
	br_stub_layout_t own;
	br_stub_layout_t *l = layout != NULL ? layout : &own;
	br_elf_symbol_t cb;
	bool has_stub = br_elf_symbol_find(elf, BR_CONTROL_BLOCK_SYMBOL, &cb, NULL) == BR_OK;
	uint64_t samples = 0;
	if (has_stub || layout != NULL) {
		st = br_stub_layout_from_elf(elf, l, err);
		if (st != BR_OK)
			return st;
		samples = (uint64_t)l->max_samples * BR_CB_SAMPLE_BYTES;
	}
	out->flash = sizes.text + sizes.data;
	out->samples = samples;
	out->ram = sizes.data + sizes.bss - (samples <= sizes.bss ? samples : sizes.bss);
	return BR_OK;
}

/* Opens path and fills out (and layout, see footprint_of_elf). */
static br_status_t footprint_of_path(const char *path, br_footprint_t *out,
                                     br_stub_layout_t *layout, br_error_t *err)
{
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	st = footprint_of_elf(elf, out, layout, err);
	br_elf_close(elf);
	return st;
}

br_status_t br_suite_footprint_compute(const char *suite_elf, const char *empty_elf,
                                       br_suite_footprint_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(suite_elf, &elf, err);
	if (st != BR_OK)
		return st;
	br_elf_symbol_t cb;
	out->has_stub = br_elf_symbol_find(elf, BR_CONTROL_BLOCK_SYMBOL, &cb, NULL) == BR_OK;
	br_stub_layout_t layout;
	st = footprint_of_elf(elf, &out->suite, out->has_stub ? &layout : NULL, err);
	br_elf_close(elf);
	if (st != BR_OK || !out->has_stub)
		return st;
	if (empty_elf != NULL)
		snprintf(out->empty_elf, sizeof(out->empty_elf), "%s", empty_elf);
	out->stub_known =
	    empty_elf != NULL || br_bench_size_sibling(suite_elf, BR_CALIBRATION_EMPTY_BENCH,
	                                               out->empty_elf, sizeof(out->empty_elf));
	if (out->stub_known) {
		st = footprint_of_path(out->empty_elf, &out->stub, NULL, err);
		if (st != BR_OK)
			return st;
	}
	out->count = layout.bench_count;
	for (size_t i = 0; i < out->count; i++) {
		br_footprint_bench_t *b = &out->benches[i];
		memcpy(b->name, layout.bench_names[i], sizeof(b->name));
		if (!out->stub_known ||
		    !br_bench_size_sibling(suite_elf, b->name, b->elf, sizeof(b->elf)))
			continue;
		br_footprint_t own;
		st = footprint_of_path(b->elf, &own, NULL, err);
		if (st != BR_OK)
			return st;
		b->known = true;
		b->flash = (int64_t)own.flash - (int64_t)out->stub.flash;
		b->ram = (int64_t)own.ram - (int64_t)out->stub.ram;
	}
	return BR_OK;
}
