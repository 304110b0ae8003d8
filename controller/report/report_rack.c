#include "report/report_rack.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "yaml/scalar.h"
#include "yaml/yaml_tree.h"
#include "results/contract.h"
#include "stats/summary.h"

/* Reading: every accessor names the document, the node's line:col and what it expected. */
typedef struct rack_reader {
	const char *path;
	br_error_t *err;
} rack_reader_t;

static br_status_t expected(const rack_reader_t *r, const br_yaml_node_t *node, const char *key,
                            const char *form)
{
	if (node == NULL)
		return br_error_set(r->err, BR_ERR_INPUT,
		                    "%s: not a rack document: key \"%s\" missing; expected %s "
		                    "(a document `benchrack rack` wrote)",
		                    r->path, key, form);
	return br_error_set(r->err, BR_ERR_INPUT, "%s:%u:%u: \"%s\": expected %s", r->path,
	                    node->mark.line, node->mark.column, key, form);
}

static br_status_t get_node(const rack_reader_t *r, const br_yaml_node_t *map, const char *key,
                            br_yaml_kind_t kind, const br_yaml_node_t **out)
{
	*out = br_yaml_map_get(map, key);
	if (*out == NULL || (*out)->kind != kind)
		return expected(r, *out, key, br_yaml_kind_name(kind));
	return BR_OK;
}

/* A string, or "" for null when nullable. */
static br_status_t get_text(const rack_reader_t *r, const br_yaml_node_t *map, const char *key,
                            bool nullable, char *out, size_t cap)
{
	const br_yaml_node_t *n = br_yaml_map_get(map, key);
	if (n != NULL && n->kind == BR_YAML_SCALAR && nullable && n->plain &&
	    br_scalar_is_null(n)) {
		out[0] = '\0';
		return BR_OK;
	}
	if (n == NULL || n->kind != BR_YAML_SCALAR || n->plain)
		return expected(r, n, key, nullable ? "a string or null" : "a string");
	snprintf(out, cap, "%s", n->text);
	return BR_OK;
}

static br_status_t get_bool(const rack_reader_t *r, const br_yaml_node_t *map, const char *key,
                            bool *out)
{
	const br_yaml_node_t *n = br_yaml_map_get(map, key);
	if (n == NULL || n->kind != BR_YAML_SCALAR || !n->plain || !br_scalar_bool(n->text, out))
		return expected(r, n, key, "true or false");
	return BR_OK;
}

static br_status_t get_number(const rack_reader_t *r, const br_yaml_node_t *map, const char *key,
                              double *out)
{
	const br_yaml_node_t *n = br_yaml_map_get(map, key);
	if (n == NULL || n->kind != BR_YAML_SCALAR || !n->plain || !br_scalar_number(n->text, out))
		return expected(r, n, key, "a number");
	return BR_OK;
}

static br_status_t get_reasons(const rack_reader_t *r, const br_yaml_node_t *map, const char *key,
                               char ***out, size_t *count)
{
	const br_yaml_node_t *list;
	br_status_t st = get_node(r, map, key, BR_YAML_SEQUENCE, &list);
	if (st != BR_OK)
		return st;
	*out = list->count > 0 ? xcalloc(list->count, sizeof(**out)) : NULL;
	*count = 0;
	for (size_t i = 0; i < list->count; i++) {
		const br_yaml_node_t *n = list->children[i];
		if (n->kind != BR_YAML_SCALAR || n->plain)
			return expected(r, n, key, "a list of strings");
		(*out)[(*count)++] = xstrdup(n->text);
	}
	return BR_OK;
}

static br_status_t outcome_read(const rack_reader_t *r, const br_yaml_node_t *map, char *out,
                                size_t cap)
{
	static const char *const outcomes[] = {"pass", "regression", "infra", "not-run"};
	br_status_t st = get_text(r, map, "outcome", false, out, cap);
	if (st != BR_OK)
		return st;
	for (size_t i = 0; i < sizeof(outcomes) / sizeof(outcomes[0]); i++) {
		if (strcmp(out, outcomes[i]) == 0)
			return BR_OK;
	}
	return expected(r, br_yaml_map_get(map, "outcome"), "outcome",
	                "one of pass, regression, infra, not-run");
}

static br_status_t suite_read(const rack_reader_t *r, const br_yaml_node_t *n,
                              br_page_rack_suite_t *s)
{
	if (n->kind != BR_YAML_MAPPING)
		return expected(r, n, "suites", "a list of mappings");
	double attempts;
	br_status_t st = get_text(r, n, "suite", false, s->suite, sizeof(s->suite));
	if (st == BR_OK)
		st = outcome_read(r, n, s->outcome, sizeof(s->outcome));
	if (st == BR_OK)
		st = get_text(r, n, "reason", false, s->reason, sizeof(s->reason));
	if (st == BR_OK)
		st = get_number(r, n, "attempts", &attempts);
	if (st == BR_OK)
		st = get_reasons(r, n, "failed_attempts", &s->failed, &s->failed_count);
	if (st == BR_OK)
		st = get_text(r, n, "run", true, s->run_path, sizeof(s->run_path));
	if (st != BR_OK)
		return st;
	s->attempts = attempts >= 0 && attempts < 1e6 ? (unsigned)attempts : 0;
	return BR_OK;
}

