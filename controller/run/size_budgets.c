#include "run/size_budgets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elf_file.h"
#include "elf/elf_sizes.h"
#include "elf/elf_symbol_sizes.h"
#include "results/diff.h"

/* True when name is one of the ", "-separated names of list. */
static bool names_hold(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p != NULL && *p != '\0';) {
		const char *end = strstr(p, ", ");
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (len == n && strncmp(p, name, n) == 0)
			return true;
		p = end != NULL ? end + 2 : NULL;
	}
	return false;
}

/* The flash and RAM bytes of budget b's symbol or section; false when the
 * image has none of that name. */
static bool budget_figures(const br_suite_size_budget_t *b, const br_elf_sized_t *syms,
                           size_t sym_count, const br_elf_section_size_t *secs, size_t sec_count,
                           uint64_t *flash, uint64_t *ram)
{
	*flash = *ram = 0;
	bool found = false;
	if (b->symbol.set) {
		for (size_t i = 0; i < sym_count && !found; i++) {
			if (names_hold(syms[i].names, b->symbol.value)) {
				*flash = br_elf_memory_flash(syms[i].memory, syms[i].size);
				*ram = br_elf_memory_ram(syms[i].memory, syms[i].size);
				found = true;
			}
		}
		return found;
	}
	for (size_t i = 0; i < sec_count; i++) {
		if (strcmp(secs[i].name, b->section.value) == 0) {
			*flash += br_elf_memory_flash(secs[i].memory, secs[i].size);
			*ram += br_elf_memory_ram(secs[i].memory, secs[i].size);
			found = true;
		}
	}
	return found;
}

static void budget_check(const br_suite_size_budget_t *b, bool found, const char *lacking,
                         uint64_t flash, uint64_t ram, br_gate_t *gate)
{
	const char *kind = b->symbol.set ? "symbol" : "section";
	const char *name = b->symbol.set ? b->symbol.value : b->section.value;
	char what[160];
	if (b->max_flash_bytes.set) {
		snprintf(what, sizeof(what), "%s %.100s flash bytes", kind, name);
		br_gate_check_limit(gate, BR_DIFF_FIRMWARE, "flash_bytes", what, found, lacking,
		                    (double)flash, b->max_flash_bytes.value, "max_flash_bytes");
	}
	if (b->max_ram_bytes.set) {
		snprintf(what, sizeof(what), "%s %.100s RAM bytes", kind, name);
		br_gate_check_limit(gate, BR_DIFF_FIRMWARE, "ram_bytes", what, found, lacking,
		                    (double)ram, b->max_ram_bytes.value, "max_ram_bytes");
	}
}

br_status_t br_size_budgets_apply(const br_suite_t *suite, const char *elf, br_gate_t *gate,
                                  br_error_t *err)
{
	if (suite == NULL || suite->size_budget_count == 0)
		return BR_OK;
	if (elf == NULL) {
		for (size_t i = 0; i < suite->size_budget_count; i++)
			budget_check(&suite->size_budgets[i], false,
			             "measured (the suite has no firmware)", 0, 0, gate);
		return BR_OK;
	}
	br_elf_t *image = NULL;
	br_status_t st = br_elf_open(elf, &image, err);
	if (st != BR_OK)
		return st;
	br_elf_sized_t *syms = NULL;
	br_elf_section_size_t *secs = NULL;
	size_t sym_count = 0, sec_count = 0;
	st = br_elf_symbol_sizes(image, &syms, &sym_count, err);
	if (st == BR_OK)
		st = br_elf_sections_list(image, &secs, &sec_count, err);
	br_elf_close(image);
	for (size_t i = 0; st == BR_OK && i < suite->size_budget_count; i++) {
		const br_suite_size_budget_t *b = &suite->size_budgets[i];
		uint64_t flash = 0, ram = 0;
		bool found = budget_figures(b, syms, sym_count, secs, sec_count, &flash, &ram);
		budget_check(b, found, "in the firmware", flash, ram, gate);
	}
	free(syms);
	free(secs);
	return st;
}
