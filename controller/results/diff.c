#include "results/diff.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "results/record_read.h"
#include "stats/compare.h"
#include "stats/paired_shift.h"

br_status_t br_diff_check_compatible(const br_run_record_t *old_rec, const char *old_name,
                                     const br_run_record_t *new_rec, br_error_t *err)
{
	const char *what = NULL;
	const char *was = NULL, *now = NULL;
	char was_hz[32], now_hz[32];
	if (strcmp(old_rec->board, new_rec->board) != 0) {
		what = "board";
		was = old_rec->board;
		now = new_rec->board;
	} else if (strcmp(old_rec->counter, new_rec->counter) != 0) {
		what = "counter";
		was = old_rec->counter;
		now = new_rec->counter;
	} else if (strcmp(old_rec->unit, new_rec->unit) != 0) {
		what = "unit";
		was = old_rec->unit;
		now = new_rec->unit;
	} else if (old_rec->clock_hz != new_rec->clock_hz) {
		what = "clock (Hz)";
		snprintf(was_hz, sizeof(was_hz), "%llu", (unsigned long long)old_rec->clock_hz);
		snprintf(now_hz, sizeof(now_hz), "%llu", (unsigned long long)new_rec->clock_hz);
		was = was_hz;
		now = now_hz;
	}
	if (what == NULL)
		return BR_OK;
	return br_error_set(err, BR_ERR_INPUT,
	                    "%s was recorded with %s '%s', not '%s': refusing to compare figures "
	                    "from another %s; expected a baseline recorded on board %s with "
	                    "counter %s (benchrack run SUITE --write-baseline)",
	                    old_name, what, was, now, what, new_rec->board, new_rec->counter);
}

void br_metric_name(br_metric_t metric, const char *unit, char *buf, size_t cap)
{
	switch (metric) {
	case BR_METRIC_COUNT: {
		size_t n = 0;
		while (unit[n] != '\0' && !isspace((unsigned char)unit[n]) && n + 1U < cap) {
			buf[n] = unit[n];
			n++;
		}
		buf[n] = '\0';
		if (n == 0)
			snprintf(buf, cap, "ticks");
		return;
	}
	case BR_METRIC_STACK:
		snprintf(buf, cap, "stack_bytes");
		return;
	case BR_METRIC_HEAP:
		snprintf(buf, cap, "heap_peak_bytes");
		return;
	case BR_METRIC_TEXT:
		snprintf(buf, cap, "text_bytes");
		return;
	}
	snprintf(buf, cap, "metric");
}

const char *br_change_name(br_change_t change)
{
	switch (change) {
	case BR_CHANGE_EQUAL:
		return "equal";
	case BR_CHANGE_BETTER:
		return "better";
	case BR_CHANGE_WORSE:
		return "worse";
	case BR_CHANGE_NOT_DISTINGUISHABLE:
		return "not distinguishable";
	case BR_CHANGE_NEW:
		return "new";
	case BR_CHANGE_GONE:
		return "gone";
	case BR_CHANGE_NOT_MEASURED:
		return "not measured";
	}
	return "unknown";
}

static br_diff_row_t *add_row(br_diff_t *d, const char *bench, br_metric_t metric, const char *unit)
{
	d->rows = xrealloc(d->rows, (d->count + 1U) * sizeof(d->rows[0]));
	br_diff_row_t *r = &d->rows[d->count++];
	memset(r, 0, sizeof(*r));
	snprintf(r->bench, sizeof(r->bench), "%s", bench);
	r->metric = metric;
	br_metric_name(metric, unit, r->metric_name, sizeof(r->metric_name));
	return r;
}

/* A summary of one exact figure: its band has no width. */
static br_summary_t constant(double v)
{
	br_summary_t s;
	memset(&s, 0, sizeof(s));
	s.n = 1;
	s.min = s.max = s.mean = s.median = v;
	s.p10 = s.p90 = s.p95 = s.p99 = v;
	return s;
}

