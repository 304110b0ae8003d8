#include "run/measure_figures.h"

#include <stdlib.h>

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
		br_calibration_subtract(v, r->measured, r->calibrated ? r->calibration.median : 0.0,
		                        net);
		if (st == BR_OK)
			st = summarize_values(net, r->measured, &r->net_summary, err);
		free(net);
		r->summarized = st == BR_OK;
	}
	free(v);
	if (st == BR_OK)
		st = report_stack(r, err);
	return st;
}

