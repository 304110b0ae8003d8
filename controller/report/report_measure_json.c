/* The JSON document of `benchrack measure`, kind "measurement"
 * (report/report_measure.h, results/SCHEMA.md). */
#include "report/report_measure.h"

#include "results/atomic_file.h"
#include "results/contract.h"
#include "results/json_writer.h"

static void json_summary(br_json_t *j, const char *key, const br_summary_t *s)
{
	br_json_key(j, key);
	br_json_object_begin(j);
	br_json_key(j, "n");
	br_json_uint(j, s->n);
	const struct {
		const char *name;
		double v;
	} f[] = {{"median", s->median},
	         {"p10", s->p10},
	         {"p90", s->p90},
	         {"p95", s->p95},
	         {"p99", s->p99},
	         {"min", s->min},
	         {"max", s->max},
	         {"mean", s->mean},
	         {"mad", s->mad},
	         {"stddev", s->stddev},
	         {"cv_median", s->cv_median}};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		br_json_key(j, f[i].name);
		br_json_double(j, f[i].v);
	}
	br_json_key(j, "outliers");
	br_json_uint(j, s->outliers);
	br_json_object_end(j);
}

static void json_location(br_json_t *j, const char *key, const br_location_t *l)
{
	br_json_key(j, key);
	br_json_object_begin(j);
	br_json_key(j, "text");
	br_json_string(j, l->text);
	br_json_key(j, "address");
	br_json_uint(j, l->address);
	br_json_key(j, "describe");
	br_json_string(j, l->describe);
	br_json_object_end(j);
}

static void json_counter(br_json_t *j, const br_counter_state_t *cs)
{
	const br_counter_t *c = &cs->counter;
	br_json_key(j, "counter");
	br_json_object_begin(j);
	br_json_key(j, "name");
	br_json_string(j, c->name);
	br_json_key(j, "address");
	br_json_uint(j, c->address);
	br_json_key(j, "width");
	br_json_uint(j, c->width_bits);
	br_json_key(j, "direction");
	br_json_string(j, c->counts_down ? "down" : "up");
	br_json_key(j, "clock_hz");
	br_json_uint(j, c->clock_hz);
	br_json_key(j, "unit");
	br_json_string(j, c->unit);
	br_json_key(j, "period");
	br_json_uint(j, cs->period);
	br_json_key(j, "wrap_seconds");
	if (cs->wrap_seconds > 0.0)
		br_json_double(j, cs->wrap_seconds);
	else
		br_json_null(j);
	br_json_key(j, "host_writes");
	br_json_uint(j, cs->writes_made);
	br_json_object_end(j);
}

static void json_samples(br_json_t *j, const br_measure_raw_t *raw)
{
	br_json_key(j, "samples");
	br_json_array_begin(j);
	for (size_t i = 0; i < raw->count; i++) {
		if (raw->measured[i])
			br_json_uint(j, raw->ticks[i]);
		else
			br_json_null(j);
	}
	br_json_array_end(j);
	if (raw->mode != BR_MEASURE_BREAKPOINT)
		return;
	br_json_key(j, "host_seconds");
	br_json_array_begin(j);
	for (size_t i = 0; i < raw->bp.count; i++)
		br_json_double(j, raw->bp.samples[i].host_seconds);
	br_json_array_end(j);
	/* What the session did besides the samples (breakpoint_session.h). */
	const struct {
		const char *key;
		size_t value;
	} counts[] = {{"guard_halts", raw->bp.guard_halts},
	              {"recoveries", raw->bp.recoveries},
	              {"dropped", raw->bp.dropped},
	              {"strays", raw->bp.strays}};
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		br_json_key(j, counts[i].key);
		br_json_uint(j, counts[i].value);
	}
	/* Instructions under the breakpoints the host executed (measure/host_step.h). */
	br_json_key(j, "host_steps");
	br_json_uint(j, raw->bp.host_steps);
	br_json_key(j, "host_checks");
	br_json_uint(j, raw->bp.host_checks);
	br_json_key(j, "host_stepping");
	br_json_bool(j, raw->bp.host_stepping);
	br_json_key(j, "host_stepping_off");
	if (raw->bp.host_stepping)
		br_json_null(j);
	else
		br_json_string(j, raw->bp.host_why_off);
}

