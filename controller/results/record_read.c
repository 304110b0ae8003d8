#include "results/record_read.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "config/suite.h"
#include "yaml/schema.h"
#include "yaml/yaml_tree.h"
#include "results/json_doc.h"
#include "stats/run_shift.h"

#define READ_MAX_BENCHES 256U
#define READ_MAX_SAMPLES 1024U
#define READ_MAX_PERCENT 1000.0
#define READ_U32_MAX 0xFFFFFFFFULL
/* a raw sample is 64-bit: a region at breakpoints can be longer than 2^32 */
#define READ_SAMPLE_MAX UINT64_MAX

/* The record as its JSON says it, before it becomes a br_run_record_t. */
typedef struct rr_heap {
	br_cfg_section_t head;
	br_cfg_uint_t peak_bytes, live_bytes, allocations;
} rr_heap_t;

typedef struct rr_calibration {
	br_cfg_section_t head;
	br_cfg_string_t method;
	br_cfg_number_t median;
} rr_calibration_t;

/* The summary of a set of samples, as a bench and each of its counters
 * write it. */
typedef struct rr_figures {
	br_cfg_uint_t n;
	br_cfg_number_t median, p10, p90, p95, p99, min, max, mean, mad, cv_median;
	br_cfg_uint_t outliers;
} rr_figures_t;

typedef struct rr_counter_figures {
	br_cfg_section_t head;
	br_cfg_string_t name, unit;
	rr_figures_t fig;
	br_cfg_list_t samples;
} rr_counter_figures_t;

typedef struct rr_ab {
	br_cfg_section_t head;
	br_cfg_enum_t role;
	br_cfg_string_t ref, base_commit, head_commit;
} rr_ab_t;

typedef struct rr_firmware {
	br_cfg_section_t head;
	br_cfg_string_t path, build_id, sha256, git_commit, toolchain;
	br_cfg_uint_t text_bytes, data_bytes, bss_bytes;
} rr_firmware_t;

/* One run a baseline keeps: {median, build}. */
typedef struct rr_run {
	br_cfg_section_t head;
	br_cfg_number_t median;
	br_cfg_string_t build;
} rr_run_t;

typedef struct rr_bench {
	br_cfg_section_t head;
	br_cfg_string_t name;
	br_cfg_enum_t status;
	br_cfg_string_t reason;
	br_cfg_enum_t mode;
	br_cfg_string_t elf;
	rr_firmware_t firmware;
	br_cfg_uint_t warmup;
	rr_figures_t fig;
	br_cfg_uint_t stack_bytes;
	rr_heap_t heap;
	rr_calibration_t calibration;
	br_cfg_list_t counters;
	br_suite_budgets_t budgets;
	br_cfg_number_t wall_seconds;
	br_cfg_uint_t halts;
	br_cfg_list_t samples;
	br_cfg_list_t runs;
} rr_bench_t;

typedef struct rr_counter {
	br_cfg_section_t head;
	br_cfg_string_t name, unit;
	br_cfg_uint_t clock_hz;
	br_cfg_number_t resolution;
	br_cfg_string_t note;
} rr_counter_t;

/* One metric's regression limit: {percent, amount}, either or both. */
typedef struct rr_regression_limit {
	br_cfg_section_t head;
	br_cfg_number_t percent, amount;
} rr_regression_limit_t;

typedef struct rr_regression {
	br_cfg_section_t head;
	rr_regression_limit_t by_metric[BR_REGRESSION_METRICS];
} rr_regression_t;

typedef struct rr_record {
	br_cfg_section_t head;
	br_cfg_uint_t schema_version;
	br_cfg_enum_t kind, status;
	br_cfg_string_t error, timestamp, benchrack_version, host, suite, suite_path, board, server;
	rr_counter_t counter;
	rr_firmware_t firmware;
	rr_ab_t against;
	br_cfg_number_t fail_on_regression_percent;
	rr_regression_t regression;
	br_suite_budgets_t budgets;
	br_cfg_list_t benches;
} rr_record_t;

