#include "report/report_data.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "yaml/scalar.h"
#include "results/contract.h"
#include "results/format.h"
#include "results/json_writer.h"
#include "report/report_steps.h"
#include "results/run_json.h"
#include "stats/summary.h"

/* A record as its JSON says it (run_json.h), with the page's id and file.
 * Only the latest runs keep their raw samples: the history needs the
 * figures, the histograms only the latest run's samples. */
static void record_write(br_json_t *j, size_t id, const br_page_record_t *r, bool samples)
{
	br_run_record_t copy = *r->rec;
	br_bench_record_t *benches = NULL;
	if (!samples && copy.bench_count > 0) {
		benches = xcalloc(copy.bench_count, sizeof(*benches));
		memcpy(benches, copy.benches, copy.bench_count * sizeof(*benches));
		for (size_t i = 0; i < copy.bench_count; i++)
			benches[i].samples = NULL;
		copy.benches = benches;
	}
	br_json_object_begin(j);
	br_json_key(j, "id");
	br_json_uint(j, id);
	br_json_key(j, "file");
	br_json_string(j, r->path);
	br_json_key(j, "series");
	br_json_string(j, r->series[0] != '\0' ? r->series : r->rec->board);
	br_run_json_write_fields(j, &copy);
	br_json_object_end(j);
	free(benches);
}

static bool is_latest(const br_page_t *page, size_t run)
{
	for (size_t i = 0; i < page->latest_count; i++) {
		if (page->latest[i].run == run)
			return true;
	}
	return false;
}

/* Per measured bench of run, the indices of the samples stats/ calls outliers. */
static void outliers_write(br_json_t *j, const br_run_record_t *run)
{
	br_json_array_begin(j);
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		if (b->status != BR_BENCH_MEASURED || b->samples == NULL)
			continue;
		br_json_object_begin(j);
		br_json_key(j, "bench");
		br_json_string(j, b->name);
		br_json_key(j, "indices");
		br_json_array_begin(j);
		for (size_t k = 0; k < b->n; k++) {
			if (br_stats_is_outlier(&b->summary, (double)b->samples[k]))
				br_json_uint(j, k);
		}
		br_json_array_end(j);
		br_json_object_end(j);
	}
	br_json_array_end(j);
}

