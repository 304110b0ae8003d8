#include "rack/rack_run.h"

#include "results/paths.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "config/board.h"
#include "results/atomic_file.h"
#include "results/record_read.h"

#define RACK_RUN_PATH_BYTES 1024U

static bool selected(const br_rack_entry_t *e, const char *const *only, size_t only_count)
{
	if (only_count == 0)
		return true;
	for (size_t i = 0; i < only_count; i++) {
		if (br_rack_entry_has_tag(e, only[i]))
			return true;
	}
	return false;
}

void br_rack_select(const br_rack_t *full, const char *const *only, size_t only_count,
                    br_rack_t *rack)
{
	*rack = *full;
	rack->entries = xcalloc(full->entry_count, sizeof(*rack->entries));
	rack->entry_count = 0;
	for (size_t i = 0; i < full->entry_count; i++) {
		if (selected(&full->entries[i], only, only_count))
			rack->entries[rack->entry_count++] = full->entries[i];
	}
}

br_status_t br_rack_configs_load(const br_rack_t *rack, br_suite_t *suites,
                                 const br_suite_t **suite_ptrs, bool *heavy, br_error_t *err)
{
	for (size_t i = 0; i < rack->entry_count; i++) {
		const br_rack_entry_t *e = &rack->entries[i];
		if (e->suite_count > BR_RACK_MAX_SUITES)
			return br_error_set(err, BR_ERR_INPUT, "%s: at most %u suites",
			                    e->name.value, BR_RACK_MAX_SUITES);
		for (size_t k = 0; k < e->suite_count; k++) {
			size_t slot = i * BR_RACK_MAX_SUITES + k;
			br_status_t st = br_suite_load(e->suite_paths[k], &suites[slot], err);
			if (st != BR_OK)
				return st;
			suite_ptrs[slot] = &suites[slot];
		}
		br_board_t board;
		br_status_t st = br_board_load(e->board_path, &board, err);
		if (st != BR_OK)
			return st;
		heavy[i] = br_board_server_kind(&board)->emulated && !e->remote.set;
		br_board_free(&board);
	}
	return BR_OK;
}

void br_rack_results_init(const br_rack_t *rack, const br_suite_t *const *suite_ptrs,
                          br_rack_board_result_t *results)
{
	for (size_t i = 0; i < rack->entry_count; i++) {
		const br_rack_entry_t *e = &rack->entries[i];
		snprintf(results[i].name, sizeof(results[i].name), "%s", e->name.value);
		snprintf(results[i].board_path, sizeof(results[i].board_path), "%s", e->board_path);
		results[i].suite_count = e->suite_count;
		for (size_t k = 0; k < e->suite_count; k++)
			snprintf(results[i].suites[k].suite, sizeof(results[i].suites[k].suite),
			         "%s", suite_ptrs[i * BR_RACK_MAX_SUITES + k]->name);
	}
}

/* The run of entry e read back from run_path into run, gated; BR_OK or why not. */
static br_status_t collect_one(const char *results_dir, const br_rack_entry_t *e,
                               const char *run_path, br_board_run_t *run, br_error_t *err,
                               br_rack_warn_fn warn, void *warn_ctx)
{
	br_status_t st = br_board_load(e->board_path, &run->board, err);
	if (st == BR_OK)
		st = br_record_read(run_path, &run->record, err);
	if (st != BR_OK)
		return st;
	snprintf(run->run_path, sizeof(run->run_path), "%s", run_path);
	char dir[RACK_RUN_PATH_BYTES], baseline[RACK_RUN_PATH_BYTES];
	snprintf(dir, sizeof(dir), "%s/racks/%s", results_dir, e->name.value);
	if (br_results_baseline_path(results_dir, run->record.suite, run->board.name, false,
	                             baseline, sizeof(baseline), NULL) != BR_OK)
		baseline[0] = '\0';
	br_run_settings_t set;
	memset(&set, 0, sizeof(set));
	set.check = true;
	set.results_dir = dir;
	set.baseline_path = baseline[0] != '\0' && access(baseline, F_OK) == 0 ? baseline : NULL;
	if (br_board_run_gate(&set, run, err) != BR_OK && warn != NULL)
		warn(warn_ctx, e->name.value, err->message);
	snprintf(run->record.board, sizeof(run->record.board), "%s", e->name.value);
	return BR_OK;
}

size_t br_rack_reports_collect(const char *results_dir, const br_rack_t *rack,
                               const br_rack_board_result_t *results, br_board_run_t *runs,
                               br_report_t *reports, br_rack_warn_fn warn, void *warn_ctx)
{
	size_t n = 0;
	for (size_t i = 0; i < rack->entry_count; i++) {
		for (size_t k = 0; k < results[i].suite_count; k++) {
			const br_rack_suite_result_t *s = &results[i].suites[k];
			if (s->run_path[0] == '\0')
				continue;
			br_error_t err;
			br_error_clear(&err);
			if (collect_one(results_dir, &rack->entries[i], s->run_path, &runs[n], &err,
			                warn, warn_ctx) != BR_OK) {
				if (warn != NULL)
					warn(warn_ctx, rack->entries[i].name.value, err.message);
				br_board_run_free(&runs[n]);
				memset(&runs[n], 0, sizeof(runs[n]));
				continue;
			}
			br_board_run_report(&runs[n], &reports[n]);
			n++;
		}
	}
	return n;
}

