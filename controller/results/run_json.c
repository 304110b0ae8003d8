#include "results/run_json.h"

#include "results/atomic_file.h"
#include "results/metric_rule.h"

static void write_text_or_null(br_json_t *j, const char *key, const char *text)
{
	br_json_key(j, key);
	br_json_string_or_null(j, text[0] != '\0' ? text : NULL);
}

static void write_summary(br_json_t *j, const br_summary_t *s)
{
	br_json_key(j, "n");
	br_json_uint(j, s->n);
	br_json_key(j, "median");
	br_json_double(j, s->median);
	br_json_key(j, "p10");
	br_json_double(j, s->p10);
	br_json_key(j, "p90");
	br_json_double(j, s->p90);
	br_json_key(j, "p95");
	br_json_double(j, s->p95);
	br_json_key(j, "p99");
	br_json_double(j, s->p99);
	br_json_key(j, "min");
	br_json_double(j, s->min);
	br_json_key(j, "max");
	br_json_double(j, s->max);
	br_json_key(j, "mean");
	br_json_double(j, s->mean);
	br_json_key(j, "mad");
	br_json_double(j, s->mad);
	br_json_key(j, "cv_median");
	br_json_double(j, s->cv_median);
	br_json_key(j, "outliers");
	br_json_uint(j, s->outliers);
}

/* Only the limits that are set, in a fixed order. */
static void write_budgets(br_json_t *j, const br_budgets_t *b, bool with_text)
{
	br_json_key(j, "budgets");
	br_json_object_begin(j);
	const struct {
		const char *key;
		const br_limit_t *limit;
	} limits[] = {
	    {"max_stack_bytes", &b->max_stack_bytes},
	    {"max_heap_bytes", &b->max_heap_bytes},
	    {"max_cycles_per_iteration", &b->max_cycles_per_iteration},
	    {"max_text_bytes", &b->max_text_bytes},
	};
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		if (!limits[i].limit->set || (i == 3 && !with_text))
			continue;
		br_json_key(j, limits[i].key);
		br_json_uint(j, limits[i].limit->value);
	}
	br_json_object_end(j);
}

/* The samples of a run (never of a baseline), when it has them. */
static void write_samples(br_json_t *j, const uint64_t *samples, size_t n)
{
	br_json_key(j, "samples");
	br_json_array_begin(j);
	for (size_t i = 0; i < n; i++)
		br_json_uint(j, samples[i]);
	br_json_array_end(j);
}

/* The other counters read around the same iterations. */
static void write_counters(br_json_t *j, const br_bench_record_t *b, bool baseline)
{
	br_json_key(j, "counters");
	br_json_array_begin(j);
	for (size_t i = 0; i < b->counter_count; i++) {
		const br_bench_counter_t *c = &b->counters[i];
		br_json_object_begin(j);
		br_json_key(j, "name");
		br_json_string(j, c->name);
		br_json_key(j, "unit");
		br_json_string(j, c->unit);
		write_summary(j, &c->summary);
		if (!baseline && c->samples != NULL)
			write_samples(j, c->samples, c->summary.n);
		br_json_object_end(j);
	}
	br_json_array_end(j);
}

/* The per-metric regression limits, only when the suite gave any (a record
 * without them reads as it did before they existed). */
static void write_regression(br_json_t *j, const br_regression_limits_t *r)
{
	bool any = false;
	for (size_t i = 0; i < BR_REGRESSION_METRICS; i++)
		any = any || r->by_metric[i].set;
	if (!any)
		return;
	br_json_key(j, "regression");
	br_json_object_begin(j);
	for (size_t i = 0; i < BR_REGRESSION_METRICS; i++) {
		const br_regression_limit_t *l = &r->by_metric[i];
		if (!l->set)
			continue;
		br_json_key(j, br_regression_metric_names[i]);
		br_json_object_begin(j);
		if (l->has_percent) {
			br_json_key(j, "percent");
			br_json_double(j, l->percent);
		}
		if (l->has_amount) {
			br_json_key(j, "amount");
			br_json_double(j, l->amount);
		}
		br_json_object_end(j);
	}
	br_json_object_end(j);
}