static br_status_t board_read(br_page_t *page, const rack_reader_t *r, const br_yaml_node_t *n,
                              br_page_rack_board_t *b)
{
	if (n->kind != BR_YAML_MAPPING)
		return expected(r, n, "boards", "a list of mappings");
	const br_yaml_node_t *health, *suites;
	br_status_t st = get_text(r, n, "name", false, b->name, sizeof(b->name));
	if (st == BR_OK)
		st = get_text(r, n, "board_file", false, b->board_file, sizeof(b->board_file));
	if (st == BR_OK)
		st = outcome_read(r, n, b->outcome, sizeof(b->outcome));
	if (st == BR_OK)
		st = get_node(r, n, "health", BR_YAML_MAPPING, &health);
	if (st == BR_OK)
		st = get_bool(r, health, "probed", &b->probed);
	if (st == BR_OK)
		st = get_bool(r, health, "healthy", &b->healthy);
	if (st == BR_OK)
		st = get_text(r, health, "reason", false, b->health_reason,
		              sizeof(b->health_reason));
	if (st == BR_OK)
		st = get_reasons(r, health, "failed_attempts", &b->health_failed,
		                 &b->health_failed_count);
	if (st == BR_OK)
		st = get_node(r, n, "suites", BR_YAML_SEQUENCE, &suites);
	if (st != BR_OK)
		return st;
	b->suites = suites->count > 0 ? xcalloc(suites->count, sizeof(*b->suites)) : NULL;
	for (size_t i = 0; i < suites->count; i++) {
		b->suite_count = i + 1;
		st = suite_read(r, suites->children[i], &b->suites[i]);
		if (st != BR_OK)
			return st;
		if (b->suites[i].run_path[0] != '\0') {
			br_page_add_run_file(page, b->suites[i].run_path);
			br_page_run_name(page, b->suites[i].run_path, b->name);
		}
	}
	return BR_OK;
}

br_status_t br_page_rack_read(br_page_t *page, const char *path, br_page_rack_t *out,
                              br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s", path);
	br_status_t st = br_yaml_load(path, &out->doc, err);
	if (st != BR_OK)
		return st;
	rack_reader_t r = {path, err};
	const br_yaml_node_t *root = out->doc.root, *boards;
	char kind[16];
	double exit_code = 0;
	if (root == NULL || root->kind != BR_YAML_MAPPING)
		st = br_error_set(err, BR_ERR_INPUT,
		                  "%s: not a rack document: expected a mapping with \"kind\": "
		                  "\"rack\"",
		                  path);
	if (st == BR_OK)
		st = get_text(&r, root, "kind", false, kind, sizeof(kind));
	if (st == BR_OK && strcmp(kind, "rack") != 0)
		st = expected(&r, br_yaml_map_get(root, "kind"), "kind", "\"rack\"");
	/* a document from before versioning has none: it is version 1 */
	double version = BR_CONTRACT_RACK_VERSION;
	if (st == BR_OK && br_yaml_map_get(root, "schema_version") != NULL)
		st = get_number(&r, root, "schema_version", &version);
	if (st == BR_OK && version != BR_CONTRACT_RACK_VERSION)
		st = expected(&r, br_yaml_map_get(root, "schema_version"), "schema_version",
		              "1 (a rack document of another version: read it with the benchrack "
		              "that wrote it)");
	if (st == BR_OK)
		st = get_text(&r, root, "name", false, out->name, sizeof(out->name));
	if (st == BR_OK)
		st = get_number(&r, root, "exit_code", &exit_code);
	if (st == BR_OK)
		st = get_node(&r, root, "boards", BR_YAML_SEQUENCE, &boards);
	if (st == BR_OK) {
		out->exit_code = (int)exit_code;
		out->boards =
		    boards->count > 0 ? xcalloc(boards->count, sizeof(*out->boards)) : NULL;
		for (size_t i = 0; i < boards->count && st == BR_OK; i++) {
			out->board_count = i + 1;
			st = board_read(page, &r, boards->children[i], &out->boards[i]);
		}
	}
	if (st != BR_OK)
		br_page_rack_free(out);
	return st;
}

