#include "report/report_steps.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/change_points.h"
#include "stats/compare.h"
#include "stats/summary.h"

#define STEPS_MAX 16U

/* The median of values[lo, hi) (a copy is sorted). */
static double steps_level(const double *values, size_t lo, size_t hi)
{
	br_summary_t s;
	if (br_stats_summarize(values + lo, hi - lo, &s, NULL) != BR_OK)
		return 0.0;
	return s.median;
}

/* The steps of bench in the history of runs[idx[0..count)]. */
static void steps_of_bench(br_json_t *j, const br_page_t *page, const size_t *idx, size_t count,
                           const char *bench)
{
	double *y = xcalloc(count, sizeof(*y));
	size_t *run = xcalloc(count, sizeof(*run));
	size_t n = 0;
	double resolution = 0.0;
	for (size_t i = 0; i < count; i++) {
		const br_run_record_t *r = page->runs[idx[i]].rec;
		const br_bench_record_t *b = br_run_record_find(r, bench);
		if (b == NULL || b->status != BR_BENCH_MEASURED)
			continue;
		y[n] = b->summary.median;
		run[n++] = idx[i];
		if (r->resolution > resolution)
			resolution = r->resolution;
	}
	size_t at[STEPS_MAX];
	size_t found =
	    br_stats_change_points(y, n, BR_STATS_CHANGE_MIN_SEGMENT, BR_STATS_CHANGE_CONFIDENCE,
	                           resolution, at, STEPS_MAX);
	if (found > STEPS_MAX)
		found = STEPS_MAX;
	for (size_t k = 0; k < found; k++) {
		size_t lo = k > 0 ? at[k - 1U] : 0U, hi = k + 1U < found ? at[k + 1U] : n;
		double before = steps_level(y, lo, at[k]), after = steps_level(y, at[k], hi);
		const br_page_record_t *first = &page->runs[run[at[k]]];
		br_json_object_begin(j);
		br_json_key(j, "series");
		br_json_string(j, first->series[0] != '\0' ? first->series : first->rec->board);
		br_json_key(j, "suite");
		br_json_string_or_null(j, first->rec->suite[0] != '\0' ? first->rec->suite : NULL);
		br_json_key(j, "bench");
		br_json_string(j, bench);
		br_json_key(j, "run");
		br_json_uint(j, run[at[k]]);
		br_json_key(j, "commit");
		br_json_string_or_null(j, first->rec->git_commit[0] != '\0' ? first->rec->git_commit
		                                                            : NULL);
		br_json_key(j, "before");
		br_json_double(j, before);
		br_json_key(j, "after");
		br_json_double(j, after);
		double pct;
		br_json_key(j, "percent");
		if (br_stats_percent_change(before, after, &pct))
			br_json_double(j, pct);
		else
			br_json_null(j);
		br_json_object_end(j);
	}
	free(y);
	free(run);
}

void br_report_steps_write(br_json_t *j, const br_page_t *page)
{
	br_json_key(j, "change_points");
	br_json_array_begin(j);
	bool *done = xcalloc(page->run_count + 1U, sizeof(bool));
	size_t *idx = xcalloc(page->run_count + 1U, sizeof(size_t));
	for (size_t i = 0; i < page->run_count; i++) {
		if (done[i])
			continue;
		size_t count = 0;
		for (size_t k = i; k < page->run_count; k++) {
			if (!done[k] && br_page_same_series(&page->runs[i], &page->runs[k])) {
				done[k] = true;
				idx[count++] = k;
			}
		}
		/* the benches of the newest run of the series, in its order */
		const br_run_record_t *newest = page->runs[idx[count - 1U]].rec;
		for (size_t b = 0; b < newest->bench_count; b++)
			steps_of_bench(j, page, idx, count, newest->benches[b].name);
	}
	free(done);
	free(idx);
	br_json_array_end(j);
}
