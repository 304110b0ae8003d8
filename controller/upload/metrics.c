#include "upload/metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "upload/timestamp.h"

#define METRICS_MAX_DIGITS 17
#define METRICS_WHOLE_LIMIT 1e15

/* In the order they are written. Figures are in the counter's unit. */
enum {
	M_MEDIAN,
	M_P10,
	M_P90,
	M_P95,
	M_P99,
	M_MIN,
	M_MAX,
	M_MEAN,
	M_MAD,
	M_CV,
	M_N,
	M_OUTLIERS,
	M_STACK,
	M_HEAP_PEAK,
	M_HEAP_LIVE,
	M_HEAP_ALLOCS,
	M_CALIBRATION,
	M_WALL,
	M_TEXT,
	M_DATA,
	M_BSS,
	M_COUNT
};

static const br_upload_metric_t metrics[M_COUNT] = {
    [M_MEDIAN] = {"median", "Median of the per-iteration counts, in the unit label's unit", false},
    [M_P10] = {"p10", "10th percentile of the per-iteration counts", false},
    [M_P90] = {"p90", "90th percentile of the per-iteration counts", false},
    [M_P95] = {"p95", "95th percentile of the per-iteration counts", false},
    [M_P99] = {"p99", "99th percentile of the per-iteration counts", false},
    [M_MIN] = {"min", "Smallest per-iteration count", false},
    [M_MAX] = {"max", "Largest per-iteration count", false},
    [M_MEAN] = {"mean", "Mean of the per-iteration counts", false},
    [M_MAD] = {"mad", "Median absolute deviation of the per-iteration counts (unscaled)", false},
    [M_CV] = {"cv_median", "Standard deviation divided by the median (a ratio, capped at 10)",
              false},
    [M_N] = {"n", "Measured iterations (after warm-up)", true},
    [M_OUTLIERS] = {"outliers", "Iterations far from the median", true},
    [M_STACK] = {"stack_bytes", "Deepest stack the bench used, in bytes", true},
    [M_HEAP_PEAK] = {"heap_peak_bytes", "Most heap the bench held at once, in bytes", true},
    [M_HEAP_LIVE] = {"heap_live_bytes",
                     "Heap still held when the bench ended (a leak), in "
                     "bytes",
                     true},
    [M_HEAP_ALLOCS] = {"heap_allocations", "Allocations the bench made", true},
    [M_CALIBRATION] = {"calibration", "What measuring itself costs, included in the figures",
                       false},
    [M_WALL] = {"wall_seconds", "Host time the bench took, in seconds", false},
    [M_TEXT] = {"text_bytes", "Firmware code and constants (text), in bytes", true},
    [M_DATA] = {"data_bytes", "Firmware initialised data, in bytes", true},
    [M_BSS] = {"bss_bytes", "Firmware zero-initialised data (bss), in bytes", true},
};

const br_upload_metric_t *br_upload_metrics(size_t *count)
{
	*count = M_COUNT;
	return metrics;
}

static int label_cmp(const void *a, const void *b)
{
	const br_upload_label_t *x = a, *y = b;
	return strcmp(x->key, y->key);
}

/* Adds key=value unless value is empty. */
static void label_add(br_upload_label_t *labels, size_t *count, const char *key, const char *value)
{
	if (value == NULL || value[0] == '\0' || *count >= BR_UPLOAD_MAX_LABELS)
		return;
	labels[*count].key = key;
	labels[*count].value = value;
	(*count)++;
}

/* Sets key to value (replacing what the run's labels said), or removes the
 * key when value is empty. */
static void label_set(br_upload_label_t *labels, size_t *count, const char *key, const char *value)
{
	for (size_t i = 0; i < *count; i++) {
		if (strcmp(labels[i].key, key) != 0)
			continue;
		memmove(&labels[i], &labels[i + 1U], (*count - i - 1U) * sizeof(labels[0]));
		(*count)--;
		break;
	}
	label_add(labels, count, key, value);
}

