#include "run/measure_figures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchrack/stack_paint.h"
#include "common/xalloc.h"

/* ---- figures ----------------------------------------------------------- */

static br_status_t summarize_values(const double *v, size_t n, br_summary_t *out, br_error_t *err)
{
	return br_stats_summarize(v, n, out, err);
}

static br_status_t report_stack(br_measure_report_t *r, br_error_t *err)
{
	const br_measure_raw_t *raw = r->raw;
	if (raw->mode == BR_MEASURE_STUB) {
		r->stack_reported = raw->stub != NULL;
		if (!r->stack_reported)
			return BR_OK;
		bool ok = raw->stub->stack_bytes != BR_CB_NOT_MEASURED;
		r->stack_measured = ok ? 1U : 0U;
		r->stack_missing = ok ? 0U : 1U;
		r->stack_why = BR_STACK_OVERFLOWED;
		double v = (double)raw->stub->stack_bytes;
		return ok ? summarize_values(&v, 1, &r->stack, err) : BR_OK;
	}
	r->stack_reported = raw->stack_painted;
	if (!r->stack_reported)
		return BR_OK;
	double *v = xcalloc(raw->bp.count == 0 ? 1U : raw->bp.count, sizeof(double));
	for (size_t i = 0; i < raw->bp.count; i++) {
		const br_bp_sample_t *s = &raw->bp.samples[i];
		if (s->stack_status == BR_STACK_MEASURED) {
			v[r->stack_measured++] = (double)s->stack_bytes;
		} else {
			if (r->stack_missing == 0)
				r->stack_why = s->stack_status;
			r->stack_missing++;
		}
	}
	br_status_t st =
	    r->stack_measured > 0 ? summarize_values(v, r->stack_measured, &r->stack, err) : BR_OK;
	free(v);
	return st;
}

/* Whether the calibration (cost) is known to apply to each of r's samples,
 * net of it: it did not vary, and no net is below zero; else r->net_why. */
static bool figures_net_known(br_measure_report_t *r, const double *net, double cost)
{
	if (r->calibrated && r->calibration.min != r->calibration.max) {
		snprintf(r->net_why, sizeof(r->net_why),
		         "the calibration varied (%g to %g), so which part of it applies to each "
		         "sample is not known",
		         r->calibration.min, r->calibration.max);
		return false;
	}
	for (size_t i = 0; i < r->measured; i++) {
		if (net[i] < 0.0) {
			snprintf(r->net_why, sizeof(r->net_why),
			         "a sample (%g) is below the calibration (%g), so the calibration "
			         "does not apply to it",
			         net[i] + cost, cost);
			return false;
		}
	}
	return true;
}

br_status_t br_measure_report_summarize(br_measure_report_t *r, br_error_t *err)
{
	const br_measure_raw_t *raw = r->raw;
	if (raw == NULL)
		return BR_OK;
	double *v = xcalloc(raw->count == 0 ? 1U : raw->count, sizeof(double));
	for (size_t i = 0; i < raw->count; i++) {
		if (raw->measured[i]) {
			v[r->measured++] = (double)raw->ticks[i];
		} else {
			r->not_measured++;
			if (raw->mode == BR_MEASURE_BREAKPOINT &&
			    raw->bp.samples[i].host_seconds > r->worst_host_seconds)
				r->worst_host_seconds = raw->bp.samples[i].host_seconds;
			if (raw->mode == BR_MEASURE_STUB)
				r->worst_host_seconds = raw->stub->host_seconds;
		}
	}
	br_status_t st = BR_OK;
	if (raw->calibration.count > 0) {
		st = summarize_values(raw->calibration.samples, raw->calibration.count,
		                      &r->calibration, err);
		r->calibrated = st == BR_OK;
	}
	if (st == BR_OK && r->measured > 0) {
		st = summarize_values(v, r->measured, &r->raw_summary, err);
		double *net = xcalloc(r->measured, sizeof(double));
		double cost = r->calibrated ? r->calibration.median : 0.0;
		br_calibration_subtract(v, r->measured, cost, net);
		r->net_known = figures_net_known(r, net, cost);
		if (st == BR_OK && r->net_known)
			st = summarize_values(net, r->measured, &r->net_summary, err);
		free(net);
		r->summarized = st == BR_OK;
	}
	free(v);
	if (st == BR_OK)
		st = report_stack(r, err);
	return st;
}

