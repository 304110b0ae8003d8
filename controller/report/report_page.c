#include "report/report_page.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/xalloc.h"
#include "report/report_rack.h"
#include "report/report_sizes.h"
#include "results/record_read.h"

void br_page_init(br_page_t *page)
{
	memset(page, 0, sizeof(*page));
}

static void record_free(br_page_record_t *r)
{
	if (r->owned && r->rec != NULL) {
		br_run_record_free(r->rec);
		free(r->rec);
	}
	r->rec = NULL;
}

void br_page_free(br_page_t *page)
{
	for (size_t i = 0; i < page->run_count; i++)
		record_free(&page->runs[i]);
	for (size_t i = 0; i < page->baseline_count; i++)
		record_free(&page->baselines[i]);
	for (size_t i = 0; i < page->latest_count; i++) {
		br_page_latest_t *l = &page->latest[i];
		if (l->owns) {
			br_diff_free(&l->own_diff);
			br_gate_free(&l->own_gate);
		}
		free(l->symbols);
		free(l->bench_text);
	}
	for (size_t i = 0; i < page->rack_count; i++)
		br_page_rack_free(&page->racks[i]);
	for (size_t i = 0; i < page->profile_count; i++)
		br_flame_free(&page->profiles[i]);
	free(page->profiles);
	for (size_t i = 0; i < page->warning_count; i++)
		free(page->warnings[i]);
	free(page->runs);
	free(page->baselines);
	free(page->latest);
	free(page->racks);
	free(page->warnings);
	memset(page, 0, sizeof(*page));
}

void br_page_warn(br_page_t *page, const char *fmt, ...)
{
	char buf[BR_PAGE_TEXT_BYTES + BR_PAGE_PATH_BYTES];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	page->warnings =
	    xrealloc(page->warnings, (page->warning_count + 1) * sizeof(*page->warnings));
	page->warnings[page->warning_count++] = xstrdup(buf);
}

static br_page_record_t *append(br_page_record_t **arr, size_t *count)
{
	*arr = xrealloc(*arr, (*count + 1) * sizeof(**arr));
	br_page_record_t *r = &(*arr)[(*count)++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* The index of the run read from path, or page->run_count. */
static size_t run_index(const br_page_t *page, const char *path)
{
	for (size_t i = 0; i < page->run_count; i++) {
		if (strcmp(page->runs[i].path, path) == 0)
			return i;
	}
	return page->run_count;
}

void br_page_run_name(br_page_t *page, const char *path, const char *series)
{
	size_t i = run_index(page, path);
	if (i < page->run_count)
		snprintf(page->runs[i].series, sizeof(page->runs[i].series), "%s", series);
}

bool br_page_run_find(const br_page_t *page, const char *path, size_t *out)
{
	*out = run_index(page, path);
	return *out < page->run_count;
}

void br_page_add_run_file(br_page_t *page, const char *path)
{
	if (run_index(page, path) < page->run_count)
		return;
	br_run_record_t *rec = xcalloc(1, sizeof(*rec));
	br_error_t err;
	br_error_clear(&err);
	if (br_record_read(path, rec, &err) != BR_OK) {
		br_page_warn(page, "%s", err.message);
		free(rec);
		return;
	}
	if (rec->kind != BR_RECORD_RUN) {
		br_page_warn(page, "%s: a baseline, not a run record; give it with --baseline-dir",
		             path);
		br_run_record_free(rec);
		free(rec);
		return;
	}
	br_page_record_t *r = append(&page->runs, &page->run_count);
	r->rec = rec;
	r->owned = true;
	snprintf(r->path, sizeof(r->path), "%s", path);
	snprintf(r->series, sizeof(r->series), "%s", rec->board);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.json files of dir, sorted by name, into *out (free each and the array). */
static br_status_t json_files(const char *dir, char ***out, size_t *count, br_error_t *err)
{
	*out = NULL;
	*count = 0;
	DIR *d = opendir(dir);
	if (d == NULL) {
		if (errno == ENOENT)
			return BR_OK;
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot list the folder: %s", dir,
		                    strerror(errno));
	}
	const struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0 || e->d_name[0] == '.')
			continue;
		char path[BR_PAGE_PATH_BYTES];
		int w = snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (w < 0 || (size_t)w >= sizeof(path))
			continue;
		*out = xrealloc(*out, (*count + 1) * sizeof(**out));
		(*out)[(*count)++] = xstrdup(path);
	}
	closedir(d);
	if (*count > 1)
		qsort(*out, *count, sizeof(**out), compare_names);
	return BR_OK;
}

