#include "report/report_size_diff.h"

#include <string.h>

#include "common/escape.h"
#include "results/atomic_file.h"
#include "results/contract.h"
#include "results/json_writer.h"

static const char *const view_titles[BR_SIZE_VIEWS] = {
    [BR_SIZE_BY_SYMBOL] = "by symbol (aliases folded)",
    [BR_SIZE_BY_SECTION] = "by section",
    [BR_SIZE_BY_UNIT] = "by compile unit (DWARF; the symbols of each)",
};

#define FORMAT_NAME_ROW(id, name) [BR_SIZE_DIFF_##id] = name,
static const char *const format_names[] = {BR_SIZE_DIFF_FORMAT_LIST(FORMAT_NAME_ROW)};

/* ", table, json, ...": the list starts after the first ", ". */
#define FORMAT_JOIN_ROW(id, name) ", " name
static const char formats_joined[] = BR_SIZE_DIFF_FORMAT_LIST(FORMAT_JOIN_ROW);

bool br_size_diff_format_parse(const char *name, br_size_diff_format_t *out)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (strcmp(name, format_names[i]) == 0) {
			*out = (br_size_diff_format_t)i;
			return true;
		}
	}
	return false;
}

const char *br_size_diff_format_names(void)
{
	return formats_joined + 2;
}

/* "added", "removed" or "changed". */
static const char *row_state(const br_size_row_t *r)
{
	return !r->in_old ? "added" : !r->in_new ? "removed" : "changed";
}

/* ---- table -------------------------------------------------------------- */

/* A row's six figures: flash old, new, change; RAM old, new, change. As
 * table columns, or as Markdown cells. */
static void figures_write(FILE *out, bool md, const br_size_row_t *r)
{
	unsigned long long of = r->old_flash, nf = r->new_flash, om = r->old_ram, nm = r->new_ram;
	long long df = br_size_row_flash_change(r), dm = br_size_row_ram_change(r);
	if (md)
		fprintf(out, " %llu | %llu | %+lld | %llu | %llu | %+lld |", of, nf, df, om, nm,
		        dm);
	else
		fprintf(out, "%8llu %8llu %+8lld  %8llu %8llu %+8lld", of, nf, df, om, nm, dm);
}

static void table_write(const br_size_diff_t *d, FILE *out)
{
	fputs("size diff: ", out);
	br_escape_text_write(out, d->old_elf);
	fputs(" -> ", out);
	br_escape_text_write(out, d->new_elf);
	fputs("\n(flash: text + data; RAM: data + bss; bytes)\n\n", out);
	fprintf(out, "%8s %8s %8s  %8s %8s %8s\n", "flash", "", "", "RAM", "", "");
	fprintf(out, "%8s %8s %8s  %8s %8s %8s  %s\n", "old", "new", "change", "old", "new",
	        "change", "what");
	figures_write(out, false, &d->total);
	fputs("  total\n", out);
	for (size_t v = 0; v < BR_SIZE_VIEWS; v++) {
		const br_size_table_t *t = &d->views[v];
		fprintf(out, "\n%s: %zu changed, %zu unchanged\n", view_titles[v], t->count,
		        t->unchanged);
		for (size_t i = 0; i < t->count; i++) {
			const br_size_row_t *r = &t->rows[i];
			figures_write(out, false, r);
			fputs("  ", out);
			br_escape_text_write(out, r->name);
			if (v == BR_SIZE_BY_SYMBOL) {
				fputs("  [", out);
				br_escape_text_write(out, r->section);
				fputs(", ", out);
				br_escape_text_write(out, r->unit);
				fputc(']', out);
			}
			if (strcmp(row_state(r), "changed") != 0)
				fprintf(out, "  (%s)", row_state(r));
			fputc('\n', out);
		}
	}
}

/* ---- Markdown ----------------------------------------------------------- */

static void md_cell(FILE *out, const char *text)
{
	fputs(" ", out);
	br_escape_table_cell_write(out, text);
	fputs(" |", out);
}

