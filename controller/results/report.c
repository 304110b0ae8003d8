#include "results/report.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

br_report_verdict_t br_report_verdict(const br_report_t *reports, size_t count)
{
	br_report_verdict_t v = BR_REPORT_PASS;
	for (size_t i = 0; i < count; i++) {
		const br_report_t *r = &reports[i];
		if (r->run->status == BR_RECORD_FAILED || (r->gate != NULL && r->gate->not_run > 0))
			return BR_REPORT_ERROR;
		if (r->gate != NULL && r->gate->failures > 0)
			v = BR_REPORT_FAIL;
	}
	return v;
}

const char *br_report_verdict_name(br_report_verdict_t verdict)
{
	switch (verdict) {
	case BR_REPORT_PASS:
		return "pass";
	case BR_REPORT_FAIL:
		return "fail";
	case BR_REPORT_ERROR:
		return "error";
	}
	return "error";
}

const br_diff_row_t *br_report_diff_row(const br_report_t *report, const char *bench,
                                        br_metric_t metric)
{
	for (size_t i = 0; report->diff != NULL && i < report->diff->count; i++) {
		const br_diff_row_t *r = &report->diff->rows[i];
		if (r->metric == metric && strcmp(r->bench, bench) == 0)
			return r;
	}
	return NULL;
}

bool br_report_has_finding(const br_report_t *report, const char *bench, const char *metric)
{
	for (size_t i = 0; report->gate != NULL && i < report->gate->count; i++) {
		const br_finding_t *f = &report->gate->findings[i];
		if (strcmp(f->bench, bench) == 0 && strcmp(f->metric, metric) == 0)
			return true;
	}
	return false;
}

#define REPORT_PLAIN_LIMIT 1e15 /* figures below are shown in plain digits */
#define REPORT_MAX_DIGITS 17    /* enough for any double to read back the same */

void br_report_figure(double v, char *buf, size_t cap)
{
	if (!isfinite(v)) {
		snprintf(buf, cap, "-");
	} else if (v == floor(v) && fabs(v) < REPORT_PLAIN_LIMIT) {
		snprintf(buf, cap, "%.0f", v);
	} else if (fabs(v) < REPORT_PLAIN_LIMIT) {
		snprintf(buf, cap, "%.1f", v);
	} else {
		/* Too wide for a column in plain digits: the fewest significant digits
		 * that read back as v (at most 17), e.g. 1e+40, never a cut number. */
		for (int digits = 1; digits <= REPORT_MAX_DIGITS; digits++) {
			snprintf(buf, cap, "%.*g", digits, v);
			if (strtod(buf, NULL) == v)
				break;
		}
	}
}
