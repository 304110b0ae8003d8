/*
 * Finishing a page (report_gather.h): its runs in time order, the latest run
 * of each board and suite compared and gated, sizes read from firmware, and
 * each rack's matrix; and gathering one from files for `benchrack report`.
 */
#include "report/report_gather.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "report/report_rack.h"
#include "report/report_sizes.h"

/* Oldest first: by timestamp, then by file. Sorting moves records, so the
 * indices the latest entries keep are fixed up after. */
static int compare_runs(const void *a, const void *b)
{
	const br_page_record_t *x = a, *y = b;
	int c = strcmp(x->rec->timestamp, y->rec->timestamp);
	return c != 0 ? c : strcmp(x->path, y->path);
}

/* The baseline of run's board (the board file's, as `check` uses) and suite. */
static bool find_baseline(const br_page_t *page, const br_run_record_t *run, size_t *out)
{
	for (size_t i = 0; i < page->baseline_count; i++) {
		const br_run_record_t *b = page->baselines[i].rec;
		if (strcmp(b->board, run->board) == 0 &&
		    (b->suite[0] == '\0' || run->suite[0] == '\0' ||
		     strcmp(b->suite, run->suite) == 0)) {
			*out = i;
			return true;
		}
	}
	return false;
}

/* Compares and gates l's run, as `check` would. */
static void latest_compare(br_page_t *page, br_page_latest_t *l)
{
	const br_run_record_t *run = page->runs[l->run].rec;
	l->has_baseline = find_baseline(page, run, &l->baseline);
	if (l->diff != NULL || l->gate != NULL)
		return; /* given by run/check */
	const br_diff_t *diff = NULL;
	memset(&l->own_diff, 0, sizeof(l->own_diff));
	if (l->has_baseline) {
		const br_page_record_t *b = &page->baselines[l->baseline];
		br_error_t err;
		br_error_clear(&err);
		if (br_diff_check_compatible(b->rec, b->path, run, &err) == BR_OK) {
			br_diff_compute(b->rec, run, &l->own_diff);
			diff = &l->own_diff;
		} else {
			br_page_warn(page, "comparison of %s: %s", page->runs[l->run].path,
			             err.message);
			l->has_baseline = false;
		}
	}
	br_gate_evaluate(run, diff, &l->own_gate);
	l->owns = true;
	l->diff = diff;
	l->gate = &l->own_gate;
}

void br_page_finish(br_page_t *page)
{
	if (page->finished)
		return;
	page->finished = true;
	/* Remember which records the given latest entries point at, sort, re-find. */
	const br_run_record_t **given = xcalloc(page->latest_count + 1, sizeof(*given));
	for (size_t i = 0; i < page->latest_count; i++)
		given[i] = page->runs[page->latest[i].run].rec;
	if (page->run_count > 1)
		qsort(page->runs, page->run_count, sizeof(*page->runs), compare_runs);
	for (size_t i = 0; i < page->latest_count; i++) {
		for (size_t k = 0; k < page->run_count; k++) {
			if (page->runs[k].rec == given[i])
				page->latest[i].run = k;
		}
	}
	free(given);
	if (page->latest_count == 0) {
		/* The newest run of each board and suite, in the order series first appear. */
		for (size_t i = 0; i < page->run_count; i++) {
			const br_page_record_t *r = &page->runs[i];
			bool seen = false;
			for (size_t k = 0; k < page->latest_count && !seen; k++)
				seen = br_page_same_series(&page->runs[page->latest[k].run], r);
			if (seen)
				continue;
			size_t newest = i;
			for (size_t k = i + 1; k < page->run_count; k++) {
				if (br_page_same_series(&page->runs[k], r))
					newest = k;
			}
			page->latest = xrealloc(page->latest,
			                        (page->latest_count + 1) * sizeof(*page->latest));
			br_page_latest_t *l = &page->latest[page->latest_count++];
			memset(l, 0, sizeof(*l));
			l->run = newest;
		}
	}
	for (size_t i = 0; i < page->latest_count; i++) {
		latest_compare(page, &page->latest[i]);
		br_page_sizes_read(page, &page->latest[i]);
	}
	for (size_t i = 0; i < page->rack_count; i++)
		br_page_rack_finish(page, &page->racks[i]);
}

#define PAGE_GATHER_PATH_BYTES 1024U

br_status_t br_page_gather(br_page_t *page, const br_page_sources_t *a, br_error_t *err)
{
	char dir[PAGE_GATHER_PATH_BYTES];
	br_status_t st = BR_OK;
	if (a->run_count > 0) {
		for (size_t i = 0; i < a->run_count; i++)
			br_page_add_run_glob(page, a->runs[i]);
	} else if (a->rack_count == 0) {
		snprintf(dir, sizeof(dir), "%s/runs", a->results_dir);
		st = br_page_add_run_dir(page, dir, err);
	}
	for (size_t i = 0; i < a->rack_count && st == BR_OK; i++)
		st = br_page_add_rack_file(page, a->racks[i], err);
	for (size_t i = 0; i < a->profile_count && st == BR_OK; i++)
		st = br_page_add_profile_file(page, a->profiles[i], err);
	if (st != BR_OK)
		return st;
	if (a->baseline_dir != NULL)
		snprintf(dir, sizeof(dir), "%s", a->baseline_dir);
	else
		snprintf(dir, sizeof(dir), "%s/baselines", a->results_dir);
	st = br_page_add_baseline_dir(page, dir, err);
	if (st != BR_OK)
		return st;
	if (page->run_count == 0 && page->rack_count == 0 && page->profile_count == 0)
		return br_error_set(
		    err, BR_ERR_USAGE,
		    "nothing to report: no run record in %s/runs (or --runs), no "
		    "--rack document and no --profile; run `benchrack run` first or "
		    "name them",
		    a->results_dir);
	br_page_finish(page);
	return BR_OK;
}