/* check/run --against: which side of the comparison this record is. */
static void write_ab(br_json_t *j, const br_record_ab_t *ab)
{
	if (ab->role[0] == '\0')
		return; /* a plain run: no key, as before --against existed */
	br_json_key(j, "against");
	br_json_object_begin(j);
	br_json_key(j, "role");
	br_json_string(j, ab->role);
	br_json_key(j, "ref");
	br_json_string(j, ab->ref);
	br_json_key(j, "base_commit");
	br_json_string(j, ab->base_commit);
	write_text_or_null(j, "head_commit", ab->head_commit);
	br_json_object_end(j);
}

/* One firmware's object: path, build-id (or the file's SHA-256), commit,
 * toolchain, sizes. */
static void write_firmware_object(br_json_t *j, const br_firmware_info_t *fw)
{
	br_json_object_begin(j);
	br_json_key(j, "path");
	br_json_string(j, fw->elf_path);
	write_text_or_null(j, "build_id", fw->build_id);
	if (fw->sha256[0] != '\0') {
		br_json_key(j, "sha256");
		br_json_string(j, fw->sha256);
	}
	write_text_or_null(j, "git_commit", fw->git_commit);
	write_text_or_null(j, "toolchain", fw->toolchain);
	const char *keys[] = {"text_bytes", "data_bytes", "bss_bytes"};
	const uint64_t values[] = {fw->text_bytes, fw->data_bytes, fw->bss_bytes};
	for (size_t i = 0; i < 3; i++) {
		br_json_key(j, keys[i]);
		if (fw->sizes_known)
			br_json_uint(j, values[i]);
		else
			br_json_null(j);
	}
	br_json_object_end(j);
}

/* The run's firmware, or null when it has none of its own (its entries name
 * several ELFs, each bench carrying its own). */
static void write_firmware(br_json_t *j, const br_run_record_t *run)
{
	br_json_key(j, "firmware");
	if (run->no_firmware) {
		br_json_null(j);
		return;
	}
	write_firmware_object(j, &run->firmware);
}

