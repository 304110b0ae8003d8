/* --format json: every board's record with its comparison and gate. */
#include "results/format.h"
#include "results/json_writer.h"
#include "results/run_json.h"

void br_format_json_comparison(br_json_t *j, const br_report_t *r)
{
	br_json_key(j, "comparison");
	if (r->diff == NULL) {
		br_json_null(j);
		return;
	}
	br_json_object_begin(j);
	br_json_key(j, "baseline");
	br_json_string_or_null(j, r->baseline_path);
	br_json_key(j, "rows");
	br_json_array_begin(j);
	for (size_t i = 0; i < r->diff->count; i++) {
		const br_diff_row_t *row = &r->diff->rows[i];
		br_json_object_begin(j);
		br_json_key(j, "bench");
		br_json_string(j, row->bench);
		br_json_key(j, "metric");
		br_json_string(j, row->metric_name);
		br_json_key(j, "old");
		if (row->has_old)
			br_json_double(j, row->old_value);
		else
			br_json_null(j);
		br_json_key(j, "new");
		if (row->has_new)
			br_json_double(j, row->new_value);
		else
			br_json_null(j);
		br_json_key(j, "change_percent");
		if (row->has_old && row->has_new && row->percent_defined)
			br_json_double(j, row->percent);
		else
			br_json_null(j);
		br_json_key(j, "verdict");
		br_json_string(j, br_change_name(row->change));
		char words[BR_DIFF_WORDS_BYTES];
		br_diff_describe(row, words, sizeof(words));
		br_json_key(j, "words");
		br_json_string(j, words);
		br_json_key(j, "class");
		br_json_string(j, br_metric_class_name(row->metric_class));
		/* the figures of the test that decided, where one was made */
		const br_shift_t *t = br_diff_row_evidence(row);
		bool rel = row->tested && t->bounded && row->old_value != 0.0;
		br_json_key(j, "interval_percent");
		if (rel) {
			double scale =
			    100.0 / (row->old_value < 0 ? -row->old_value : row->old_value);
			br_json_array_begin(j);
			br_json_double(j, t->low * scale);
			br_json_double(j, t->high * scale);
			br_json_array_end(j);
		} else {
			br_json_null(j);
		}
		br_json_key(j, "p_value");
		if (row->tested)
			br_json_double(j, t->p_value);
		else
			br_json_null(j);
		br_json_key(j, "evidence");
		if (row->tested)
			br_json_string(j, row->by_pairs                      ? "pairs"
			                  : row->by_runs && row->runs.df > 0 ? "runs"
			                                                     : "samples");
		else
			br_json_null(j);
		br_json_key(j, "baseline_runs");
		if (row->by_runs)
			br_json_uint(j, row->runs.runs);
		else
			br_json_null(j);
		br_json_key(j, "new_runs");
		if (row->by_runs)
			br_json_uint(j, row->runs.new_runs);
		else
			br_json_null(j);
		br_json_key(j, "drift_known");
		if (row->by_runs)
			br_json_bool(j, row->runs.df > 0);
		else
			br_json_null(j);
		br_json_key(j, "samples_needed");
		if (row->samples_needed > 0)
			br_json_uint(j, row->samples_needed);
		else
			br_json_null(j);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_object_end(j);
}

void br_format_json_gate(br_json_t *j, const br_report_t *r)
{
	br_json_key(j, "gate");
	if (r->gate == NULL) {
		br_json_null(j);
		return;
	}
	br_json_object_begin(j);
	br_json_key(j, "passed");
	br_json_bool(j, r->gate->failures == 0 && r->gate->not_run == 0);
	br_json_key(j, "compared_with_baseline");
	br_json_bool(j, r->gate->compared);
	br_json_key(j, "findings");
	br_json_array_begin(j);
	for (size_t i = 0; i < r->gate->count; i++) {
		const br_finding_t *f = &r->gate->findings[i];
		br_json_object_begin(j);
		br_json_key(j, "kind");
		br_json_string(j, br_finding_kind_name(f->kind));
		br_json_key(j, "bench");
		br_json_string(j, f->bench);
		br_json_key(j, "metric");
		br_json_string(j, f->metric);
		br_json_key(j, "percent");
		br_json_double(j, f->percent);
		br_json_key(j, "message");
		br_json_string(j, f->message);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_object_end(j);
}

void br_format_json_write(const br_report_t *reports, size_t count, FILE *out)
{
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	br_json_key(&j, "schema_version");
	br_json_uint(&j, BR_RESULTS_SCHEMA_VERSION);
	br_json_key(&j, "kind");
	br_json_string(&j, "report");
	br_json_key(&j, "verdict");
	br_json_string(&j, br_report_verdict_name(br_report_verdict(reports, count)));
	br_json_key(&j, "runs");
	br_json_array_begin(&j);
	for (size_t i = 0; i < count; i++) {
		br_json_object_begin(&j);
		br_run_json_write_fields(&j, reports[i].run);
		br_json_key(&j, "run_file");
		if (reports[i].run_path != NULL)
			br_json_string(&j, reports[i].run_path);
		else
			br_json_null(&j);
		br_format_json_comparison(&j, &reports[i]);
		br_format_json_gate(&j, &reports[i]);
		br_json_object_end(&j);
	}
	br_json_array_end(&j);
	br_json_object_end(&j);
	br_json_finish(&j);
}