static void json_stack(br_json_t *j, const br_measure_report_t *r)
{
	const br_measure_raw_t *raw = r->raw;
	br_json_key(j, "stack");
	if (!r->stack_reported) {
		br_json_null(j);
		return;
	}
	br_json_object_begin(j);
	br_json_key(j, "measured");
	br_json_bool(j, r->stack_measured > 0 && r->stack_missing == 0);
	br_json_key(j, "bytes");
	if (r->stack_measured > 0)
		br_json_double(j, r->stack.max);
	else
		br_json_null(j);
	br_json_key(j, "status");
	br_json_string(j, r->stack_missing > 0 ? br_stack_status_text(r->stack_why)
	                                       : br_stack_status_text(BR_STACK_MEASURED));
	if (raw->mode == BR_MEASURE_BREAKPOINT) {
		br_json_key(j, "per_sample");
		br_json_array_begin(j);
		for (size_t i = 0; i < raw->bp.count; i++) {
			if (raw->bp.samples[i].stack_status == BR_STACK_MEASURED)
				br_json_uint(j, raw->bp.samples[i].stack_bytes);
			else
				br_json_null(j);
		}
		br_json_array_end(j);
		br_json_key(j, "region_low");
		br_json_uint(j, raw->stack_region.low);
		br_json_key(j, "region_size");
		br_json_uint(j, raw->stack_region.size);
		br_json_key(j, "region_source");
		br_json_string(j, raw->stack_region.source);
	}
	br_json_object_end(j);
}

static void json_heap(br_json_t *j, const br_stub_result_t *s)
{
	br_json_key(j, "heap");
	if (s == NULL) {
		br_json_null(j);
		return;
	}
	br_json_object_begin(j);
	br_json_key(j, "peak");
	br_json_uint(j, s->heap_peak);
	br_json_key(j, "live");
	br_json_uint(j, s->heap_live);
	br_json_key(j, "allocations");
	br_json_uint(j, s->heap_allocs);
	br_json_key(j, "leak");
	br_json_bool(j, s->heap_live != 0);
	br_json_object_end(j);
}

/* A footprint's three figures as members of the open object. */
static void json_footprint_figures(br_json_t *j, const br_footprint_t *f)
{
	br_json_key(j, "flash");
	br_json_uint(j, f->flash);
	br_json_key(j, "ram");
	br_json_uint(j, f->ram);
	br_json_key(j, "samples");
	br_json_uint(j, f->samples);
}