static const char *const kinds[] = {"run", "baseline", NULL};
static const char *const statuses[] = {"running", "complete", "failed", "interrupted", NULL};
static const char *const bench_statuses[] = {"measured", "not_run", NULL};
static const char *const modes[] = {"stub", "range", "function", NULL};
static const char *const ab_roles[] = {"base", "head", NULL};

#define BYTES "a whole number of bytes"
#define FIGURE "a number"
#define TEXT "text"

/* A record's budgets have a suite file's keys: they are read into
 * config/suite.h's br_suite_budgets_t (with this file's forms: a record's
 * numbers are plain) and made limits as a suite's are (br_budgets_from_suite). */
#define L(field) offsetof(br_suite_budgets_t, field)
static const br_cfg_field_t limit_fields[] = {
    {.key = "max_stack_bytes", .type = BR_CFG_UINT, .offset = L(max_stack_bytes), .form = BYTES},
    {.key = "max_heap_bytes", .type = BR_CFG_UINT, .offset = L(max_heap_bytes), .form = BYTES},
    {.key = "max_cycles_per_iteration",
     .type = BR_CFG_UINT,
     .offset = L(max_cycles_per_iteration),
     .form = "a whole number of ticks"},
    {.key = "max_text_bytes", .type = BR_CFG_UINT, .offset = L(max_text_bytes), .form = BYTES},
};
static const br_cfg_map_t limits_map = {
    .what = "budgets",
    .size = sizeof(br_suite_budgets_t),
    .fields = limit_fields,
    .field_count = BR_CFG_COUNT(limit_fields),
};

#define H(field) offsetof(rr_heap_t, field)
static const br_cfg_field_t heap_fields[] = {
    {.key = "peak_bytes",
     .type = BR_CFG_UINT,
     .offset = H(peak_bytes),
     .required = true,
     .max = READ_U32_MAX,
     .form = BYTES},
    {.key = "live_bytes",
     .type = BR_CFG_UINT,
     .offset = H(live_bytes),
     .required = true,
     .max = READ_U32_MAX,
     .form = BYTES},
    {.key = "allocations",
     .type = BR_CFG_UINT,
     .offset = H(allocations),
     .required = true,
     .max = READ_U32_MAX,
     .form = "a whole number"},
};
#define RN(field) offsetof(rr_run_t, field)
static const br_cfg_field_t run_fields[] = {
    {.key = "median",
     .type = BR_CFG_NUMBER,
     .offset = RN(median),
     .required = true,
     .form = FIGURE},
    {.key = "build", .type = BR_CFG_STRING, .offset = RN(build), .form = "text, or null"},
};
static const br_cfg_map_t run_map = {
    "runs", sizeof(rr_run_t), run_fields, BR_CFG_COUNT(run_fields), NULL, NULL, NULL, 0};

static const br_cfg_map_t heap_map = {
    "heap", sizeof(rr_heap_t), heap_fields, BR_CFG_COUNT(heap_fields), NULL, NULL, NULL, 0};

#define CA(field) offsetof(rr_calibration_t, field)
static const br_cfg_field_t calibration_fields[] = {
    {.key = "method", .type = BR_CFG_STRING, .offset = CA(method), .required = true, .form = TEXT},
    {.key = "median",
     .type = BR_CFG_NUMBER,
     .offset = CA(median),
     .required = true,
     .form = FIGURE},
};
static const br_cfg_map_t calibration_map = {"calibration",
                                             sizeof(rr_calibration_t),
                                             calibration_fields,
                                             BR_CFG_COUNT(calibration_fields),
                                             NULL,
                                             NULL,
                                             NULL,
                                             0};

#define CN(field)                                                                                  \
	{                                                                                          \
		.key = #field, .type = BR_CFG_NUMBER,                                              \
		.offset = offsetof(rr_counter_figures_t, fig.field), .form = FIGURE                \
	}
