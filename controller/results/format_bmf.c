/*
 * --format bmf: Bencher Metric Format, the JSON `bencher run --adapter json`
 * reads: {benchmark: {measure: {value, lower_value, upper_value}}}. The
 * measure for the counter is named after its unit ("instructions",
 * "cycles"); sizes are "stack-bytes", "heap-peak-bytes" and, for the
 * benchmark "firmware", "text-bytes". With several boards, benchmark names
 * are "<board>/<bench>" so that none collide.
 */
#include "results/format.h"
#include "results/json_writer.h"

static void measure(br_json_t *j, const char *slug, double value, bool band, double lower,
                    double upper)
{
	br_json_key(j, slug);
	br_json_object_begin(j);
	br_json_key(j, "value");
	br_json_double(j, value);
	if (band) {
		br_json_key(j, "lower_value");
		br_json_double(j, lower);
		br_json_key(j, "upper_value");
		br_json_double(j, upper);
	}
	br_json_object_end(j);
}

static void benchmark_key(br_json_t *j, const char *board, const char *name, bool prefixed)
{
	char key[2 * BR_RECORD_NAME + 2];
	if (prefixed)
		snprintf(key, sizeof(key), "%s/%s", board, name);
	else
		snprintf(key, sizeof(key), "%s", name);
	br_json_key(j, key);
}

void br_format_bmf_write(const br_report_t *reports, size_t count, FILE *out)
{
	bool prefixed = count > 1;
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	for (size_t i = 0; i < count; i++) {
		const br_run_record_t *run = reports[i].run;
		char slug[32];
		br_metric_name(BR_METRIC_COUNT, run->unit, slug, sizeof(slug));
		for (size_t k = 0; k < run->bench_count; k++) {
			const br_bench_record_t *b = &run->benches[k];
			if (b->status != BR_BENCH_MEASURED)
				continue; /* no figure, no metric: never a made-up number */
			benchmark_key(&j, run->board, b->name, prefixed);
			br_json_object_begin(&j);
			measure(&j, slug, b->summary.median, true, b->summary.p10, b->summary.p90);
			if (b->stack_measured)
				measure(&j, "stack-bytes", b->stack_bytes, false, 0, 0);
			if (b->heap_known)
				measure(&j, "heap-peak-bytes", b->heap_peak, false, 0, 0);
			br_json_object_end(&j);
		}
		if (run->sizes_known) {
			benchmark_key(&j, run->board, "firmware", prefixed);
			br_json_object_begin(&j);
			measure(&j, "text-bytes", (double)run->text_bytes, false, 0, 0);
			br_json_object_end(&j);
		}
	}
	br_json_object_end(&j);
	br_json_finish(&j);
}
