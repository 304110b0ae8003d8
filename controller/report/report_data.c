#include "report/report_data.h"

#include <math.h>
#include <string.h>

#include "results/json_writer.h"
#include "stats/summary.h"

static void limit(br_json_t *j, const char *key, const br_limit_t *l)
{
	br_json_key(j, key);
	if (l->set)
		br_json_uint(j, l->value);
	else
		br_json_null(j);
}

static void text_or_null(br_json_t *j, const char *key, const char *s)
{
	br_json_key(j, key);
	br_json_string_or_null(j, s[0] != '\0' ? s : NULL);
}

static void figure(br_json_t *j, const char *key, double v)
{
	br_json_key(j, key);
	br_json_double(j, v);
}

static void bench_write(br_json_t *j, const br_bench_record_t *b)
{
	bool measured = b->status == BR_BENCH_MEASURED;
	br_json_object_begin(j);
	br_json_key(j, "name");
	br_json_string(j, b->name);
	br_json_key(j, "status");
	br_json_string(j, br_bench_status_name(b->status));
	text_or_null(j, "reason", measured ? "" : b->reason);
	br_json_key(j, "mode");
	br_json_string(j, b->mode);
	if (measured) {
		br_json_key(j, "n");
		br_json_uint(j, b->n);
		figure(j, "median", b->summary.median);
		figure(j, "p10", b->summary.p10);
		figure(j, "p90", b->summary.p90);
		figure(j, "min", b->summary.min);
		figure(j, "max", b->summary.max);
		figure(j, "mad", b->summary.mad);
		br_json_key(j, "outliers");
		br_json_uint(j, b->summary.outliers);
	}
	br_json_key(j, "stack_bytes");
	if (measured && b->stack_measured)
		br_json_uint(j, b->stack_bytes);
	else
		br_json_null(j);
	br_json_key(j, "heap");
	if (measured && b->heap_known) {
		br_json_object_begin(j);
		br_json_key(j, "peak_bytes");
		br_json_uint(j, b->heap_peak);
		br_json_key(j, "live_bytes");
		br_json_uint(j, b->heap_live);
		br_json_key(j, "allocations");
		br_json_uint(j, b->heap_allocs);
		br_json_object_end(j);
	} else {
		br_json_null(j);
	}
	br_json_key(j, "budgets");
	br_json_object_begin(j);
	limit(j, "max_stack_bytes", &b->budgets.max_stack_bytes);
	limit(j, "max_heap_bytes", &b->budgets.max_heap_bytes);
	limit(j, "max_cycles_per_iteration", &b->budgets.max_cycles_per_iteration);
	br_json_object_end(j);
	br_json_object_end(j);
}

static void size_or_null(br_json_t *j, const char *key, bool known, uint64_t v)
{
	br_json_key(j, key);
	if (known)
		br_json_uint(j, v);
	else
		br_json_null(j);
}

static void record_write(br_json_t *j, size_t id, const br_page_record_t *r)
{
	const br_run_record_t *rec = r->rec;
	br_json_object_begin(j);
	br_json_key(j, "id");
	br_json_uint(j, id);
	br_json_key(j, "file");
	br_json_string(j, r->path);
	br_json_key(j, "timestamp");
	br_json_string(j, rec->timestamp);
	br_json_key(j, "status");
	br_json_string(j, br_record_status_name(rec->status));
	text_or_null(j, "error", rec->status == BR_RECORD_FAILED ? rec->error : "");
	br_json_key(j, "board");
	br_json_string(j, rec->board);
	text_or_null(j, "suite", rec->suite);
	br_json_key(j, "server");
	br_json_string(j, rec->server);
	br_json_key(j, "counter");
	br_json_string(j, rec->counter);
	br_json_key(j, "unit");
	br_json_string(j, rec->unit);
	text_or_null(j, "commit", rec->git_commit);
	text_or_null(j, "build_id", rec->build_id);
	br_json_key(j, "elf");
	br_json_string(j, rec->elf_path);
	size_or_null(j, "text_bytes", rec->sizes_known, rec->text_bytes);
	size_or_null(j, "data_bytes", rec->sizes_known, rec->data_bytes);
	size_or_null(j, "bss_bytes", rec->sizes_known, rec->bss_bytes);
	limit(j, "max_text_bytes", &rec->budgets.max_text_bytes);
	figure(j, "regression_percent", rec->regression_percent);
	br_json_key(j, "benches");
	br_json_array_begin(j);
	for (size_t i = 0; i < rec->bench_count; i++)
		bench_write(j, &rec->benches[i]);
	br_json_array_end(j);
	br_json_object_end(j);
}