#define CX(field) offsetof(rr_counter_figures_t, field)
static const br_cfg_field_t counter_figure_fields[] = {
    {.key = "name", .type = BR_CFG_STRING, .offset = CX(name), .required = true, .form = TEXT},
    {.key = "unit", .type = BR_CFG_STRING, .offset = CX(unit), .required = true, .form = TEXT},
    {.key = "n",
     .type = BR_CFG_UINT,
     .offset = CX(fig.n),
     .required = true,
     .min = 1,
     .max = READ_MAX_SAMPLES,
     .form = "a whole number from 1 to 1024"},
    CN(median),
    CN(p10),
    CN(p90),
    CN(p95),
    CN(p99),
    CN(min),
    CN(max),
    CN(mean),
    CN(mad),
    CN(cv_median),
    {.key = "outliers",
     .type = BR_CFG_UINT,
     .offset = CX(fig.outliers),
     .max = READ_MAX_SAMPLES,
     .form = "a whole number"},
    {.key = "samples",
     .type = BR_CFG_LIST,
     .element = BR_CFG_UINT,
     .offset = CX(samples),
     .max = READ_SAMPLE_MAX,
     .max_items = READ_MAX_SAMPLES,
     .form = "a list of at most 1024 whole numbers"},
};
static const br_cfg_map_t counter_figure_map = {"counters",
                                                sizeof(rr_counter_figures_t),
                                                counter_figure_fields,
                                                BR_CFG_COUNT(counter_figure_fields),
                                                NULL,
                                                NULL,
                                                NULL,
                                                0};

#define AB(field) offsetof(rr_ab_t, field)
static const br_cfg_field_t ab_fields[] = {
    {.key = "role",
     .type = BR_CFG_ENUM,
     .offset = AB(role),
     .required = true,
     .names = ab_roles,
     .form = "base or head"},
    {.key = "ref", .type = BR_CFG_STRING, .offset = AB(ref), .required = true, .form = "a git ref"},
    {.key = "base_commit",
     .type = BR_CFG_STRING,
     .offset = AB(base_commit),
     .required = true,
     .form = "a commit id"},
    {.key = "head_commit",
     .type = BR_CFG_STRING,
     .offset = AB(head_commit),
     .form = "a commit id, or null"},
};
static const br_cfg_map_t ab_map = {
    "against", sizeof(rr_ab_t), ab_fields, BR_CFG_COUNT(ab_fields), NULL, NULL, NULL, 0};

#define FW(field) offsetof(rr_firmware_t, field)
static const br_cfg_field_t firmware_fields[] = {
    {.key = "path", .type = BR_CFG_STRING, .offset = FW(path), .required = true, .form = "a path"},
    {.key = "build_id", .type = BR_CFG_STRING, .offset = FW(build_id), .form = "hex, or null"},
    {.key = "sha256",
     .type = BR_CFG_STRING,
     .offset = FW(sha256),
     .form = "the file's SHA-256 in hex"},
    {.key = "git_commit", .type = BR_CFG_STRING, .offset = FW(git_commit), .form = TEXT},
    {.key = "toolchain", .type = BR_CFG_STRING, .offset = FW(toolchain), .form = TEXT},
    {.key = "text_bytes", .type = BR_CFG_UINT, .offset = FW(text_bytes), .form = BYTES},
    {.key = "data_bytes", .type = BR_CFG_UINT, .offset = FW(data_bytes), .form = BYTES},
    {.key = "bss_bytes", .type = BR_CFG_UINT, .offset = FW(bss_bytes), .form = BYTES},
};
static const br_cfg_map_t firmware_map = {"firmware",
                                          sizeof(rr_firmware_t),
                                          firmware_fields,
                                          BR_CFG_COUNT(firmware_fields),
                                          NULL,
                                          NULL,
                                          NULL,
                                          0};

#define N(field)                                                                                   \
	{                                                                                          \
		.key = #field, .type = BR_CFG_NUMBER, .offset = offsetof(rr_bench_t, fig.field),   \
		.form = FIGURE                                                                     \
	}