static void write_bench(br_json_t *j, const br_bench_record_t *b, bool baseline, bool noisy)
{
	br_json_object_begin(j);
	br_json_key(j, "name");
	br_json_string(j, b->name);
	br_json_key(j, "status");
	br_json_string(j, br_bench_status_name(b->status));
	write_text_or_null(j, "reason", b->reason);
	br_json_key(j, "mode");
	br_json_string(j, b->mode[0] != '\0' ? b->mode : "stub");
	write_text_or_null(j, "elf", b->elf_path);
	if (b->has_firmware) {
		br_json_key(j, "firmware");
		write_firmware_object(j, &b->firmware);
	}
	if (b->status == BR_BENCH_MEASURED) {
		br_json_key(j, "warmup");
		br_json_uint(j, b->warmup);
		write_summary(j, &b->summary);
		br_json_key(j, "stack_bytes");
		if (b->stack_measured)
			br_json_uint(j, b->stack_bytes);
		else
			br_json_null(j);
		br_json_key(j, "heap");
		if (b->heap_known) {
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
		br_json_key(j, "calibration");
		if (b->calibrated) {
			br_json_object_begin(j);
			br_json_key(j, "method");
			br_json_string(j, b->calibration_method);
			br_json_key(j, "median");
			br_json_double(j, b->calibration_median);
			br_json_object_end(j);
		} else {
			br_json_null(j);
		}
	}
	if (b->counter_count > 0 && b->status == BR_BENCH_MEASURED)
		write_counters(j, b, baseline);
	write_budgets(j, &b->budgets, b->has_firmware);
	if (!baseline && b->status == BR_BENCH_MEASURED) {
		br_json_key(j, "wall_seconds");
		br_json_double(j, b->wall_seconds);
		if (b->halts != 0) {
			br_json_key(j, "halts");
			br_json_uint(j, b->halts);
		}
	}
	/* a baseline keeps the samples of a noisy figure: a later run's test
	 * compares sample sets (results/metric_rule.h) */
	if ((!baseline || noisy) && b->status == BR_BENCH_MEASURED && b->samples != NULL)
		write_samples(j, b->samples, b->n);
	/* and the runs it keeps of it: the unit of a stored baseline's test
	 * (stats/run_shift.h); of a run, the launches it took (check's further
	 * runs, an interleaved run's rounds) */
	if (noisy && b->status == BR_BENCH_MEASURED && b->run_count > 0) {
		br_json_key(j, "runs");
		br_json_array_begin(j);
		for (size_t i = 0; i < b->run_count; i++) {
			br_json_object_begin(j);
			br_json_key(j, "median");
			br_json_double(j, b->runs[i].median);
			br_json_key(j, "build");
			if (b->runs[i].build[0] != '\0')
				br_json_string(j, b->runs[i].build);
			else
				br_json_null(j);
			br_json_object_end(j);
		}
		br_json_array_end(j);
	}
	br_json_object_end(j);
}

void br_run_json_write_fields(br_json_t *j, const br_run_record_t *run)
{
	bool baseline = run->kind == BR_RECORD_BASELINE;
	bool noisy = br_metric_class_of(run, BR_METRIC_COUNT) == BR_METRIC_NOISY;
	br_json_key(j, "schema_version");
	br_json_uint(j, BR_RESULTS_SCHEMA_VERSION);
	br_json_key(j, "kind");
	br_json_string(j, br_record_kind_name(run->kind));
	br_json_key(j, "status");
	br_json_string(j, br_record_status_name(run->status));
	write_text_or_null(j, "error", run->error);
	br_json_key(j, "timestamp");
	br_json_string(j, run->timestamp);
	br_json_key(j, "benchrack_version");
	br_json_string(j, run->benchrack_version);
	br_json_key(j, "host");
	br_json_string(j, run->host);
	write_text_or_null(j, "suite", run->suite);
	write_text_or_null(j, "suite_path", run->suite_path);
	br_json_key(j, "board");
	br_json_string(j, run->board);
	br_json_key(j, "server");
	br_json_string(j, run->server);
	br_json_key(j, "counter");
	br_json_object_begin(j);
	br_json_key(j, "name");
	br_json_string(j, run->counter);
	br_json_key(j, "unit");
	br_json_string(j, run->unit);
	br_json_key(j, "clock_hz");
	if (run->clock_hz != 0)
		br_json_uint(j, run->clock_hz);
	else
		br_json_null(j);
	/* only where a counter has them (the host's clock): a board's record
	 * reads as it did before they existed */
	if (run->resolution > 0) {
		br_json_key(j, "resolution");
		br_json_double(j, run->resolution);
	}
	if (run->counter_note[0] != '\0')
		write_text_or_null(j, "note", run->counter_note);
	br_json_object_end(j);
	write_firmware(j, run);
	write_ab(j, &run->ab);
	br_json_key(j, "fail_on_regression_percent");
	br_json_double(j, run->regression_percent);
	write_regression(j, &run->regression);
	write_budgets(j, &run->budgets, true);
	br_json_key(j, "benches");
	br_json_array_begin(j);
	for (size_t i = 0; i < run->bench_count; i++)
		write_bench(j, &run->benches[i], baseline, noisy);
	br_json_array_end(j);
}

void br_run_json_write(const br_run_record_t *run, FILE *out)
{
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	br_run_json_write_fields(&j, run);
	br_json_object_end(&j);
	br_json_finish(&j);
}

br_status_t br_run_json_save(const br_run_record_t *run, const char *path, br_error_t *err)
{
	br_atomic_file_t f;
	br_status_t st = br_atomic_file_open(&f, path, err);
	if (st != BR_OK)
		return st;
	br_run_json_write(run, f.stream);
	return br_atomic_file_commit(&f, err);
}