static void value_add(br_upload_series_t *s, unsigned metric, double v)
{
	if (!isfinite(v) || s->value_count >= BR_UPLOAD_MAX_VALUES)
		return;
	s->values[s->value_count].metric = &metrics[metric];
	s->values[s->value_count].value = v;
	s->value_count++;
}

/* The file name at the end of path ("" for ""). */
static char *file_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return xstrdup(slash != NULL ? slash + 1 : path);
}

static void run_labels(const br_run_record_t *run, br_upload_points_t *p)
{
	/* a run whose entries each name their own firmware has none to label */
	bool fw = !run->no_firmware;
	p->firmware_name = file_name(fw ? run->elf_path : "");
	br_upload_label_t *l = p->run_labels;
	size_t *n = &p->run_label_count;
	label_add(l, n, "board", run->board);
	label_add(l, n, "build_id", fw ? run->build_id : "");
	label_add(l, n, "counter", run->counter);
	label_add(l, n, "firmware", p->firmware_name);
	label_add(l, n, "git_commit", fw ? run->git_commit : "");
	label_add(l, n, "host", run->host);
	label_add(l, n, "server", run->server);
	label_add(l, n, "sha256", fw ? run->sha256 : "");
	label_add(l, n, "suite", run->suite);
	label_add(l, n, "toolchain", fw ? run->toolchain : "");
	label_add(l, n, "unit", run->unit);
	qsort(l, *n, sizeof(l[0]), label_cmp);
}

/* Whether b measured a firmware other than the run's (an entry's own ELF). */
static bool entry_own_firmware(const br_run_record_t *run, const br_bench_record_t *b)
{
	return b->has_firmware &&
	       (run->no_firmware || strcmp(run->elf_path, b->firmware.elf_path) != 0);
}

/* The labels that name a firmware, set to fw's: a series is labelled by the
 * firmware it measured, not the run's. */
static void firmware_labels(br_upload_series_t *s, const br_firmware_info_t *fw)
{
	if (s->elf_name == NULL)
		s->elf_name = file_name(fw->elf_path);
	label_set(s->labels, &s->label_count, "firmware", s->elf_name);
	label_set(s->labels, &s->label_count, "build_id", fw->build_id);
	label_set(s->labels, &s->label_count, "sha256", fw->sha256);
	label_set(s->labels, &s->label_count, "git_commit", fw->git_commit);
	label_set(s->labels, &s->label_count, "toolchain", fw->toolchain);
}

/* The sizes of one firmware as a series. */
static void firmware_series(const br_upload_points_t *p, const br_firmware_info_t *fw, bool own,
                            br_upload_series_t *s)
{
	s->kind = BR_UPLOAD_SERIES_FIRMWARE;
	memcpy(s->labels, p->run_labels, p->run_label_count * sizeof(s->labels[0]));
	s->label_count = p->run_label_count;
	if (own) {
		firmware_labels(s, fw);
		qsort(s->labels, s->label_count, sizeof(s->labels[0]), label_cmp);
	}
	value_add(s, M_TEXT, (double)fw->text_bytes);
	value_add(s, M_DATA, (double)fw->data_bytes);
	value_add(s, M_BSS, (double)fw->bss_bytes);
}

/* Whether an entry before index i already had firmware fw of its own. */
static bool firmware_seen(const br_run_record_t *run, size_t i, const br_firmware_info_t *fw)
{
	for (size_t k = 0; k < i; k++) {
		const br_bench_record_t *o = &run->benches[k];
		if (entry_own_firmware(run, o) && o->firmware.sizes_known &&
		    strcmp(o->firmware.elf_path, fw->elf_path) == 0)
			return true;
	}
	return false;
}