#define BF(field) offsetof(rr_bench_t, field)
static const br_cfg_field_t bench_fields[] = {
    {.key = "name", .type = BR_CFG_STRING, .offset = BF(name), .required = true, .form = TEXT},
    {.key = "status",
     .type = BR_CFG_ENUM,
     .offset = BF(status),
     .required = true,
     .names = bench_statuses,
     .form = "measured or not_run"},
    {.key = "reason", .type = BR_CFG_STRING, .offset = BF(reason), .form = TEXT},
    {.key = "mode",
     .type = BR_CFG_ENUM,
     .offset = BF(mode),
     .names = modes,
     .form = "stub, range or function"},
    {.key = "elf", .type = BR_CFG_STRING, .offset = BF(elf), .form = "a path"},
    {.key = "firmware",
     .type = BR_CFG_MAP,
     .offset = BF(firmware),
     .map = &firmware_map,
     .form = "{path, build_id, ...}, or null"},
    {.key = "warmup",
     .type = BR_CFG_UINT,
     .offset = BF(warmup),
     .max = READ_U32_MAX,
     .form = "a whole number"},
    {.key = "n",
     .type = BR_CFG_UINT,
     .offset = BF(fig.n),
     .min = 1,
     .max = READ_MAX_SAMPLES,
     .form = "a whole number from 1 to 1024"},
    N(median),
    N(p10),
    N(p90),
    N(p95),
    N(p99),
    N(min),
    N(max),
    N(mean),
    N(mad),
    N(cv_median),
    {.key = "outliers",
     .type = BR_CFG_UINT,
     .offset = BF(fig.outliers),
     .max = READ_MAX_SAMPLES,
     .form = "a whole number"},
    {.key = "stack_bytes",
     .type = BR_CFG_UINT,
     .offset = BF(stack_bytes),
     .max = READ_U32_MAX,
     .form = "a whole number of bytes, or null"},
    {.key = "heap",
     .type = BR_CFG_MAP,
     .offset = BF(heap),
     .map = &heap_map,
     .form = "{peak_bytes, live_bytes, allocations}, or null"},
    {.key = "calibration",
     .type = BR_CFG_MAP,
     .offset = BF(calibration),
     .map = &calibration_map,
     .form = "{method, median}, or null"},
    {.key = "counters",
     .type = BR_CFG_LIST,
     .element = BR_CFG_MAP,
     .map = &counter_figure_map,
     .offset = BF(counters),
     .max_items = BR_RECORD_MAX_COUNTERS,
     .form = "a list of at most 2 counters' figures"},
    {.key = "budgets",
     .type = BR_CFG_MAP,
     .offset = BF(budgets),
     .map = &limits_map,
     .form = "a mapping of limits"},
    {.key = "wall_seconds", .type = BR_CFG_NUMBER, .offset = BF(wall_seconds), .form = FIGURE},
    {.key = "halts",
     .type = BR_CFG_UINT,
     .offset = BF(halts),
     .min = 1,
     .max = READ_U32_MAX,
     .form = "a whole number from 1"},
    {.key = "samples",
     .type = BR_CFG_LIST,
     .element = BR_CFG_UINT,
     .offset = BF(samples),
     .max = READ_SAMPLE_MAX,
     .max_items = READ_MAX_SAMPLES,
     .form = "a list of at most 1024 whole numbers"},
    {.key = "runs",
     .type = BR_CFG_LIST,
     .element = BR_CFG_MAP,
     .map = &run_map,
     .offset = BF(runs),
     .max_items = BR_STATS_RUNS_MAX,
     .form = "a list of at most 30 runs ({median, build})"},
};
static const br_cfg_map_t bench_map = {
    "bench", sizeof(rr_bench_t), bench_fields, BR_CFG_COUNT(bench_fields), NULL, NULL, NULL, 0};

