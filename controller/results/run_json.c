#include "results/run_json.h"

#include "results/atomic_file.h"
#include "results/json_writer.h"

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

static void write_bench(br_json_t *j, const br_bench_record_t *b)
{
	br_json_object_begin(j);
	br_json_key(j, "name");
	br_json_string(j, b->name);
	br_json_key(j, "warmup");
	br_json_uint(j, b->warmup);
	write_summary(j, &b->summary);
	br_json_key(j, "stack_bytes");
	if (b->stack_measured)
		br_json_uint(j, b->stack_bytes);
	else
		br_json_null(j);
	br_json_key(j, "heap");
	br_json_object_begin(j);
	br_json_key(j, "peak_bytes");
	br_json_uint(j, b->heap_peak);
	br_json_key(j, "live_bytes");
	br_json_uint(j, b->heap_live);
	br_json_key(j, "allocations");
	br_json_uint(j, b->heap_allocs);
	br_json_object_end(j);
	br_json_key(j, "samples");
	br_json_array_begin(j);
	for (size_t i = 0; i < b->n; i++)
		br_json_uint(j, b->samples[i]);
	br_json_array_end(j);
	br_json_object_end(j);
}

void br_run_json_write(const br_run_record_t *run, FILE *out)
{
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	br_json_key(&j, "schema_version");
	br_json_uint(&j, BR_RESULTS_SCHEMA_VERSION);
	br_json_key(&j, "timestamp");
	br_json_string(&j, run->timestamp);
	br_json_key(&j, "benchrack_version");
	br_json_string(&j, run->benchrack_version);
	br_json_key(&j, "host");
	br_json_string(&j, run->host);
	br_json_key(&j, "board");
	br_json_string(&j, run->board);
	br_json_key(&j, "server");
	br_json_string(&j, run->server);
	br_json_key(&j, "counter");
	br_json_object_begin(&j);
	br_json_key(&j, "name");
	br_json_string(&j, run->counter);
	br_json_key(&j, "unit");
	br_json_string(&j, run->unit);
	br_json_key(&j, "clock_hz");
	if (run->clock_hz != 0)
		br_json_uint(&j, run->clock_hz);
	else
		br_json_null(&j);
	br_json_object_end(&j);
	br_json_key(&j, "firmware");
	br_json_object_begin(&j);
	br_json_key(&j, "path");
	br_json_string(&j, run->elf_path);
	br_json_key(&j, "build_id");
	br_json_string(&j, run->build_id);
	br_json_object_end(&j);
	br_json_key(&j, "benches");
	br_json_array_begin(&j);
	for (size_t i = 0; i < run->bench_count; i++)
		write_bench(&j, &run->benches[i]);
	br_json_array_end(&j);
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