/* "footprint": the image, the stub and each bench on top, or null. */
static void json_footprint(br_json_t *j, const br_suite_footprint_t *f)
{
	br_json_key(j, "footprint");
	if (f == NULL || !f->has_stub) {
		br_json_null(j);
		return;
	}
	br_json_object_begin(j);
	br_json_key(j, "image");
	br_json_object_begin(j);
	json_footprint_figures(j, &f->suite);
	br_json_object_end(j);
	br_json_key(j, "stub");
	if (f->stub_known) {
		br_json_object_begin(j);
		json_footprint_figures(j, &f->stub);
		br_json_key(j, "elf");
		br_json_string(j, f->empty_elf);
		br_json_object_end(j);
	} else {
		br_json_null(j);
	}
	br_json_key(j, "benches");
	br_json_array_begin(j);
	for (size_t i = 0; i < f->count; i++) {
		const br_footprint_bench_t *b = &f->benches[i];
		br_json_object_begin(j);
		br_json_key(j, "name");
		br_json_string(j, b->name);
		br_json_key(j, "flash");
		if (b->known)
			br_json_int(j, b->flash);
		else
			br_json_null(j);
		br_json_key(j, "ram");
		if (b->known)
			br_json_int(j, b->ram);
		else
			br_json_null(j);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_object_end(j);
}

static void json_sizes(br_json_t *j, const br_measure_report_t *r)
{
	br_json_key(j, "size");
	br_json_object_begin(j);
	br_json_key(j, "text");
	br_json_uint(j, r->sizes.text);
	br_json_key(j, "data");
	br_json_uint(j, r->sizes.data);
	br_json_key(j, "bss");
	br_json_uint(j, r->sizes.bss);
	br_json_object_end(j);
	br_json_key(j, "bench_size");
	if (r->bench_size_known) {
		br_json_object_begin(j);
		br_json_key(j, "text");
		br_json_int(j, r->bench_size.text);
		br_json_key(j, "data");
		br_json_int(j, r->bench_size.data);
		br_json_key(j, "bss");
		br_json_int(j, r->bench_size.bss);
		br_json_key(j, "bench_elf");
		br_json_string(j, r->bench_elf);
		br_json_key(j, "empty_elf");
		br_json_string(j, r->empty_elf);
		br_json_object_end(j);
	} else {
		br_json_null(j);
	}
	json_footprint(j, r->footprint);
	br_json_key(j, "symbols");
	br_json_array_begin(j);
	for (size_t i = 0; r->symbols_shown && i < r->symbol_count; i++) {
		br_json_object_begin(j);
		br_json_key(j, "name");
		br_json_string(j, r->symbols[i].name);
		br_json_key(j, "kind");
		br_json_string(j, r->symbols[i].is_function ? "function" : "object");
		br_json_key(j, "section");
		br_json_string(j, r->symbols[i].section);
		br_json_key(j, "memory");
		br_json_string(j, br_elf_memory_name(r->symbols[i].memory));
		br_json_key(j, "bytes");
		br_json_uint(j, r->symbols[i].size);
		br_json_key(j, "empty_bytes");
		if (r->symbols_against_empty)
			br_json_uint(j, r->symbols[i].empty_size);
		else
			br_json_null(j);
		br_json_object_end(j);
	}
	br_json_array_end(j);
}

static void json_measurement(br_json_t *j, const br_measure_report_t *r)
{
	const br_measure_raw_t *raw = r->raw;
	br_json_key(j, "mode");
	br_json_string(j,
	               raw->mode == BR_MEASURE_STUB ? "stub" : br_span_kind_name(raw->span.kind));
	br_json_key(j, "bench");
	br_json_string_or_null(j, raw->bench[0] != '\0' ? raw->bench : NULL);
	br_json_key(j, "argument");
	br_json_uint(j, raw->bench_argument);
	if (raw->mode == BR_MEASURE_BREAKPOINT) {
		json_location(j, "from", &raw->span.from);
		if (raw->span.kind == BR_SPAN_RANGE)
			json_location(j, "to", &raw->span.to);
	}
	br_json_key(j, "server");
	br_json_string(j, raw->server);
	br_json_key(j, "build_id");
	br_json_string(j, raw->build_id);
	json_counter(j, &raw->counter);
	br_json_key(j, "calibration");
	br_json_object_begin(j);
	br_json_key(j, "method");
	br_json_string(j, br_calibration_method_text(raw->calibration.method));
	br_json_key(j, "median");
	if (r->calibrated)
		br_json_double(j, r->calibration.median);
	else
		br_json_null(j);
	br_json_key(j, "n");
	br_json_uint(j, r->calibrated ? r->calibration.n : 0U);
	br_json_object_end(j);
	br_json_key(j, "n");
	br_json_uint(j, raw->count);
	br_json_key(j, "asked");
	br_json_uint(j, raw->asked);
	br_json_key(j, "not_measured");
	br_json_uint(j, r->not_measured);
	if (r->summarized) {
		json_summary(j, "raw", &r->raw_summary);
		if (r->calibrated && r->net_known)
			json_summary(j, "net", &r->net_summary);
		if (r->calibrated && !r->net_known) {
			br_json_key(j, "net");
			br_json_null(j);
			br_json_key(j, "net_why");
			br_json_string(j, r->net_why);
		}
	}
	json_samples(j, raw);
	json_stack(j, r);
	json_heap(j, raw->stub);
	br_json_key(j, "halts");
	if (raw->mode == BR_MEASURE_BREAKPOINT)
		br_json_uint(j, raw->bp.halts);
	else if (raw->stub != NULL)
		br_json_uint(j, raw->stub->halts);
	else
		br_json_null(j);
	br_json_key(j, "wall_seconds");
	br_json_double(j, raw->wall_seconds);
}

br_status_t br_measure_report_save_json(const br_measure_report_t *r, const char *path,
                                        br_error_t *err)
{
	br_atomic_file_t f;
	br_status_t st = br_atomic_file_open(&f, path, err);
	if (st != BR_OK)
		return st;
	br_json_t j;
	br_json_init(&j, f.stream);
	br_json_object_begin(&j);
	br_json_key(&j, "kind");
	br_json_string(&j, BR_CONTRACT_MEASUREMENT);
	br_json_key(&j, "schema_version");
	br_json_uint(&j, BR_CONTRACT_MEASUREMENT_VERSION);
	br_json_key(&j, "elf");
	br_json_string(&j, r->elf_path);
	/* A failed measurement says so first: its samples are not the count asked. */
	br_json_key(&j, "status");
	br_json_string(&j, r->failure != NULL ? "failed" : "complete");
	br_json_key(&j, "error");
	br_json_string_or_null(&j, r->failure != NULL ? r->failure->message : NULL);
	/* A failure before the first sample: no figure of any kind stands. */
	bool figures = r->failure == NULL || (r->raw != NULL && r->raw->count > 0);
	if (!figures) {
		br_json_key(&j, "n");
		br_json_uint(&j, 0U);
		/* What was asked stands even when nothing was measured. */
		if (r->raw != NULL) {
			br_json_key(&j, "asked");
			br_json_uint(&j, r->raw->asked);
		}
	}
	if (figures && r->raw != NULL)
		json_measurement(&j, r);
	if (figures)
		json_sizes(&j, r);
	br_json_object_end(&j);
	br_json_finish(&j);
	return br_atomic_file_commit(&f, err);
}