static void bench_series(const br_upload_points_t *p, const br_run_record_t *run,
                         const br_bench_record_t *b, br_upload_series_t *s)
{
	s->kind = BR_UPLOAD_SERIES_BENCH;
	memcpy(s->labels, p->run_labels, p->run_label_count * sizeof(s->labels[0]));
	s->label_count = p->run_label_count;
	s->elf_name = file_name(b->elf_path);
	if (entry_own_firmware(run, b))
		firmware_labels(s, &b->firmware);
	label_add(s->labels, &s->label_count, "bench", b->name);
	label_add(s->labels, &s->label_count, "elf", s->elf_name);
	label_add(s->labels, &s->label_count, "mode", b->mode);
	qsort(s->labels, s->label_count, sizeof(s->labels[0]), label_cmp);
	const br_summary_t *m = &b->summary;
	const double figures[] = {m->median, m->p10, m->p90,  m->p95, m->p99,
	                          m->min,    m->max, m->mean, m->mad, m->cv_median};
	for (unsigned i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
		value_add(s, M_MEDIAN + i, figures[i]);
	value_add(s, M_N, (double)b->n);
	value_add(s, M_OUTLIERS, (double)m->outliers);
	if (b->stack_measured)
		value_add(s, M_STACK, b->stack_bytes);
	if (b->heap_known) {
		value_add(s, M_HEAP_PEAK, b->heap_peak);
		value_add(s, M_HEAP_LIVE, b->heap_live);
		value_add(s, M_HEAP_ALLOCS, b->heap_allocs);
	}
	if (b->calibrated)
		value_add(s, M_CALIBRATION, b->calibration_median);
	if (b->wall_seconds > 0.0)
		value_add(s, M_WALL, b->wall_seconds);
}

br_status_t br_upload_points_map(const br_run_record_t *run, const char *run_file,
                                 br_upload_points_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	if (!br_upload_time_of_run(run->timestamp, run_file, &out->time_ms))
		return br_error_set(err, BR_ERR_INPUT,
		                    "the record's timestamp '%s' is not an ISO 8601 UTC time: its "
		                    "points cannot be placed in time",
		                    run->timestamp);
	run_labels(run, out);
	out->series = xcalloc(2U * run->bench_count + 1U, sizeof(out->series[0]));
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		if (b->status != BR_BENCH_MEASURED)
			continue;
		bench_series(out, run, b, &out->series[out->count++]);
	}
	if (run->sizes_known && !run->no_firmware)
		firmware_series(out, &run->firmware, false, &out->series[out->count++]);
	/* each entry's own firmware, once */
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		if (entry_own_firmware(run, b) && b->firmware.sizes_known &&
		    !firmware_seen(run, i, &b->firmware))
			firmware_series(out, &b->firmware, true, &out->series[out->count++]);
	}
	return BR_OK;
}

void br_upload_points_free(br_upload_points_t *points)
{
	for (size_t i = 0; i < points->count; i++)
		free(points->series[i].elf_name);
	free(points->series);
	free(points->firmware_name);
	memset(points, 0, sizeof(*points));
}

const br_upload_value_t *br_upload_series_value(const br_upload_series_t *series,
                                                const br_upload_metric_t *metric)
{
	for (size_t i = 0; i < series->value_count; i++) {
		if (series->values[i].metric == metric)
			return &series->values[i];
	}
	return NULL;
}

bool br_upload_label_keys(const br_upload_labels_t *choice, const char *key)
{
	static const char *const bounded[] = {"bench", "board", "suite", "unit"};
	for (size_t i = 0; i < sizeof(bounded) / sizeof(bounded[0]); i++) {
		if (strcmp(bounded[i], key) == 0)
			return true;
	}
	for (size_t i = 0; choice != NULL && i < choice->count; i++) {
		if (strcmp(choice->extra[i], key) == 0)
			return true;
	}
	return false;
}

const char *br_upload_label_find(const br_upload_label_t *labels, size_t count, const char *key)
{
	for (size_t i = 0; i < count; i++) {
		if (strcmp(labels[i].key, key) == 0)
			return labels[i].value;
	}
	return NULL;
}

void br_upload_number_format(double v, bool integer, char *buf, size_t cap)
{
	if (integer || (v == floor(v) && fabs(v) < METRICS_WHOLE_LIMIT)) {
		snprintf(buf, cap, "%.0f", v);
		return;
	}
	for (int digits = 1; digits <= METRICS_MAX_DIGITS; digits++) {
		snprintf(buf, cap, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}