static void md_write(const br_size_diff_t *d, FILE *out)
{
	fputs("### Size diff\n\n`", out);
	br_escape_text_write(out, d->old_elf);
	fputs("` → `", out);
	br_escape_text_write(out, d->new_elf);
	fputs("` (flash: text + data; RAM: data + bss; bytes)\n\n", out);
	fputs("| | flash old | flash new | flash change | RAM old | RAM new | RAM change |\n"
	      "|---|---:|---:|---:|---:|---:|---:|\n| total |",
	      out);
	figures_write(out, true, &d->total);
	fputc('\n', out);
	for (size_t v = 0; v < BR_SIZE_VIEWS; v++) {
		const br_size_table_t *t = &d->views[v];
		fprintf(out, "\n#### %s: %zu changed, %zu unchanged\n\n", view_titles[v], t->count,
		        t->unchanged);
		if (t->count == 0)
			continue;
		bool sym = v == BR_SIZE_BY_SYMBOL;
		fprintf(out,
		        "| %s |%s flash old | flash new | flash change | RAM old | RAM new | "
		        "RAM change | state |\n|---|%s---:|---:|---:|---:|---:|---:|---|\n",
		        sym                       ? "symbol"
		        : v == BR_SIZE_BY_SECTION ? "section"
		                                  : "compile unit",
		        sym ? " section | compile unit |" : "", sym ? "---|---|" : "");
		for (size_t i = 0; i < t->count; i++) {
			const br_size_row_t *r = &t->rows[i];
			fputc('|', out);
			md_cell(out, r->name);
			if (sym) {
				md_cell(out, r->section);
				md_cell(out, r->unit);
			}
			figures_write(out, true, r);
			md_cell(out, row_state(r));
			fputc('\n', out);
		}
	}
}

/* ---- JSON --------------------------------------------------------------- */

static void json_figures(br_json_t *j, const br_size_row_t *r)
{
	static const char *const keys[] = {"flash", "ram"};
	for (size_t k = 0; k < 2; k++) {
		br_json_key(j, keys[k]);
		br_json_object_begin(j);
		br_json_key(j, "old");
		br_json_uint(j, k == 0 ? r->old_flash : r->old_ram);
		br_json_key(j, "new");
		br_json_uint(j, k == 0 ? r->new_flash : r->new_ram);
		br_json_key(j, "change");
		br_json_int(j, k == 0 ? br_size_row_flash_change(r) : br_size_row_ram_change(r));
		br_json_object_end(j);
	}
}

static void json_write(const br_size_diff_t *d, FILE *out)
{
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	br_json_key(&j, "kind");
	br_json_string(&j, BR_CONTRACT_SIZE_DIFF);
	br_json_key(&j, "schema_version");
	br_json_uint(&j, BR_CONTRACT_SIZE_DIFF_VERSION);
	br_json_key(&j, "old_elf");
	br_json_string(&j, d->old_elf);
	br_json_key(&j, "new_elf");
	br_json_string(&j, d->new_elf);
	br_json_key(&j, "total");
	br_json_object_begin(&j);
	json_figures(&j, &d->total);
	br_json_object_end(&j);
	for (size_t v = 0; v < BR_SIZE_VIEWS; v++) {
		const br_size_table_t *t = &d->views[v];
		br_json_key(&j, br_size_view_name((br_size_view_t)v));
		br_json_object_begin(&j);
		br_json_key(&j, "unchanged");
		br_json_uint(&j, t->unchanged);
		br_json_key(&j, "changed");
		br_json_array_begin(&j);
		for (size_t i = 0; i < t->count; i++) {
			const br_size_row_t *r = &t->rows[i];
			br_json_object_begin(&j);
			br_json_key(&j, "name");
			br_json_string(&j, r->name);
			if (v == BR_SIZE_BY_SYMBOL) {
				br_json_key(&j, "kind");
				br_json_string(&j, r->is_function ? "function" : "object");
				br_json_key(&j, "section");
				br_json_string(&j, r->section);
				br_json_key(&j, "compile_unit");
				br_json_string(&j, r->unit);
			}
			br_json_key(&j, "state");
			br_json_string(&j, row_state(r));
			json_figures(&j, r);
			br_json_object_end(&j);
		}
		br_json_array_end(&j);
		br_json_object_end(&j);
	}
	br_json_object_end(&j);
	br_json_finish(&j);
}

void br_size_diff_write(const br_size_diff_t *d, br_size_diff_format_t fmt, FILE *out)
{
	switch (fmt) {
	case BR_SIZE_DIFF_TABLE:
		table_write(d, out);
		break;
	case BR_SIZE_DIFF_JSON:
		json_write(d, out);
		break;
	case BR_SIZE_DIFF_MARKDOWN:
		md_write(d, out);
		break;
	}
}

br_status_t br_size_diff_save(const br_size_diff_t *d, br_size_diff_format_t fmt, const char *path,
                              br_error_t *err)
{
	br_atomic_file_t f;
	br_status_t st = br_atomic_file_open(&f, path, err);
	if (st != BR_OK)
		return st;
	br_size_diff_write(d, fmt, f.stream);
	return br_atomic_file_commit(&f, err);
}
