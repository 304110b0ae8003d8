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

static void reasons_free(char **list, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(list[i]);
	free(list);
}

static void matrix_free(br_page_matrix_t *m)
{
	free(m->benches);
	free(m->rack_median);
	free(m->rows);
	free(m->row_off);
	free(m->cells);
}

void br_page_rack_free(br_page_rack_t *rack)
{
	for (size_t i = 0; i < rack->board_count; i++) {
		br_page_rack_board_t *b = &rack->boards[i];
		reasons_free(b->health_failed, b->health_failed_count);
		for (size_t k = 0; k < b->suite_count; k++)
			reasons_free(b->suites[k].failed, b->suites[k].failed_count);
		free(b->suites);
	}
	free(rack->boards);
	for (size_t i = 0; i < rack->matrix_count; i++)
		matrix_free(&rack->matrices[i]);
	free(rack->matrices);
	br_yaml_doc_free(&rack->doc);
	memset(rack, 0, sizeof(*rack));
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

bool br_page_same_series(const br_page_record_t *a, const br_page_record_t *b)
{
	return strcmp(a->series, b->series) == 0 && strcmp(a->rec->suite, b->rec->suite) == 0;
}

br_status_t br_page_add_profile_file(br_page_t *page, const char *path, br_error_t *err)
{
	return br_flame_read(path, &page->profiles, &page->profile_count, err);
}