#define CF(field) offsetof(rr_counter_t, field)
static const br_cfg_field_t counter_fields[] = {
    {.key = "name", .type = BR_CFG_STRING, .offset = CF(name), .required = true, .form = TEXT},
    {.key = "unit", .type = BR_CFG_STRING, .offset = CF(unit), .required = true, .form = TEXT},
    {.key = "clock_hz",
     .type = BR_CFG_UINT,
     .offset = CF(clock_hz),
     .form = "a whole number of Hz, or null"},
    {.key = "resolution",
     .type = BR_CFG_NUMBER,
     .offset = CF(resolution),
     .form = "a number in the counter's unit, or null"},
    {.key = "note", .type = BR_CFG_STRING, .offset = CF(note), .form = "text, or null"},
};
static const br_cfg_map_t counter_map = {
    "counter", sizeof(rr_counter_t), counter_fields, BR_CFG_COUNT(counter_fields), NULL, NULL, NULL,
    0};

#define RL(field) offsetof(rr_regression_limit_t, field)
static const br_cfg_field_t regression_limit_fields[] = {
    {.key = "percent",
     .type = BR_CFG_NUMBER,
     .offset = RL(percent),
     .min_number = 0.0,
     .max_number = READ_MAX_PERCENT,
     .form = "a percentage from 0 to 1000"},
    {.key = "amount",
     .type = BR_CFG_NUMBER,
     .offset = RL(amount),
     .min_number = 0.0,
     .max_number = 1e300,
     .form = "an amount in the metric's unit, >= 0"},
};
static const br_cfg_map_t regression_limit_map = {"regression limit",
                                                  sizeof(rr_regression_limit_t),
                                                  regression_limit_fields,
                                                  BR_CFG_COUNT(regression_limit_fields),
                                                  NULL,
                                                  NULL,
                                                  NULL,
                                                  0};

#define RG(i) offsetof(rr_regression_t, by_metric[i])
#define RG_FORM "{percent, amount}, either or both"
#define REGRESSION_FIELD(index, name)                                                              \
	{.key = name,                                                                              \
	 .type = BR_CFG_MAP,                                                                       \
	 .offset = RG(index),                                                                      \
	 .map = &regression_limit_map,                                                             \
	 .form = RG_FORM},
static const br_cfg_field_t regression_fields[] = {BR_REGRESSION_METRIC_LIST(REGRESSION_FIELD)};
#undef REGRESSION_FIELD
_Static_assert(BR_CFG_COUNT(regression_fields) == BR_REGRESSION_METRICS,
               "a key for every metric a limit can name");
static const br_cfg_map_t regression_map = {"regression",
                                            sizeof(rr_regression_t),
                                            regression_fields,
                                            BR_CFG_COUNT(regression_fields),
                                            NULL,
                                            NULL,
                                            NULL,
                                            0};