void br_rack_summary_write(const br_rack_t *rack, const br_rack_board_result_t *results,
                           int exit_code, FILE *out)
{
	fprintf(out, "\nrack %s: %zu boards\n", rack->name, rack->entry_count);
	fprintf(out, "%-16s %-16s %-22s %s\n", "board", "suite", "outcome", "detail");
	size_t regressed = 0, infra = 0, not_run = 0, passed = 0;
	for (size_t i = 0; i < rack->entry_count; i++) {
		const br_rack_board_result_t *b = &results[i];
		for (size_t k = 0; k < b->suite_count; k++) {
			const br_rack_suite_result_t *s = &b->suites[k];
			char detail[BR_RACK_REASON_BYTES + 64] = "";
			if (s->failed_count > 0)
				snprintf(detail, sizeof(detail), "after %zu retr%s; ",
				         s->failed_count, s->failed_count == 1 ? "y" : "ies");
			size_t used = strlen(detail);
			snprintf(detail + used, sizeof(detail) - used, "%s", s->reason);
			fprintf(out, "%-16s %-16s %-22s %s\n", b->name, s->suite,
			        br_rack_outcome_name(s->outcome), detail);
		}
		if (b->suite_count == 0)
			fprintf(out, "%-16s %-16s %-22s %s\n", b->name, "(health check)",
			        br_rack_outcome_name(br_rack_board_outcome(b)),
			        b->probed ? b->probe_reason : "not probed");
		if (b->took_over)
			fprintf(out, "%-16s took over a stale lock of pid %ld on %s\n", b->name,
			        b->stale.pid, b->stale.host);
		switch (br_rack_board_outcome(b)) {
		case BR_RACK_REGRESSION:
			regressed++;
			break;
		case BR_RACK_INFRA:
			infra++;
			break;
		case BR_RACK_NOT_RUN:
			not_run++;
			break;
		case BR_RACK_PASS:
			passed++;
			break;
		}
	}
	fprintf(out,
	        "boards: %zu pass, %zu regression, %zu infrastructure error, %zu not run; "
	        "exit %d\n",
	        passed, regressed, infra, not_run, exit_code);
}

br_status_t br_rack_document_save(const char *path, const br_rack_t *rack,
                                  const br_rack_board_result_t *results, br_error_t *err)
{
	br_atomic_file_t f;
	br_status_t st = br_atomic_file_open(&f, path, err);
	if (st != BR_OK)
		return st;
	br_rack_document_write(rack->name, results, rack->entry_count, f.stream);
	return br_atomic_file_commit(&f, err);
}

br_status_t br_rack_session_open(const char *path, const char *configs_dir, const char *const *only,
                                 size_t only_count, br_rack_session_t *s, br_error_t *err)
{
	memset(s, 0, sizeof(*s));
	br_status_t st = br_rack_load(path, configs_dir, &s->full, err);
	if (st != BR_OK)
		return st;
	s->loaded = true;
	br_rack_select(&s->full, only, only_count, &s->rack);
	s->slots = s->full.entry_count * BR_RACK_MAX_SUITES;
	s->suites = xcalloc(s->slots, sizeof(*s->suites));
	s->suite_ptrs = xcalloc(s->slots, sizeof(*s->suite_ptrs));
	s->heavy = xcalloc(s->full.entry_count, sizeof(*s->heavy));
	s->results = xcalloc(s->full.entry_count, sizeof(*s->results));
	if (s->rack.entry_count == 0)
		return BR_OK;
	st = br_rack_configs_load(&s->rack, s->suites, s->suite_ptrs, s->heavy, err);
	if (st == BR_OK)
		br_rack_results_init(&s->rack, s->suite_ptrs, s->results);
	return st;
}

unsigned br_rack_session_parallel(const br_rack_session_t *s, unsigned asked)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return asked > 0              ? asked
	       : s->rack.parallel > 0 ? s->rack.parallel
	                              : (unsigned)(cpus > 0 ? cpus : 1);
}

void br_rack_session_free(br_rack_session_t *s)
{
	for (size_t i = 0; i < s->slots; i++) {
		if (s->suite_ptrs[i] != NULL)
			br_suite_free(&s->suites[i]);
	}
	free(s->suites);
	free(s->suite_ptrs);
	free(s->heavy);
	free(s->results);
	free(s->rack.entries);
	if (s->loaded)
		br_rack_free(&s->full);
	memset(s, 0, sizeof(*s));
}