/* The figures and bands of both sides, and the change in percent of delta. */
static void diff_sides(br_diff_row_t *r, const br_summary_t *old_s, const br_summary_t *new_s)
{
	r->has_old = r->has_new = true;
	r->old_value = old_s->median;
	r->new_value = new_s->median;
	r->old_p10 = old_s->p10;
	r->old_p90 = old_s->p90;
	r->new_p10 = new_s->p10;
	r->new_p90 = new_s->p90;
	r->delta = r->new_value - r->old_value;
	r->percent_defined = br_stats_percent_change(r->old_value, r->new_value, &r->percent);
}

/* An exact figure: any change is one. */
static void decide_exact(br_diff_row_t *r, const br_summary_t *old_s, const br_summary_t *new_s)
{
	diff_sides(r, old_s, new_s);
	r->metric_class = BR_METRIC_EXACT;
	r->change = r->delta == 0.0  ? BR_CHANGE_EQUAL
	            : r->delta > 0.0 ? BR_CHANGE_WORSE
	                             : BR_CHANGE_BETTER;
}

/* A noisy figure without both sample sets: the p10-p90 bands. */
static void decide_bands(br_diff_row_t *r, const br_summary_t *old_s, const br_summary_t *new_s)
{
	diff_sides(r, old_s, new_s);
	r->metric_class = BR_METRIC_NOISY;
	switch (br_stats_compare(old_s, new_s, NULL)) {
	case BR_VERDICT_EQUAL:
		r->change = BR_CHANGE_EQUAL;
		break;
	case BR_VERDICT_NOT_DISTINGUISHABLE:
		r->change = BR_CHANGE_NOT_DISTINGUISHABLE;
		break;
	case BR_VERDICT_FIRST_LOWER:
		r->change = BR_CHANGE_WORSE;
		break;
	case BR_VERDICT_SECOND_LOWER:
		r->change = BR_CHANGE_BETTER;
		break;
	}
}