#define RF(field) offsetof(rr_record_t, field)
static const br_cfg_field_t record_fields[] = {
    {.key = "schema_version",
     .type = BR_CFG_UINT,
     .offset = RF(schema_version),
     .required = true,
     .min = BR_RESULTS_SCHEMA_OLDEST,
     .max = BR_RESULTS_SCHEMA_VERSION,
     .form = "2 or 3 (the versions this benchrack reads: record an older one again, read a "
             "newer one with the benchrack that wrote it)"},
    {.key = "kind",
     .type = BR_CFG_ENUM,
     .offset = RF(kind),
     .required = true,
     .names = kinds,
     .form = "run or baseline"},
    {.key = "status",
     .type = BR_CFG_ENUM,
     .offset = RF(status),
     .required = true,
     .names = statuses,
     .form = "running, complete, failed or interrupted"},
    {.key = "error", .type = BR_CFG_STRING, .offset = RF(error), .form = TEXT},
    {.key = "timestamp",
     .type = BR_CFG_STRING,
     .offset = RF(timestamp),
     .required = true,
     .form = "an ISO 8601 time"},
    {.key = "benchrack_version",
     .type = BR_CFG_STRING,
     .offset = RF(benchrack_version),
     .required = true,
     .form = TEXT},
    {.key = "host", .type = BR_CFG_STRING, .offset = RF(host), .required = true, .form = TEXT},
    {.key = "suite", .type = BR_CFG_STRING, .offset = RF(suite), .form = TEXT},
    {.key = "suite_path", .type = BR_CFG_STRING, .offset = RF(suite_path), .form = "a path"},
    {.key = "board",
     .type = BR_CFG_STRING,
     .offset = RF(board),
     .required = true,
     .form = "a board name"},
    {.key = "server", .type = BR_CFG_STRING, .offset = RF(server), .required = true, .form = TEXT},
    {.key = "counter",
     .type = BR_CFG_MAP,
     .offset = RF(counter),
     .required = true,
     .map = &counter_map,
     .form = "{name, unit, clock_hz}"},
    {.key = "firmware",
     .type = BR_CFG_MAP,
     .offset = RF(firmware),
     .map = &firmware_map,
     .form = "{path, build_id, ...}, or null"},
    {.key = "against",
     .type = BR_CFG_MAP,
     .offset = RF(against),
     .map = &ab_map,
     .form = "{role, ref, base_commit, head_commit}, or null"},
    {.key = "fail_on_regression_percent",
     .type = BR_CFG_NUMBER,
     .offset = RF(fail_on_regression_percent),
     .max_number = READ_MAX_PERCENT,
     .form = "a percentage"},
    {.key = "regression",
     .type = BR_CFG_MAP,
     .offset = RF(regression),
     .map = &regression_map,
     .form = "a mapping of metric names to {percent, amount}"},
    {.key = "budgets",
     .type = BR_CFG_MAP,
     .offset = RF(budgets),
     .map = &limits_map,
     .form = "a mapping of limits"},
    {.key = "benches",
     .type = BR_CFG_LIST,
     .element = BR_CFG_MAP,
     .map = &bench_map,
     .offset = RF(benches),
     .required = true,
     .max_items = READ_MAX_BENCHES,
     .form = "a list of benches"},
};
static const br_cfg_map_t record_map = {
    "record", sizeof(rr_record_t), record_fields, BR_CFG_COUNT(record_fields), NULL, NULL, NULL, 0};

static void copy_text(char *dst, size_t cap, const br_cfg_string_t *s)
{
	snprintf(dst, cap, "%s", s->set ? s->value : "");
}

/* A measured bench must carry the figures everything downstream reads. */
static br_status_t check_bench(const char *file, const rr_bench_t *b, br_error_t *err)
{
	if (b->status.value != BR_BENCH_MEASURED)
		return BR_OK;
	const struct {
		const char *key;
		bool set;
	} needed[] = {
	    {"n", b->fig.n.set},     {"median", b->fig.median.set}, {"p10", b->fig.p10.set},
	    {"p90", b->fig.p90.set}, {"min", b->fig.min.set},       {"max", b->fig.max.set},
	};
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		if (!needed[i].set)
			return br_cfg_error(err, file, b->head.mark,
			                    "measured bench '%s' lacks '%s'; expected every figure "
			                    "of a measured bench",
			                    b->name.value, needed[i].key);
	}
	if (b->samples.set && b->samples.count != b->fig.n.value)
		return br_cfg_error(err, file, b->samples.mark,
		                    "bench '%s' has %zu samples but n is %llu; expected n samples",
		                    b->name.value, b->samples.count,
		                    (unsigned long long)b->fig.n.value);
	return BR_OK;
}

static void fill_summary(br_summary_t *s, const rr_figures_t *c)
{
	s->n = (size_t)c->n.value;
	s->median = c->median.value;
	s->p10 = c->p10.value;
	s->p90 = c->p90.value;
	s->p95 = c->p95.value;
	s->p99 = c->p99.value;
	s->min = c->min.value;
	s->max = c->max.value;
	s->mean = c->mean.value;
	s->mad = c->mad.value;
	s->cv_median = c->cv_median.value;
	s->outliers = (size_t)c->outliers.value;
}

static uint64_t *samples_of(const br_cfg_list_t *list)
{
	if (!list->set || list->count == 0)
		return NULL;
	uint64_t *out = xcalloc(list->count, sizeof(out[0]));
	for (size_t i = 0; i < list->count; i++)
		out[i] =
		    ((const br_cfg_uint_t *)br_cfg_item(list, sizeof(br_cfg_uint_t), i))->value;
	return out;
}