static void latest_write(br_json_t *j, const br_page_t *page, const br_page_latest_t *l)
{
	const br_page_record_t *r = &page->runs[l->run];
	br_report_t report = {.run = r->rec,
	                      .run_path = r->path,
	                      .diff = l->diff,
	                      .baseline_path =
	                          l->has_baseline ? page->baselines[l->baseline].path : NULL,
	                      .gate = l->gate,
	                      .figures = true};
	br_json_object_begin(j);
	br_json_key(j, "run");
	br_json_uint(j, l->run);
	br_json_key(j, "baseline");
	if (l->has_baseline)
		br_json_uint(j, l->baseline);
	else
		br_json_null(j);
	br_json_key(j, "verdict");
	br_json_string(j, br_report_verdict_name(br_report_verdict(&report, 1)));
	br_format_json_comparison(j, &report);
	br_format_json_gate(j, &report);
	br_json_key(j, "outliers");
	outliers_write(j, r->rec);
	br_json_key(j, "symbols");
	br_json_array_begin(j);
	for (size_t i = 0; i < l->symbol_count; i++) {
		br_json_object_begin(j);
		br_json_key(j, "name");
		br_json_string(j, l->symbols[i].name);
		br_json_key(j, "kind");
		br_json_string(j, l->symbols[i].kind);
		br_json_key(j, "section");
		br_json_string(j, l->symbols[i].section);
		br_json_key(j, "size");
		br_json_uint(j, l->symbols[i].size);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_key(j, "bench_text");
	br_json_array_begin(j);
	for (size_t i = 0; i < l->bench_text_count; i++) {
		br_json_object_begin(j);
		br_json_key(j, "bench");
		br_json_string(j, l->bench_text[i].bench);
		br_json_key(j, "text");
		br_json_int(j, l->bench_text[i].text);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_object_end(j);
}

static void strings(br_json_t *j, char *const *list, size_t count)
{
	br_json_array_begin(j);
	for (size_t i = 0; i < count; i++)
		br_json_string(j, list[i]);
	br_json_array_end(j);
}

static void figure(br_json_t *j, const char *key, double v)
{
	br_json_key(j, key);
	br_json_double(j, v);
}

static void matrix_write(br_json_t *j, const br_page_rack_t *rack, const br_page_matrix_t *m)
{
	br_json_object_begin(j);
	br_json_key(j, "suite");
	br_json_string(j, m->suite);
	br_json_key(j, "unit");
	br_json_string(j, m->unit);
	figure(j, "off_percent", m->off_percent);
	br_json_key(j, "benches");
	br_json_array_begin(j);
	for (size_t c = 0; c < m->bench_count; c++)
		br_json_string(j, m->benches[c]);
	br_json_array_end(j);
	br_json_key(j, "rack_median");
	br_json_array_begin(j);
	for (size_t c = 0; c < m->bench_count; c++)
		br_json_double(j, m->rack_median[c]); /* NaN (no board measured it): null */
	br_json_array_end(j);
	br_json_key(j, "rows");
	br_json_array_begin(j);
	for (size_t r = 0; r < m->row_count; r++) {
		br_json_object_begin(j);
		br_json_key(j, "board");
		br_json_string(j, rack->boards[m->rows[r]].name);
		br_json_key(j, "off");
		br_json_bool(j, m->row_off[r]);
		br_json_key(j, "cells");
		br_json_array_begin(j);
		for (size_t c = 0; c < m->bench_count; c++) {
			const br_page_cell_t *cell = &m->cells[r * m->bench_count + c];
			br_json_object_begin(j);
			br_json_key(j, "median");
			br_json_double(j, cell->known ? cell->median : (double)NAN);
			br_json_key(j, "ratio");
			br_json_double(j, cell->known && cell->ratio > 0.0 ? cell->ratio
			                                                   : (double)NAN);
			br_json_key(j, "off");
			br_json_bool(j, cell->off);
			br_json_object_end(j);
		}
		br_json_array_end(j);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_object_end(j);
}

/* A node of a JSON document read through the YAML tree, written back as
 * JSON: plain scalars that are JSON literals stay literals, the rest are strings. */
static void tree_write(br_json_t *j, const br_yaml_node_t *n)
{
	if (n == NULL) {
		br_json_null(j);
		return;
	}
	switch (n->kind) {
	case BR_YAML_MAPPING:
		br_json_object_begin(j);
		for (size_t i = 0; i < n->count; i++) {
			br_json_key(j, n->children[2 * i]->text);
			tree_write(j, n->children[2 * i + 1]);
		}
		br_json_object_end(j);
		return;
	case BR_YAML_SEQUENCE:
		br_json_array_begin(j);
		for (size_t i = 0; i < n->count; i++)
			tree_write(j, n->children[i]);
		br_json_array_end(j);
		return;
	case BR_YAML_SCALAR:
		break;
	}
	double v;
	bool b;
	if (n->plain && br_scalar_is_null(n))
		br_json_null(j);
	else if (n->plain && br_scalar_bool(n->text, &b))
		br_json_bool(j, b);
	else if (n->plain && br_scalar_number(n->text, &v))
		br_json_double(j, v);
	else
		br_json_string(j, n->text);
}

static void rack_write(br_json_t *j, const br_page_rack_t *rack)
{
	br_json_object_begin(j);
	br_json_key(j, "file");
	br_json_string(j, rack->path);
	br_json_key(j, "document");
	tree_write(j, rack->doc.root);
	br_json_key(j, "matrices");
	br_json_array_begin(j);
	for (size_t i = 0; i < rack->matrix_count; i++)
		matrix_write(j, rack, &rack->matrices[i]);
	br_json_array_end(j);
	br_json_object_end(j);
}

/* A profile's tree as columns: node i has parent[i] (-1 for the root), name[i], self[i];
 * then a benchrack record's hottest lines (none for folded and speedscope). */
static void profile_write(br_json_t *j, const br_flame_t *p)
{
	br_json_object_begin(j);
	br_json_key(j, "name");
	br_json_string(j, p->name);
	br_json_key(j, "file");
	br_json_string(j, p->path);
	br_json_key(j, "unit");
	br_json_string(j, p->unit);
	figure(j, "total", p->total);
	br_json_key(j, "stacks");
	br_json_uint(j, p->stacks);
	br_json_key(j, "parent");
	br_json_array_begin(j);
	for (size_t i = 0; i < p->count; i++)
		br_json_int(j, p->parent[i] == BR_FLAME_NO_PARENT ? -1 : (int64_t)p->parent[i]);
	br_json_array_end(j);
	br_json_key(j, "frame");
	br_json_array_begin(j);
	for (size_t i = 0; i < p->count; i++)
		br_json_string(j, p->names[i]);
	br_json_array_end(j);
	br_json_key(j, "self");
	br_json_array_begin(j);
	for (size_t i = 0; i < p->count; i++)
		br_json_double(j, p->self[i]);
	br_json_array_end(j);
	br_json_key(j, "lines");
	br_json_array_begin(j);
	for (size_t i = 0; i < p->line_count; i++) {
		const br_flame_line_t *l = &p->lines[i];
		br_json_object_begin(j);
		br_json_key(j, "file");
		br_json_string(j, l->file);
		br_json_key(j, "line");
		br_json_uint(j, l->line);
		br_json_key(j, "function");
		br_json_string(j, l->function);
		br_json_key(j, "self");
		br_json_double(j, l->self);
		br_json_key(j, "source");
		if (l->source != NULL)
			br_json_string(j, l->source);
		else
			br_json_null(j);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_object_end(j);
}

void br_report_data_write(const br_page_t *page, const char *generated, const char *version,
                          FILE *out)
{
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	br_json_key(&j, "kind");
	br_json_string(&j, BR_CONTRACT_REPORT_PAGE);
	br_json_key(&j, "schema_version");
	br_json_uint(&j, BR_CONTRACT_REPORT_PAGE_VERSION);
	br_json_key(&j, "generated");
	br_json_string(&j, generated);
	br_json_key(&j, "benchrack_version");
	br_json_string(&j, version);
	br_json_key(&j, "warnings");
	strings(&j, page->warnings, page->warning_count);
	br_json_key(&j, "runs");
	br_json_array_begin(&j);
	for (size_t i = 0; i < page->run_count; i++)
		record_write(&j, i, &page->runs[i], is_latest(page, i));
	br_json_array_end(&j);
	br_json_key(&j, "baselines");
	br_json_array_begin(&j);
	for (size_t i = 0; i < page->baseline_count; i++)
		record_write(&j, i, &page->baselines[i], false);
	br_json_array_end(&j);
	br_report_steps_write(&j, page);
	br_json_key(&j, "latest");
	br_json_array_begin(&j);
	for (size_t i = 0; i < page->latest_count; i++)
		latest_write(&j, page, &page->latest[i]);
	br_json_array_end(&j);
	br_json_key(&j, "racks");
	br_json_array_begin(&j);
	for (size_t i = 0; i < page->rack_count; i++)
		rack_write(&j, &page->racks[i]);
	br_json_array_end(&j);
	br_json_key(&j, "profiles");
	br_json_array_begin(&j);
	for (size_t i = 0; i < page->profile_count; i++)
		profile_write(&j, &page->profiles[i]);
	br_json_array_end(&j);
	br_json_object_end(&j);
	br_json_finish(&j);
}