static void names_free(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

br_status_t br_page_add_run_dir(br_page_t *page, const char *dir, br_error_t *err)
{
	char **names;
	size_t count;
	br_status_t st = json_files(dir, &names, &count, err);
	if (st != BR_OK)
		return st;
	for (size_t i = 0; i < count; i++)
		br_page_add_run_file(page, names[i]);
	names_free(names, count);
	return BR_OK;
}

void br_page_add_run_glob(br_page_t *page, const char *pattern)
{
	glob_t g;
	int rc = glob(pattern, 0, NULL, &g);
	if (rc == GLOB_NOMATCH) {
		br_page_warn(page, "--runs %s: no file matches", pattern);
		return;
	}
	if (rc != 0) {
		br_page_warn(page, "--runs %s: cannot expand the pattern", pattern);
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++)
		br_page_add_run_file(page, g.gl_pathv[i]);
	globfree(&g);
}

br_status_t br_page_add_baseline_file(br_page_t *page, const char *path, br_error_t *err)
{
	for (size_t i = 0; i < page->baseline_count; i++) {
		if (strcmp(page->baselines[i].path, path) == 0)
			return BR_OK;
	}
	br_run_record_t *rec = xcalloc(1, sizeof(*rec));
	br_status_t st = br_record_read(path, rec, err);
	if (st != BR_OK) {
		free(rec);
		return st;
	}
	br_page_record_t *r = append(&page->baselines, &page->baseline_count);
	r->rec = rec;
	r->owned = true;
	snprintf(r->path, sizeof(r->path), "%s", path);
	return BR_OK;
}

/* The baselines of one folder. */
static br_status_t baseline_files_add(br_page_t *page, const char *dir, br_error_t *err)
{
	char **names;
	size_t count;
	br_status_t st = json_files(dir, &names, &count, err);
	if (st != BR_OK)
		return st;
	for (size_t i = 0; i < count; i++) {
		br_error_t one;
		br_error_clear(&one);
		if (br_page_add_baseline_file(page, names[i], &one) != BR_OK)
			br_page_warn(page, "%s", one.message);
	}
	names_free(names, count);
	return BR_OK;
}

br_status_t br_page_add_baseline_dir(br_page_t *page, const char *dir, br_error_t *err)
{
	/* baselines/<suite>/<board>.json (results/paths.h), and any of the old
	 * layout's baselines/<board>.json */
	br_status_t st = baseline_files_add(page, dir, err);
	DIR *d = st == BR_OK ? opendir(dir) : NULL;
	if (d == NULL)
		return st;
	char **subdirs = NULL;
	size_t count = 0;
	const struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char path[BR_PAGE_PATH_BYTES];
		struct stat sb;
		int w = snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || w < 0 || (size_t)w >= sizeof(path) ||
		    stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
			continue;
		subdirs = xrealloc(subdirs, (count + 1) * sizeof(*subdirs));
		subdirs[count++] = xstrdup(path);
	}
	closedir(d);
	if (count > 1)
		qsort(subdirs, count, sizeof(*subdirs), compare_names);
	for (size_t i = 0; i < count && st == BR_OK; i++)
		st = baseline_files_add(page, subdirs[i], err);
	names_free(subdirs, count);
	return st;
}

void br_page_add_report(br_page_t *page, const br_report_t *report)
{
	const char *path = report->run_path != NULL ? report->run_path : "";
	if (path[0] != '\0' && run_index(page, path) < page->run_count)
		return;
	br_page_record_t *r = append(&page->runs, &page->run_count);
	r->rec = (br_run_record_t *)report->run;
	r->owned = false;
	snprintf(r->path, sizeof(r->path), "%s", path);
	snprintf(r->series, sizeof(r->series), "%s", report->run->board);
	if (report->baseline_path != NULL) {
		br_error_t err;
		br_error_clear(&err);
		if (br_page_add_baseline_file(page, report->baseline_path, &err) != BR_OK)
			br_page_warn(page, "%s", err.message);
	}
	page->latest = xrealloc(page->latest, (page->latest_count + 1) * sizeof(*page->latest));
	br_page_latest_t *l = &page->latest[page->latest_count++];
	memset(l, 0, sizeof(*l));
	l->run = page->run_count - 1;
	l->diff = report->diff;
	l->gate = report->gate;
}

/* Oldest first: by timestamp, then by file. Sorting moves records, so the
 * indices the latest entries keep are fixed up after. */
static int compare_runs(const void *a, const void *b)
{
	const br_page_record_t *x = a, *y = b;
	int c = strcmp(x->rec->timestamp, y->rec->timestamp);
	return c != 0 ? c : strcmp(x->path, y->path);
}

bool br_page_same_series(const br_page_record_t *a, const br_page_record_t *b)
{
	return strcmp(a->series, b->series) == 0 && strcmp(a->rec->suite, b->rec->suite) == 0;
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

br_status_t br_page_add_rack_file(br_page_t *page, const char *path, br_error_t *err)
{
	br_page_rack_t rack;
	br_status_t st = br_page_rack_read(page, path, &rack, err);
	if (st != BR_OK)
		return st;
	page->racks = xrealloc(page->racks, (page->rack_count + 1) * sizeof(*page->racks));
	page->racks[page->rack_count++] = rack;
	return BR_OK;
}

br_status_t br_page_add_profile_file(br_page_t *page, const char *path, br_error_t *err)
{
	return br_flame_read(path, &page->profiles, &page->profile_count, err);
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