static void fill_counters(br_bench_record_t *out, const rr_bench_t *b)
{
	for (size_t i = 0; b->counters.set && i < b->counters.count; i++) {
		const rr_counter_figures_t *c =
		    br_cfg_item(&b->counters, sizeof(rr_counter_figures_t), i);
		br_bench_counter_t *dst = &out->counters[out->counter_count++];
		copy_text(dst->name, sizeof(dst->name), &c->name);
		copy_text(dst->unit, sizeof(dst->unit), &c->unit);
		fill_summary(&dst->summary, &c->fig);
		dst->samples = samples_of(&c->samples);
	}
}

static void fill_runs(br_bench_record_t *out, const rr_bench_t *b)
{
	if (!b->runs.set || b->runs.count == 0)
		return;
	out->runs = xcalloc(b->runs.count, sizeof(out->runs[0]));
	out->run_count = b->runs.count;
	for (size_t i = 0; i < b->runs.count; i++) {
		const rr_run_t *r = br_cfg_item(&b->runs, sizeof(rr_run_t), i);
		out->runs[i].median = r->median.value;
		copy_text(out->runs[i].build, sizeof(out->runs[i].build), &r->build);
	}
}

static void fill_firmware(br_firmware_info_t *out, const rr_firmware_t *f)
{
	copy_text(out->elf_path, sizeof(out->elf_path), &f->path);
	copy_text(out->build_id, sizeof(out->build_id), &f->build_id);
	copy_text(out->sha256, sizeof(out->sha256), &f->sha256);
	copy_text(out->git_commit, sizeof(out->git_commit), &f->git_commit);
	copy_text(out->toolchain, sizeof(out->toolchain), &f->toolchain);
	out->sizes_known = f->text_bytes.set;
	out->text_bytes = f->text_bytes.value;
	out->data_bytes = f->data_bytes.value;
	out->bss_bytes = f->bss_bytes.value;
}

static void fill_bench(br_bench_record_t *out, const rr_bench_t *b)
{
	copy_text(out->name, sizeof(out->name), &b->name);
	out->status = (br_bench_status_t)b->status.value;
	copy_text(out->reason, sizeof(out->reason), &b->reason);
	snprintf(out->mode, sizeof(out->mode), "%s", modes[b->mode.set ? b->mode.value : 0U]);
	copy_text(out->elf_path, sizeof(out->elf_path), &b->elf);
	out->has_firmware = b->firmware.head.set;
	if (out->has_firmware)
		fill_firmware(&out->firmware, &b->firmware);
	out->warmup = (uint32_t)b->warmup.value;
	out->n = (size_t)b->fig.n.value;
	fill_summary(&out->summary, &b->fig);
	out->stack_measured = b->stack_bytes.set;
	out->stack_bytes = (uint32_t)b->stack_bytes.value;
	out->heap_known = b->heap.head.set;
	out->heap_peak = (uint32_t)b->heap.peak_bytes.value;
	out->heap_live = (uint32_t)b->heap.live_bytes.value;
	out->heap_allocs = (uint32_t)b->heap.allocations.value;
	out->calibrated = b->calibration.head.set;
	out->calibration_median = b->calibration.median.value;
	copy_text(out->calibration_method, sizeof(out->calibration_method), &b->calibration.method);
	out->wall_seconds = b->wall_seconds.value;
	out->halts = (uint32_t)b->halts.value;
	out->budgets = br_budgets_from_suite(&b->budgets);
	out->samples = samples_of(&b->samples);
	fill_counters(out, b);
	fill_runs(out, b);
}