static double *diff_as_doubles(const uint64_t *samples, size_t n)
{
	double *v = xcalloc(n, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = (double)samples[i];
	return v;
}

bool br_diff_interleaved(const br_run_record_t *old_rec, const br_run_record_t *new_rec)
{
	return strcmp(new_rec->ab.role, "head") == 0 && strcmp(old_rec->ab.role, "base") == 0;
}

const br_shift_t *br_diff_row_evidence(const br_diff_row_t *r)
{
	if (r->by_pairs)
		return &r->pairs;
	return r->by_runs && r->runs.df > 0 ? &r->runs.shift : &r->shift;
}

/* The change a test's outcome says. */
static br_change_t change_of(br_shift_outcome_t outcome)
{
	switch (outcome) {
	case BR_SHIFT_EQUAL:
		return BR_CHANGE_EQUAL;
	case BR_SHIFT_HIGHER:
		return BR_CHANGE_WORSE;
	case BR_SHIFT_LOWER:
		return BR_CHANGE_BETTER;
	case BR_SHIFT_CANT_TELL:
		break;
	}
	return BR_CHANGE_NOT_DISTINGUISHABLE;
}

/* A stored baseline (not interleaved): the new run's median against the
 * baseline's runs (an entry without runs is its own one run), the run as the
 * unit. With the drift known (df > 0) a change needs both tests; else a
 * change the samples tell apart is can't tell, the drift being unknown. */
static void decide_by_runs(br_diff_row_t *r, const br_run_record_t *old_rec,
                           const br_bench_record_t *o, const br_bench_record_t *n,
                           const br_run_record_t *new_rec)
{
	/* a baseline's runs are moments apart; a run's launches are of one */
	size_t own = old_rec->kind == BR_RECORD_BASELINE ? o->run_count : 0U;
	size_t k = own > 0 ? own : 1U;
	double *medians = xcalloc(k, sizeof(*medians));
	size_t *build = xcalloc(k, sizeof(*build));
	if (own == 0) {
		medians[0] = o->summary.median;
	} else {
		/* runs of one named build share a number; an unnamed one is alone */
		for (size_t i = 0; i < k; i++) {
			medians[i] = o->runs[i].median;
			build[i] = i;
			for (size_t j = 0; j < i && o->runs[i].build[0] != '\0'; j++) {
				if (strcmp(o->runs[j].build, o->runs[i].build) == 0) {
					build[i] = build[j];
					break;
				}
			}
		}
	}
	/* a run that took several runs of the bench (check, run/board_run.h)
	 * keeps each one's median; a baseline's runs are its history */
	size_t fresh_count = 1;
	const double *fresh = &n->summary.median;
	double *launches = NULL;
	if (n->run_count > 0 && new_rec->kind != BR_RECORD_BASELINE) {
		launches = xcalloc(n->run_count, sizeof(*launches));
		for (size_t i = 0; i < n->run_count; i++)
			launches[i] = n->runs[i].median;
		fresh = launches;
		fresh_count = n->run_count;
	}
	br_error_t err;
	bool ok =
	    br_stats_run_shift_many(medians, build, k, fresh, fresh_count, BR_STATS_CONFIDENCE,
	                            new_rec->resolution, &r->runs, &err) == BR_OK;
	free(medians);
	free(build);
	free(launches);
	if (!ok)
		return;
	r->by_runs = true;
	br_change_t samples = r->change;
	if (r->runs.df == 0) {
		r->drift_unknown = samples == BR_CHANGE_WORSE || samples == BR_CHANGE_BETTER;
		if (r->drift_unknown)
			r->change = BR_CHANGE_NOT_DISTINGUISHABLE;
		return;
	}
	br_change_t runs = change_of(r->runs.shift.outcome);
	r->change = runs == samples ? runs : BR_CHANGE_NOT_DISTINGUISHABLE;
	r->old_value = r->runs.centre;
	r->new_value = r->runs.figure;
	r->delta = r->runs.shift.estimate;
	r->percent_defined = br_stats_percent_change(r->old_value, r->new_value, &r->percent);
}

/* Interleaved, each side's launches known (as many on each side, two or
 * more): the paired test of the launches' medians; a change needs it and
 * the samples' test both. */
static void decide_by_pairs(br_diff_row_t *r, const br_bench_record_t *o,
                            const br_bench_record_t *n, const br_run_record_t *new_rec)
{
	if (o->run_count < 2U || o->run_count != n->run_count)
		return;
	double *a = xcalloc(o->run_count, sizeof(*a)), *b = xcalloc(n->run_count, sizeof(*b));
	for (size_t i = 0; i < o->run_count; i++) {
		a[i] = o->runs[i].median;
		b[i] = n->runs[i].median;
	}
	br_error_t err;
	bool ok = br_stats_paired_shift(a, b, o->run_count, BR_STATS_CONFIDENCE,
	                                new_rec->resolution, &r->pairs, &err) == BR_OK;
	free(a);
	free(b);
	if (!ok)
		return;
	r->by_pairs = true;
	r->delta = r->pairs.estimate;
	r->percent_defined =
	    br_stats_percent_change(r->old_value, r->old_value + r->delta, &r->percent);
	br_change_t pairs = change_of(r->pairs.outcome);
	r->change = pairs == r->change ? pairs : BR_CHANGE_NOT_DISTINGUISHABLE;
}

/* A noisy count with both sample sets: the shift test, and against a stored
 * baseline the run test over it. False when a side has no samples (or they
 * cannot be tested): the bands decide. */
static bool decide_tested(br_diff_row_t *r, const br_run_record_t *old_rec,
                          const br_bench_record_t *o, const br_bench_record_t *n,
                          const br_run_record_t *new_rec)
{
	if (o->samples == NULL || n->samples == NULL || o->n == 0 || n->n == 0)
		return false;
	double *a = diff_as_doubles(o->samples, o->n), *b = diff_as_doubles(n->samples, n->n);
	br_error_t err;
	br_status_t st = br_stats_shift(a, o->n, b, n->n, BR_STATS_CONFIDENCE, new_rec->resolution,
	                                &r->shift, &err);
	free(a);
	free(b);
	if (st != BR_OK)
		return false;
	diff_sides(r, &o->summary, &n->summary);
	r->metric_class = BR_METRIC_NOISY;
	r->tested = true;
	r->delta = r->shift.estimate;
	r->percent_defined =
	    br_stats_percent_change(r->old_value, r->old_value + r->delta, &r->percent);
	r->change = change_of(r->shift.outcome);
	bool samples_cant_tell = r->change == BR_CHANGE_NOT_DISTINGUISHABLE;
	if (!br_diff_interleaved(old_rec, new_rec))
		decide_by_runs(r, old_rec, o, n, new_rec);
	else
		decide_by_pairs(r, o, n, new_rec);
	/* more samples settle only what the samples' own test could not tell */
	if (!samples_cant_tell || (r->by_runs && r->runs.df > 0) || r->by_pairs)
		return true;
	/* how many samples would settle it: resolve the limit, or failing
	 * one, the change the estimate suggests */
	br_regression_limit_t limit = br_metric_limit(new_rec, r->metric_name);
	double target = fabs(r->delta);
	if (limit.has_percent && limit.percent > 0.0 && r->old_value != 0.0)
		target = limit.percent / 100.0 * fabs(r->old_value);
	else if (limit.has_amount && limit.amount > 0.0)
		target = limit.amount;
	size_t need = br_stats_shift_samples_for(&r->shift, target);
	size_t have = o->n > n->n ? o->n : n->n;
	/* not resolved yet at this many, and not hidden by the clock whatever
	 * the number */
	if (need != SIZE_MAX && need > have && target > new_rec->resolution) {
		r->samples_needed = need;
		r->samples_target = target;
	}
	return true;
}

static void one_sided(br_diff_row_t *r, bool is_old, double v, br_change_t change)
{
	r->change = change;
	if (is_old) {
		r->has_old = true;
		r->old_value = r->old_p10 = r->old_p90 = v;
	} else {
		r->has_new = true;
		r->new_value = r->new_p10 = r->new_p90 = v;
	}
}

/* One size metric (stack or heap) of a bench present in both records. */
static void compare_size(br_diff_t *d, const char *bench, br_metric_t metric, const char *unit,
                         bool old_known, double old_v, bool new_known, double new_v)
{
	br_diff_row_t *r = add_row(d, bench, metric, unit);
	if (old_known && new_known) {
		br_summary_t a = constant(old_v), b = constant(new_v);
		decide_exact(r, &a, &b);
	} else if (new_known) {
		one_sided(r, false, new_v, BR_CHANGE_NEW);
	} else {
		r->change = BR_CHANGE_NOT_MEASURED;
		if (old_known)
			one_sided(r, true, old_v, BR_CHANGE_NOT_MEASURED);
	}
}

/* The text of an entry's own firmware, where the run's (firmware) row does
 * not already show it. */
static void compare_entry_text(br_diff_t *d, const char *unit, const br_run_record_t *new_rec,
                               const br_bench_record_t *o, const br_bench_record_t *n)
{
	bool old_known = o != NULL && o->has_firmware && o->firmware.sizes_known;
	bool new_known = n->has_firmware && n->firmware.sizes_known;
	if (!new_known ||
	    (!new_rec->no_firmware && strcmp(new_rec->elf_path, n->firmware.elf_path) == 0))
		return;
	compare_size(d, n->name, BR_METRIC_TEXT, unit, old_known,
	             old_known ? (double)o->firmware.text_bytes : 0.0, true,
	             (double)n->firmware.text_bytes);
}

static void compare_bench(br_diff_t *d, const br_run_record_t *old_rec,
                          const br_run_record_t *new_rec, const br_bench_record_t *o,
                          const br_bench_record_t *n)
{
	const char *unit = new_rec->unit;
	br_metric_class_t cls = br_metric_class_of(new_rec, BR_METRIC_COUNT);
	bool old_measured = o != NULL && o->status == BR_BENCH_MEASURED;
	bool new_measured = n->status == BR_BENCH_MEASURED;
	br_diff_row_t *r = add_row(d, n->name, BR_METRIC_COUNT, unit);
	r->metric_class = cls;
	if (!new_measured) {
		r->change = BR_CHANGE_NOT_MEASURED;
		if (old_measured)
			one_sided(r, true, o->summary.median, BR_CHANGE_NOT_MEASURED);
		return;
	}
	if (!old_measured) {
		one_sided(r, false, n->summary.median, BR_CHANGE_NEW);
		r->new_p10 = n->summary.p10;
		r->new_p90 = n->summary.p90;
		return;
	}
	if (cls == BR_METRIC_EXACT)
		decide_exact(r, &o->summary, &n->summary);
	else if (!decide_tested(r, old_rec, o, n, new_rec))
		decide_bands(r, &o->summary, &n->summary);
	compare_size(d, n->name, BR_METRIC_STACK, unit, o->stack_measured, o->stack_bytes,
	             n->stack_measured, n->stack_bytes);
	if (o->heap_known || n->heap_known)
		compare_size(d, n->name, BR_METRIC_HEAP, unit, o->heap_known, o->heap_peak,
		             n->heap_known, n->heap_peak);
}

void br_diff_compute(const br_run_record_t *old_rec, const br_run_record_t *new_rec, br_diff_t *out)
{
	memset(out, 0, sizeof(*out));
	const char *unit = new_rec->unit;
	for (size_t i = 0; i < new_rec->bench_count; i++) {
		const br_bench_record_t *n = &new_rec->benches[i];
		const br_bench_record_t *o = br_run_record_find(old_rec, n->name);
		compare_bench(out, old_rec, new_rec, o, n);
		compare_entry_text(out, unit, new_rec, o, n);
	}
	for (size_t i = 0; i < old_rec->bench_count; i++) {
		const br_bench_record_t *o = &old_rec->benches[i];
		if (br_run_record_find(new_rec, o->name) != NULL)
			continue;
		br_diff_row_t *r = add_row(out, o->name, BR_METRIC_COUNT, unit);
		if (o->status == BR_BENCH_MEASURED)
			one_sided(r, true, o->summary.median, BR_CHANGE_GONE);
		else
			r->change = BR_CHANGE_GONE;
	}
	/* the run's own firmware (none when its entries each name their own) */
	bool old_known = old_rec->sizes_known && !old_rec->no_firmware;
	bool new_known = new_rec->sizes_known && !new_rec->no_firmware;
	if (old_known || new_known)
		compare_size(out, BR_DIFF_FIRMWARE, BR_METRIC_TEXT, unit, old_known,
		             (double)old_rec->text_bytes, new_known, (double)new_rec->text_bytes);
}

void br_diff_free(br_diff_t *diff)
{
	free(diff->rows);
	diff->rows = NULL;
	diff->count = 0;
}

void br_diff_format_percent(const br_diff_row_t *row, char *buf, size_t cap)
{
	if (!row->has_old || !row->has_new)
		snprintf(buf, cap, "-");
	else if (row->percent_defined)
		snprintf(buf, cap, "%+.1f%%", row->percent);
	else
		snprintf(buf, cap, "new (was 0)");
}

void br_diff_format_p(double p, char *buf, size_t cap)
{
	if (p < 0.001)
		snprintf(buf, cap, "p < 0.001");
	else if (p < 0.1)
		snprintf(buf, cap, "p = %.3f", p);
	else
		snprintf(buf, cap, "p = %.2f", p);
}

/* A percentage with a sign when asked: one decimal, more for small ones. */
static void diff_pct(double v, bool sign, char *buf, size_t cap)
{
	double a = fabs(v);
	if (a != 0.0 && a < 0.05)
		snprintf(buf, cap, sign ? "%+.2g" : "%.2g", v);
	else
		snprintf(buf, cap, sign ? "%+.1f" : "%.1f", v);
}

/* What the bytes of a size metric are of. */
static const char *diff_bytes_of(br_metric_t m)
{
	switch (m) {
	case BR_METRIC_STACK:
		return "stack";
	case BR_METRIC_HEAP:
		return "heap peak";
	case BR_METRIC_TEXT:
		return "text";
	case BR_METRIC_COUNT:
		break;
	}
	return "";
}

/* An exact change: its amount, then its percentage. */
static void diff_describe_exact(const br_diff_row_t *r, char *buf, size_t cap)
{
	char amount[64], pct[32] = "was 0";
	if (r->metric == BR_METRIC_COUNT)
		snprintf(amount, sizeof(amount), "%+.0f %s", r->delta, r->metric_name);
	else
		snprintf(amount, sizeof(amount), "%+.0f B %s", r->delta, diff_bytes_of(r->metric));
	if (r->percent_defined) {
		diff_pct(r->percent, true, pct, sizeof(pct));
		snprintf(pct + strlen(pct), sizeof(pct) - strlen(pct), " %%");
	}
	snprintf(buf, cap, "%s (%s)", amount, pct);
}

/* Appends to buf (n bytes used of cap). */
static size_t diff_append(char *buf, size_t cap, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static size_t diff_append(char *buf, size_t cap, size_t n, const char *fmt, ...)
{
	if (n >= cap)
		return n;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + n, cap - n, fmt, ap);
	va_end(ap);
	return k < 0 ? cap : n + (size_t)k;
}

/* "1 baseline run", "10 baseline runs". */
static const char *diff_runs_word(size_t k)
{
	return k == 1 ? "baseline run" : "baseline runs";
}

/* "median of 5 runs against " when the new figure is several runs', else "". */
static void diff_fresh_runs(const br_diff_row_t *r, char *buf, size_t cap)
{
	if (r->runs.new_runs > 1U)
		snprintf(buf, cap, "median of %zu runs against ", r->runs.new_runs);
	else if (cap > 0)
		buf[0] = '\0';
}

/* A tested change: the estimate and its interval, in percent of the old
 * figure (in the metric's unit when that is 0), from the test that decided
 * (br_diff_row_evidence). */
static void diff_describe_tested(const br_diff_row_t *r, char *buf, size_t cap)
{
	const br_shift_t *t = br_diff_row_evidence(r);
	bool runs = r->by_runs && r->runs.df > 0;
	bool rel = r->old_value != 0.0;
	double scale = rel ? 100.0 / fabs(r->old_value) : 1.0;
	const char *u = rel ? " %" : "";
	char a[32], lo[32], hi[32], p[32];
	size_t n = 0;
	if (r->drift_unknown) {
		/* the samples tell a change apart the drift might make */
		diff_pct(t->estimate * scale, true, a, sizeof(a));
		br_diff_format_p(t->p_value, p, sizeof(p));
		snprintf(buf, cap,
		         "can't tell (%s%s within this run, %s; drift between runs not known: "
		         "the baseline holds %zu run%s of this build; add runs with "
		         "--write-baseline, or check --against REF)",
		         a, u, p, r->runs.centre_runs, r->runs.centre_runs == 1 ? "" : "s");
		return;
	}
	if (r->change == BR_CHANGE_NOT_DISTINGUISHABLE) {
		if (!t->bounded) {
			snprintf(buf, cap, "can't tell (too few samples)");
			return;
		}
		diff_pct(t->half_width * scale, false, a, sizeof(a));
		if (r->by_pairs) {
			diff_pct(t->estimate * scale, true, lo, sizeof(lo));
			snprintf(buf, cap,
			         "can't tell (%s%s \u00b1%s%s over %zu interleaved pairs)", lo, u,
			         a, u, t->n_first);
			return;
		}
		if (runs) {
			char fresh[48];
			diff_fresh_runs(r, fresh, sizeof(fresh));
			diff_pct(t->estimate * scale, true, lo, sizeof(lo));
			snprintf(buf, cap,
			         "can't tell (%s%s \u00b1%s%s from run to run, %s%zu %s; check "
			         "--against REF interleaves)",
			         lo, u, a, u, fresh, r->runs.runs, diff_runs_word(r->runs.runs));
			return;
		}
		n = diff_append(buf, cap, n, "can't tell (\u00b1%s%s", a, u);
		if (r->samples_needed > 0) {
			diff_pct(r->samples_target * scale, false, lo, sizeof(lo));
			n = diff_append(buf, cap, n,
			                "; %zu samples a side would resolve \u00b1%s%s",
			                r->samples_needed, lo, u);
		}
		diff_append(buf, cap, n, ")");
		return;
	}
	diff_pct(fabs(t->estimate) * scale, false, a, sizeof(a));
	diff_pct(t->low * scale, false, lo, sizeof(lo));
	diff_pct(t->high * scale, false, hi, sizeof(hi));
	br_diff_format_p(t->p_value, p, sizeof(p));
	n = diff_append(buf, cap, n, "%s by %s%s (%s..%s%s, %s",
	                r->change == BR_CHANGE_WORSE ? "worse" : "better", a, u, lo, hi, u, p);
	if (r->by_pairs)
		n = diff_append(buf, cap, n, "; %zu interleaved pairs", t->n_first);
	else if (runs) {
		char fresh[48];
		diff_fresh_runs(r, fresh, sizeof(fresh));
		n = diff_append(buf, cap, n, "; %s%zu %s", fresh, r->runs.runs,
		                diff_runs_word(r->runs.runs));
	}
	diff_append(buf, cap, n, ")");
}

void br_diff_describe(const br_diff_row_t *r, char *buf, size_t cap)
{
	switch (r->change) {
	case BR_CHANGE_EQUAL:
	case BR_CHANGE_NEW:
	case BR_CHANGE_GONE:
	case BR_CHANGE_NOT_MEASURED:
		snprintf(buf, cap, "%s", br_change_name(r->change));
		return;
	case BR_CHANGE_BETTER:
	case BR_CHANGE_WORSE:
	case BR_CHANGE_NOT_DISTINGUISHABLE:
		break;
	}
	if (r->tested) {
		diff_describe_tested(r, buf, cap);
	} else if (r->metric_class == BR_METRIC_EXACT) {
		diff_describe_exact(r, buf, cap);
	} else if (r->change == BR_CHANGE_NOT_DISTINGUISHABLE) {
		snprintf(buf, cap, "not distinguishable (p10..p90 bands overlap)");
	} else {
		char pct[32];
		br_diff_format_percent(r, pct, sizeof(pct));
		snprintf(buf, cap, "%s: %s (medians; bands apart)", br_change_name(r->change), pct);
	}
}

br_status_t br_diff_files(const char *old_path, const char *new_path, br_run_record_t *old_rec,
                          br_run_record_t *new_rec, br_diff_t *out, br_error_t *err)
{
	br_status_t st = br_record_read(old_path, old_rec, err);
	if (st != BR_OK)
		return st;
	st = br_record_read(new_path, new_rec, err);
	if (st == BR_OK) {
		st = br_diff_check_compatible(old_rec, old_path, new_rec, err);
		if (st != BR_OK)
			br_run_record_free(new_rec);
	}
	if (st != BR_OK) {
		br_run_record_free(old_rec);
		return st;
	}
	br_diff_compute(old_rec, new_rec, out);
	return BR_OK;
}
