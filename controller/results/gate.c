#include "results/gate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "results/report.h"

static br_finding_t *add(br_gate_t *g, br_finding_kind_t kind, const char *bench,
                         const char *metric)
{
	g->findings = xrealloc(g->findings, (g->count + 1U) * sizeof(g->findings[0]));
	br_finding_t *f = &g->findings[g->count++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	snprintf(f->bench, sizeof(f->bench), "%s", bench);
	snprintf(f->metric, sizeof(f->metric), "%s", metric);
	if (kind == BR_FINDING_NOT_RUN)
		g->not_run++;
	else
		g->failures++;
	return f;
}

static void say(br_finding_t *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(br_finding_t *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
}

/* value against budget: a finding when over. what is the figure's name
 * ("instructions median", "stack"), key the budget's. */
static void check_budget(br_gate_t *g, const char *bench, const char *metric, const char *what,
                         double value, const br_limit_t *limit, const char *key)
{
	if (!limit->set || value <= (double)limit->value)
		return;
	br_finding_t *f = add(g, BR_FINDING_BUDGET, bench, metric);
	f->value = value;
	f->limit = (double)limit->value;
	if (limit->value > 0) {
		f->percent = 100.0 * (value - f->limit) / f->limit;
		say(f, "%s: %s %.0f exceeds budget %s %llu by %.1f%%", bench, what, value, key,
		    (unsigned long long)limit->value, f->percent);
	} else {
		f->percent = (double)INFINITY;
		say(f, "%s: %s %.0f exceeds budget %s 0", bench, what, value, key);
	}
}

/* A budget on a figure a run may lack (metric, also the figure's name):
 * checked when the run has it; when it has not and the budget is set, a
 * finding that the budget cannot be shown to hold ("not <lacking>"). */
static void check_figure_budget(br_gate_t *g, const char *bench, const char *metric, bool known,
                                const char *lacking, double value, const br_limit_t *limit,
                                const char *key)
{
	if (limit->set && !known) {
		br_finding_t *f = add(g, BR_FINDING_NOT_MEASURED, bench, metric);
		f->limit = (double)limit->value;
		say(f, "%s: %s not %s, so budget %s %llu cannot be shown to hold", bench, metric,
		    lacking, key, (unsigned long long)limit->value);
	} else if (known) {
		check_budget(g, bench, metric, metric, value, limit, key);
	}
}

static void check_bench(br_gate_t *g, const br_run_record_t *run, const br_bench_record_t *b)
{
	char metric[32];
	br_metric_name(BR_METRIC_COUNT, run->unit, metric, sizeof(metric));
	if (b->status != BR_BENCH_MEASURED) {
		br_finding_t *f = add(g, BR_FINDING_NOT_RUN, b->name, metric);
		say(f, "%s: not run: %s", b->name, b->reason[0] != '\0' ? b->reason : "unknown");
		return;
	}
	char what[48];
	snprintf(what, sizeof(what), "%s median", metric);
	check_budget(g, b->name, metric, what, b->summary.median,
	             &b->budgets.max_cycles_per_iteration, "max_cycles_per_iteration");
	check_figure_budget(g, b->name, "stack_bytes", b->stack_measured,
	                    "measured (the painted region was overrun)", b->stack_bytes,
	                    &b->budgets.max_stack_bytes, "max_stack_bytes");
	check_figure_budget(g, b->name, "heap_peak_bytes", b->heap_known,
	                    "known (only the stub counts the heap)", b->heap_peak,
	                    &b->budgets.max_heap_bytes, "max_heap_bytes");
	/* an entry's own firmware: its text, unless the run's own check covers it */
	if (b->has_firmware && b->firmware.sizes_known && !br_bench_firmware_is_run(run, b))
		check_budget(g, b->name, "text_bytes", "text_bytes", (double)b->firmware.text_bytes,
		             &b->budgets.max_text_bytes, "max_text_bytes");
}

static void check_regression(br_gate_t *g, const br_run_record_t *run, const br_diff_row_t *r)
{
	if (r->change != BR_CHANGE_WORSE || !r->has_old || !r->has_new)
		return;
	br_regression_limit_t limit = br_metric_limit(run, r->metric_name);
	if (!br_metric_beyond_limit(&limit, r->percent_defined, r->percent, r->delta))
		return;
	br_finding_t *f = add(g, BR_FINDING_REGRESSION, r->bench, r->metric_name);
	f->value = r->new_value;
	f->limit = r->old_value;
	f->percent = r->percent;
	char words[BR_DIFF_WORDS_BYTES], was[32], now[32], lim[64];
	br_diff_describe(r, words, sizeof(words));
	br_report_figure(r->old_value, was, sizeof(was));
	br_report_figure(r->new_value, now, sizeof(now));
	br_regression_limit_format(&limit, r->metric_name, lim, sizeof(lim));
	say(f, "%s: %s %s vs baseline %s: %s, beyond the %s regression limit", r->bench,
	    r->metric_name, now, was, words, lim);
}

void br_gate_evaluate(const br_run_record_t *run, const br_diff_t *diff, br_gate_t *out)
{
	memset(out, 0, sizeof(*out));
	out->regression_percent = run->regression_percent;
	out->compared = diff != NULL;
	for (size_t i = 0; i < run->bench_count; i++)
		check_bench(out, run, &run->benches[i]);
	if (run->sizes_known && !run->no_firmware)
		check_budget(out, BR_DIFF_FIRMWARE, "text_bytes", "text_bytes",
		             (double)run->text_bytes, &run->budgets.max_text_bytes,
		             "max_text_bytes");
	for (size_t i = 0; diff != NULL && i < diff->count; i++)
		check_regression(out, run, &diff->rows[i]);
}

void br_gate_check_limit(br_gate_t *g, const char *bench, const char *metric, const char *what,
                         bool known, const char *lacking, double value, uint64_t limit,
                         const char *key)
{
	br_limit_t l = {.set = true, .value = limit};
	if (known) {
		check_budget(g, bench, metric, what, value, &l, key);
		return;
	}
	br_finding_t *f = add(g, BR_FINDING_NOT_MEASURED, bench, metric);
	f->limit = (double)limit;
	say(f, "%s: %s not %s, so budget %s %llu cannot be shown to hold", bench, what, lacking,
	    key, (unsigned long long)limit);
}

void br_gate_free(br_gate_t *gate)
{
	free(gate->findings);
	memset(gate, 0, sizeof(*gate));
}

const char *br_finding_kind_name(br_finding_kind_t kind)
{
	switch (kind) {
	case BR_FINDING_BUDGET:
		return "budget";
	case BR_FINDING_REGRESSION:
		return "regression";
	case BR_FINDING_NOT_MEASURED:
		return "not measured";
	case BR_FINDING_NOT_RUN:
		return "not run";
	}
	return "finding";
}

const br_finding_t *br_gate_first(const br_gate_t *g, size_t *more)
{
	*more = 0;
	for (size_t k = 0; k < g->count; k++) {
		bool error = g->findings[k].kind == BR_FINDING_NOT_RUN;
		if (g->failures > 0 ? !error : error) {
			*more = (g->failures > 0 ? g->failures : g->not_run) - 1U;
			return &g->findings[k];
		}
	}
	return NULL;
}