br_status_t br_measure_report_sizes(br_measure_report_t *r, const br_measure_sizes_ask_t *q,
                                    char *bench_buf, char *empty_buf,
                                    br_suite_footprint_t *footprint, br_error_t *err)
{
	const char *bench = q->bench;
	r->bench_elf = q->bench_elf;
	r->empty_elf = q->empty_elf;
	if (bench != NULL && r->bench_elf == NULL &&
	    br_bench_size_sibling(q->elf_path, bench, bench_buf, BR_MEASURE_PATH_BYTES))
		r->bench_elf = bench_buf;
	if (r->empty_elf == NULL && br_bench_size_sibling(q->elf_path, BR_CALIBRATION_EMPTY_BENCH,
	                                                  empty_buf, BR_MEASURE_PATH_BYTES))
		r->empty_elf = empty_buf;
	/* Without a bench, the ELF itself is the bench's image when an empty one
	 * was named, or when it is a bench-<name>-O<L>.elf with one beside it. */
	const char *slash = strrchr(q->elf_path, '/');
	const char *base = slash != NULL ? slash + 1 : q->elf_path;
	if (bench == NULL && r->empty_elf != NULL &&
	    (q->empty_elf != NULL || strncmp(base, "bench-", strlen("bench-")) == 0))
		r->bench_elf = q->elf_path;
	if (r->bench_elf != NULL && r->empty_elf != NULL) {
		br_status_t st =
		    br_bench_size_compute(r->bench_elf, r->empty_elf, &r->bench_size, err);
		if (st != BR_OK)
			return st;
		r->bench_size_known = true;
	}
	if (!q->breakdown)
		return BR_OK;
	br_status_t fst = br_suite_footprint_compute(q->elf_path, q->empty_elf, footprint, err);
	if (fst != BR_OK)
		return fst;
	r->footprint = footprint;
	r->symbols_shown = true;
	const char *own = r->bench_elf != NULL ? r->bench_elf : q->elf_path;
	const char *against =
	    r->empty_elf != NULL && strcmp(r->empty_elf, own) != 0 ? r->empty_elf : NULL;
	r->symbols_against_empty = against != NULL;
	return br_bench_size_symbols(own, against, &r->symbols, &r->symbol_count, err);
}

const br_bp_sample_t *br_measure_report_first_not_measured(const br_measure_raw_t *raw)
{
	for (size_t i = 0; raw->mode == BR_MEASURE_BREAKPOINT && i < raw->bp.count; i++) {
		if (!raw->bp.samples[i].measured)
			return &raw->bp.samples[i];
	}
	return NULL;
}

void br_measure_report_why(const br_measure_report_t *r, char *buf, size_t size)
{
	const br_bp_sample_t *s =
	    r->raw != NULL ? br_measure_report_first_not_measured(r->raw) : NULL;
	size_t n = r->raw != NULL ? r->raw->count : 0;
	char why[BR_MEASURE_WHY_TEXT - 64U];
	if (s != NULL && s->why == BR_WRAP_STRAY) {
		br_bp_sample_why(s, why, sizeof(why));
		snprintf(buf, size, "%zu of %zu samples not measured: %s", r->not_measured, n, why);
		return;
	}
	snprintf(buf, size,
	         "%zu of %zu samples not measured: the counter may have wrapped between their "
	         "reads; use a wider or slower counter",
	         r->not_measured, n);
}