static void fill_record(br_run_record_t *out, const rr_record_t *r)
{
	out->kind = (br_record_kind_t)r->kind.value;
	out->status = (br_record_status_t)r->status.value;
	copy_text(out->error, sizeof(out->error), &r->error);
	copy_text(out->timestamp, sizeof(out->timestamp), &r->timestamp);
	copy_text(out->benchrack_version, sizeof(out->benchrack_version), &r->benchrack_version);
	copy_text(out->host, sizeof(out->host), &r->host);
	copy_text(out->suite, sizeof(out->suite), &r->suite);
	copy_text(out->suite_path, sizeof(out->suite_path), &r->suite_path);
	copy_text(out->board, sizeof(out->board), &r->board);
	copy_text(out->server, sizeof(out->server), &r->server);
	copy_text(out->counter, sizeof(out->counter), &r->counter.name);
	copy_text(out->unit, sizeof(out->unit), &r->counter.unit);
	out->clock_hz = r->counter.clock_hz.value;
	out->resolution = r->counter.resolution.value;
	copy_text(out->counter_note, sizeof(out->counter_note), &r->counter.note);
	if (r->against.head.set) {
		snprintf(out->ab.role, sizeof(out->ab.role), "%s", ab_roles[r->against.role.value]);
		copy_text(out->ab.ref, sizeof(out->ab.ref), &r->against.ref);
		copy_text(out->ab.base_commit, sizeof(out->ab.base_commit),
		          &r->against.base_commit);
		copy_text(out->ab.head_commit, sizeof(out->ab.head_commit),
		          &r->against.head_commit);
	}
	/* version 2 always named one; version 3 names none when each entry has its own */
	out->no_firmware = !r->firmware.head.set;
	if (!out->no_firmware)
		fill_firmware(&out->firmware, &r->firmware);
	out->regression_percent = r->fail_on_regression_percent.value;
	for (size_t i = 0; i < BR_REGRESSION_METRICS; i++) {
		const rr_regression_limit_t *l = &r->regression.by_metric[i];
		br_regression_limit_t *dst = &out->regression.by_metric[i];
		dst->set = l->head.set && (l->percent.set || l->amount.set);
		dst->has_percent = l->percent.set;
		dst->percent = l->percent.value;
		dst->has_amount = l->amount.set;
		dst->amount = l->amount.value;
	}
	out->budgets = br_budgets_from_suite(&r->budgets);
	for (size_t i = 0; i < r->benches.count; i++)
		fill_bench(br_run_record_add_bench(out),
		           br_cfg_item(&r->benches, sizeof(rr_bench_t), i));
}

static br_status_t record_from_doc(const br_yaml_doc_t *doc, br_run_record_t *out, br_error_t *err)
{
	rr_record_t r;
	br_status_t st = br_cfg_decode(doc, &record_map, &r, err);
	if (st != BR_OK)
		return st;
	for (size_t i = 0; i < r.benches.count && st == BR_OK; i++) {
		const rr_bench_t *b = br_cfg_item(&r.benches, sizeof(rr_bench_t), i);
		st = check_bench(doc->name, b, err);
		for (size_t k = 0; k < i && st == BR_OK; k++) {
			const rr_bench_t *o = br_cfg_item(&r.benches, sizeof(rr_bench_t), k);
			if (strcmp(o->name.value, b->name.value) == 0)
				st = br_cfg_error(err, doc->name, b->head.mark,
				                  "bench '%s' appears twice; expected each bench "
				                  "once",
				                  b->name.value);
		}
	}
	if (st == BR_OK)
		fill_record(out, &r);
	br_cfg_free(&record_map, &r);
	return st;
}

br_status_t br_record_parse(const char *name, const unsigned char *data, size_t size,
                            br_run_record_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	br_yaml_doc_t doc;
	br_status_t st = br_json_doc_parse(name, data, size, &doc, err);
	if (st != BR_OK)
		return st;
	st = record_from_doc(&doc, out, err);
	br_yaml_doc_free(&doc);
	return st;
}

br_status_t br_record_read(const char *path, br_run_record_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	br_yaml_doc_t doc;
	br_status_t st = br_json_doc_load(path, &doc, err);
	if (st != BR_OK)
		return st;
	st = record_from_doc(&doc, out, err);
	br_yaml_doc_free(&doc);
	return st;
}