/* The samples of each measured bench, with the indices stats/ calls outliers. */
static void samples_write(br_json_t *j, const br_run_record_t *run)
{
	br_json_array_begin(j);
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		if (b->status != BR_BENCH_MEASURED || b->samples == NULL)
			continue;
		br_json_object_begin(j);
		br_json_key(j, "bench");
		br_json_string(j, b->name);
		br_json_key(j, "values");
		br_json_array_begin(j);
		for (size_t k = 0; k < b->n; k++)
			br_json_uint(j, b->samples[k]);
		br_json_array_end(j);
		br_json_key(j, "outliers");
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

static const br_finding_t *finding_for(const br_gate_t *gate, const char *bench,
				       const char *metric)
{
	for (size_t i = 0; gate != NULL && i < gate->count; i++) {
		if (strcmp(gate->findings[i].bench, bench) == 0 &&
		    strcmp(gate->findings[i].metric, metric) == 0)
			return &gate->findings[i];
	}
	return NULL;
}

/* The budget that applies to bench's metric, or NULL. */
static const br_limit_t *budget_for(const br_run_record_t *run, const char *bench,
				    br_metric_t metric)
{
	if (metric == BR_METRIC_TEXT)
		return &run->budgets.max_text_bytes;
	const br_bench_record_t *b = br_run_record_find(run, bench);
	if (b == NULL)
		return NULL;
	switch (metric) {
	case BR_METRIC_COUNT:
		return &b->budgets.max_cycles_per_iteration;
	case BR_METRIC_STACK:
		return &b->budgets.max_stack_bytes;
	case BR_METRIC_HEAP:
		return &b->budgets.max_heap_bytes;
	case BR_METRIC_TEXT:
		break;
	}
	return NULL;
}

static void row_tail(br_json_t *j, const br_run_record_t *run, const br_gate_t *gate,
		     const char *bench, br_metric_t metric, const char *metric_name)
{
	const br_limit_t *lim = budget_for(run, bench, metric);
	limit(j, "budget", lim != NULL ? lim : &(br_limit_t){0});
	const br_finding_t *f = finding_for(gate, bench, metric_name);
	br_json_key(j, "finding");
	if (f == NULL) {
		br_json_null(j);
		return;
	}
	br_json_object_begin(j);
	br_json_key(j, "kind");
	br_json_string(j, br_finding_kind_name(f->kind));
	br_json_key(j, "message");
	br_json_string(j, f->message);
	br_json_object_end(j);
}

static void diff_row_write(br_json_t *j, const br_run_record_t *run, const br_gate_t *gate,
			   const br_diff_row_t *r)
{
	char percent[48];
	br_diff_format_percent(r, percent, sizeof(percent));
	br_json_object_begin(j);
	br_json_key(j, "bench");
	br_json_string(j, r->bench);
	br_json_key(j, "metric");
	br_json_string(j, r->metric_name);
	br_json_key(j, "old");
	if (r->has_old)
		br_json_double(j, r->old_value);
	else
		br_json_null(j);
	br_json_key(j, "new");
	if (r->has_new)
		br_json_double(j, r->new_value);
	else
		br_json_null(j);
	br_json_key(j, "change_percent");
	if (r->percent_defined && isfinite(r->percent))
		br_json_double(j, r->percent);
	else
		br_json_null(j);
	br_json_key(j, "change_text");
	br_json_string(j, percent);
	br_json_key(j, "change");
	br_json_string(j, br_change_name(r->change));
	row_tail(j, run, gate, r->bench, r->metric, r->metric_name);
	br_json_object_end(j);
}

/* A row with no baseline: the figure, its budget and the gate's word on it. */
static void plain_row_write(br_json_t *j, const br_run_record_t *run, const br_gate_t *gate,
			    const char *bench, br_metric_t metric, bool known, double value)
{
	char name[32];
	br_metric_name(metric, run->unit, name, sizeof(name));
	br_json_object_begin(j);
	br_json_key(j, "bench");
	br_json_string(j, bench);
	br_json_key(j, "metric");
	br_json_string(j, name);
	br_json_key(j, "old");
	br_json_null(j);
	br_json_key(j, "new");
	if (known)
		br_json_double(j, value);
	else
		br_json_null(j);
	br_json_key(j, "change_percent");
	br_json_null(j);
	br_json_key(j, "change_text");
	br_json_string(j, "-");
	br_json_key(j, "change");
	br_json_string(j, known ? "no baseline" : "not measured");
	row_tail(j, run, gate, bench, metric, name);
	br_json_object_end(j);
}

static void rows_write(br_json_t *j, const br_run_record_t *run, const br_page_latest_t *l)
{
	br_json_array_begin(j);
	if (l->diff != NULL) {
		for (size_t i = 0; i < l->diff->count; i++)
			diff_row_write(j, run, l->gate, &l->diff->rows[i]);
		br_json_array_end(j);
		return;
	}
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		bool m = b->status == BR_BENCH_MEASURED;
		plain_row_write(j, run, l->gate, b->name, BR_METRIC_COUNT, m, b->summary.median);
		plain_row_write(j, run, l->gate, b->name, BR_METRIC_STACK, m && b->stack_measured,
				b->stack_bytes);
		if (b->heap_known)
			plain_row_write(j, run, l->gate, b->name, BR_METRIC_HEAP, m, b->heap_peak);
	}
	plain_row_write(j, run, l->gate, BR_DIFF_FIRMWARE, BR_METRIC_TEXT, run->sizes_known,
			(double)run->text_bytes);
	br_json_array_end(j);
}

