#include "report/report_sizes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "measure/bench_size.h"
#include "measure/calibration.h"

static void symbols_read(br_page_t *page, br_page_latest_t *l, const char *elf)
{
	br_size_symbol_t *syms = NULL;
	size_t count = 0;
	br_error_t err;
	br_error_clear(&err);
	if (br_bench_size_symbols(elf, NULL, &syms, &count, &err) != BR_OK) {
		br_page_warn(page, "sizes of %s: %s", elf, err.message);
		return;
	}
	/* the page shows what takes flash: .bss buffers (RAM only) are left out */
	size_t kept = 0;
	for (size_t i = 0; i < count; i++) {
		if (syms[i].memory != BR_ELF_MEMORY_RAM)
			syms[kept++] = syms[i];
	}
	count = kept;
	size_t n = count < BR_PAGE_TOP_SYMBOLS ? count : BR_PAGE_TOP_SYMBOLS;
	l->symbols = n > 0 ? xcalloc(n, sizeof(*l->symbols)) : NULL;
	for (size_t i = 0; i < n; i++) {
		/* a long list of aliases is cut to the page's column */
		snprintf(l->symbols[i].name, sizeof(l->symbols[i].name), "%.*s",
		         (int)sizeof(l->symbols[i].name) - 1, syms[i].name);
		snprintf(l->symbols[i].kind, sizeof(l->symbols[i].kind), "%s",
		         syms[i].is_function ? "function" : "object");
		snprintf(l->symbols[i].section, sizeof(l->symbols[i].section), "%s",
		         syms[i].section);
		l->symbols[i].size = syms[i].size;
	}
	l->symbol_count = n;
	free(syms);
}

static void bench_text_read(br_page_t *page, br_page_latest_t *l, const br_run_record_t *run)
{
	char empty[BR_PAGE_PATH_BYTES], image[BR_PAGE_PATH_BYTES];
	if (!br_bench_size_sibling(run->elf_path, BR_CALIBRATION_EMPTY_BENCH, empty, sizeof(empty)))
		return;
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		if (strcmp(b->mode, "stub") != 0 ||
		    !br_bench_size_sibling(run->elf_path, b->name, image, sizeof(image)))
			continue;
		br_bench_size_t size;
		br_error_t err;
		br_error_clear(&err);
		if (br_bench_size_compute(image, empty, &size, &err) != BR_OK) {
			br_page_warn(page, "size of bench %s: %s", b->name, err.message);
			continue;
		}
		l->bench_text =
		    xrealloc(l->bench_text, (l->bench_text_count + 1) * sizeof(*l->bench_text));
		br_page_bench_text_t *t = &l->bench_text[l->bench_text_count++];
		snprintf(t->bench, sizeof(t->bench), "%s", b->name);
		t->text = size.text;
	}
}

void br_page_sizes_read(br_page_t *page, br_page_latest_t *l)
{
	const br_run_record_t *run = page->runs[l->run].rec;
	/* the firmware measured: the run's, else (entries naming several ELFs) the
	 * first entry's, as the page's script labels it */
	const char *elf = run->no_firmware ? "" : run->elf_path;
	for (size_t i = 0; elf[0] == '\0' && i < run->bench_count; i++) {
		if (run->benches[i].has_firmware)
			elf = run->benches[i].firmware.elf_path;
	}
	if (elf[0] == '\0')
		return;
	if (access(elf, R_OK) != 0) {
		br_page_warn(
		    page,
		    "%s: the firmware is no longer there, so its biggest functions and the "
		    "text per bench are not shown (only the record's sizes)",
		    elf);
		return;
	}
	symbols_read(page, l, elf);
	if (!run->no_firmware)
		bench_text_read(page, l, run);
}