/* The matrix of suite and unit in rack, made when missing. */
static br_page_matrix_t *matrix_for(br_page_rack_t *rack, const br_run_record_t *run)
{
	for (size_t i = 0; i < rack->matrix_count; i++) {
		br_page_matrix_t *m = &rack->matrices[i];
		if (strcmp(m->suite, run->suite) == 0 && strcmp(m->unit, run->unit) == 0)
			return m;
	}
	rack->matrices =
	    xrealloc(rack->matrices, (rack->matrix_count + 1) * sizeof(*rack->matrices));
	br_page_matrix_t *m = &rack->matrices[rack->matrix_count++];
	memset(m, 0, sizeof(*m));
	snprintf(m->suite, sizeof(m->suite), "%s", run->suite);
	snprintf(m->unit, sizeof(m->unit), "%s", run->unit);
	m->off_percent = run->regression_percent;
	return m;
}

static size_t bench_column(br_page_matrix_t *m, const char *name)
{
	for (size_t i = 0; i < m->bench_count; i++) {
		if (strcmp(m->benches[i], name) == 0)
			return i;
	}
	m->benches = xrealloc(m->benches, (m->bench_count + 1) * sizeof(*m->benches));
	snprintf(m->benches[m->bench_count], sizeof(m->benches[0]), "%s", name);
	return m->bench_count++;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Cells, the rack median per bench (the median over the boards) and what is off. */
static void matrix_fill(br_page_matrix_t *m, const br_page_t *page, const br_page_rack_t *rack,
                        const size_t *row_runs)
{
	m->cells = xcalloc(m->row_count * (m->bench_count ? m->bench_count : 1), sizeof(*m->cells));
	m->rack_median = xcalloc(m->bench_count ? m->bench_count : 1, sizeof(*m->rack_median));
	m->row_off = xcalloc(m->row_count ? m->row_count : 1, sizeof(*m->row_off));
	double *column = xcalloc(m->row_count ? m->row_count : 1, sizeof(*column));
	(void)rack;
	for (size_t c = 0; c < m->bench_count; c++) {
		size_t n = 0;
		for (size_t r = 0; r < m->row_count; r++) {
			const br_bench_record_t *b =
			    br_run_record_find(page->runs[row_runs[r]].rec, m->benches[c]);
			br_page_cell_t *cell = &m->cells[r * m->bench_count + c];
			if (b == NULL || b->status != BR_BENCH_MEASURED)
				continue;
			cell->known = true;
			cell->median = b->summary.median;
			column[n++] = b->summary.median;
		}
		qsort(column, n, sizeof(*column), compare_doubles);
		m->rack_median[c] =
		    n > 0 ? br_stats_percentile_sorted(column, n, 50.0) : (double)NAN;
		for (size_t r = 0; r < m->row_count; r++) {
			br_page_cell_t *cell = &m->cells[r * m->bench_count + c];
			if (!cell->known || !(m->rack_median[c] > 0.0))
				continue;
			cell->ratio = cell->median / m->rack_median[c];
			cell->off = fabs(cell->ratio - 1.0) * 100.0 > m->off_percent;
			m->row_off[r] = m->row_off[r] || cell->off;
		}
	}
	free(column);
}

void br_page_rack_finish(const br_page_t *page, br_page_rack_t *rack)
{
	/* Row r of matrix m is the run row_runs[m][r] of board rows[r]. */
	size_t **row_runs = NULL;
	for (size_t i = 0; i < rack->board_count; i++) {
		br_page_rack_board_t *b = &rack->boards[i];
		for (size_t k = 0; k < b->suite_count; k++) {
			br_page_rack_suite_t *s = &b->suites[k];
			s->has_run =
			    s->run_path[0] != '\0' && br_page_run_find(page, s->run_path, &s->run);
			if (!s->has_run)
				continue;
			const br_run_record_t *run = page->runs[s->run].rec;
			size_t before = rack->matrix_count;
			br_page_matrix_t *m = matrix_for(rack, run);
			if (rack->matrix_count != before) {
				row_runs =
				    xrealloc(row_runs, rack->matrix_count * sizeof(*row_runs));
				row_runs[rack->matrix_count - 1] = NULL;
			}
			size_t mi = (size_t)(m - rack->matrices);
			for (size_t c = 0; c < run->bench_count; c++)
				bench_column(m, run->benches[c].name);
			m->rows = xrealloc(m->rows, (m->row_count + 1) * sizeof(*m->rows));
			row_runs[mi] =
			    xrealloc(row_runs[mi], (m->row_count + 1) * sizeof(**row_runs));
			m->rows[m->row_count] = i;
			row_runs[mi][m->row_count] = s->run;
			m->row_count++;
		}
	}
	for (size_t i = 0; i < rack->matrix_count; i++) {
		matrix_fill(&rack->matrices[i], page, rack, row_runs[i]);
		free(row_runs[i]);
	}
	free(row_runs);
}

br_status_t br_page_add_rack_file(br_page_t *page, const char *path, br_error_t *err)
{
	br_page_rack_t rack;
	br_status_t st = br_page_rack_read(page, path, &rack, err);
	if (st != BR_OK)
		return st;
	page->racks = xrealloc(page->racks, (page->rack_count + 1) * sizeof(*page->racks));
	page->racks[page->rack_count++] = rack;
	return BR_OK;
}