static void latest_write(br_json_t *j, const br_page_t *page, const br_page_latest_t *l)
{
	const br_page_record_t *r = &page->runs[l->run];
	br_report_t report = {.run = r->rec,
			      .run_path = r->path,
			      .diff = l->diff,
			      .baseline_path = l->has_baseline ? page->baselines[l->baseline].path : NULL,
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
	br_json_key(j, "gate_checked");
	br_json_bool(j, l->gate != NULL);
	br_json_key(j, "samples");
	samples_write(j, r->rec);
	br_json_key(j, "rows");
	rows_write(j, r->rec, l);
	br_json_key(j, "findings");
	br_json_array_begin(j);
	for (size_t i = 0; l->gate != NULL && i < l->gate->count; i++) {
		const br_finding_t *f = &l->gate->findings[i];
		br_json_object_begin(j);
		br_json_key(j, "kind");
		br_json_string(j, br_finding_kind_name(f->kind));
		br_json_key(j, "bench");
		br_json_string(j, f->bench);
		br_json_key(j, "metric");
		br_json_string(j, f->metric);
		br_json_key(j, "message");
		br_json_string(j, f->message);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_key(j, "symbols");
	br_json_array_begin(j);
	for (size_t i = 0; i < l->symbol_count; i++) {
		br_json_object_begin(j);
		br_json_key(j, "name");
		br_json_string(j, l->symbols[i].name);
		br_json_key(j, "kind");
		br_json_string(j, l->symbols[i].kind);
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

static void baseline_write(br_json_t *j, size_t id, const br_page_record_t *r)
{
	const br_run_record_t *rec = r->rec;
	br_json_object_begin(j);
	br_json_key(j, "id");
	br_json_uint(j, id);
	br_json_key(j, "file");
	br_json_string(j, r->path);
	br_json_key(j, "board");
	br_json_string(j, rec->board);
	text_or_null(j, "suite", rec->suite);
	br_json_key(j, "unit");
	br_json_string(j, rec->unit);
	size_or_null(j, "text_bytes", rec->sizes_known, rec->text_bytes);
	br_json_key(j, "benches");
	br_json_array_begin(j);
	for (size_t i = 0; i < rec->bench_count; i++)
		bench_write(j, &rec->benches[i]);
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
			br_json_double(j, cell->known && cell->ratio > 0.0 ? cell->ratio : (double)NAN);
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

static void rack_write(br_json_t *j, const br_page_rack_t *rack)
{
	br_json_object_begin(j);
	br_json_key(j, "name");
	br_json_string(j, rack->name);
	br_json_key(j, "file");
	br_json_string(j, rack->path);
	br_json_key(j, "exit_code");
	br_json_int(j, rack->exit_code);
	br_json_key(j, "boards");
	br_json_array_begin(j);
	for (size_t i = 0; i < rack->board_count; i++) {
		const br_page_rack_board_t *b = &rack->boards[i];
		br_json_object_begin(j);
		br_json_key(j, "name");
		br_json_string(j, b->name);
		br_json_key(j, "board_file");
		br_json_string(j, b->board_file);
		br_json_key(j, "outcome");
		br_json_string(j, b->outcome);
		br_json_key(j, "health");
		br_json_object_begin(j);
		br_json_key(j, "probed");
		br_json_bool(j, b->probed);
		br_json_key(j, "healthy");
		br_json_bool(j, b->healthy);
		br_json_key(j, "reason");
		br_json_string(j, b->health_reason);
		br_json_key(j, "failed_attempts");
		strings(j, b->health_failed, b->health_failed_count);
		br_json_object_end(j);
		br_json_key(j, "suites");
		br_json_array_begin(j);
		for (size_t k = 0; k < b->suite_count; k++) {
			const br_page_rack_suite_t *s = &b->suites[k];
			br_json_object_begin(j);
			br_json_key(j, "suite");
			br_json_string(j, s->suite);
			br_json_key(j, "outcome");
			br_json_string(j, s->outcome);
			br_json_key(j, "reason");
			br_json_string(j, s->reason);
			br_json_key(j, "attempts");
			br_json_uint(j, s->attempts);
			br_json_key(j, "failed_attempts");
			strings(j, s->failed, s->failed_count);
			text_or_null(j, "run", s->run_path);
			br_json_key(j, "run_id");
			if (s->has_run)
				br_json_uint(j, s->run);
			else
				br_json_null(j);
			br_json_object_end(j);
		}
		br_json_array_end(j);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_key(j, "matrices");
	br_json_array_begin(j);
	for (size_t i = 0; i < rack->matrix_count; i++)
		matrix_write(j, rack, &rack->matrices[i]);
	br_json_array_end(j);
	br_json_object_end(j);
}

void br_report_data_write(const br_page_t *page, const char *generated, const char *version,
			  FILE *out)
{
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	br_json_key(&j, "format");
	br_json_string(&j, BR_REPORT_DATA_FORMAT);
	br_json_key(&j, "version");
	br_json_uint(&j, BR_REPORT_DATA_VERSION);
	br_json_key(&j, "generated");
	br_json_string(&j, generated);
	br_json_key(&j, "benchrack_version");
	br_json_string(&j, version);
	br_json_key(&j, "warnings");
	strings(&j, page->warnings, page->warning_count);
	br_json_key(&j, "runs");
	br_json_array_begin(&j);
	for (size_t i = 0; i < page->run_count; i++)
		record_write(&j, i, &page->runs[i]);
	br_json_array_end(&j);
	br_json_key(&j, "baselines");
	br_json_array_begin(&j);
	for (size_t i = 0; i < page->baseline_count; i++)
		baseline_write(&j, i, &page->baselines[i]);
	br_json_array_end(&j);
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
	br_json_array_end(&j);
	br_json_object_end(&j);
	br_json_finish(&j);
}
