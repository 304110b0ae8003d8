#include "cli/execute.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/board_lock.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "cli/paths.h"
#include "run/ab_worktree.h"
#include "cli/upload_run.h"
#include "common/xalloc.h"
#include "config/board.h"
#include "config/board_locate.h"
#include "config/suite.h"

#define EXEC_PATH_BYTES 1024U
#define EXEC_DEFAULT_BOARD "qemu-netduinoplus2"
#define EXEC_MAX_BOARDS 64U

/* A board the suite names, or an error pointing at where the suite names it. */
static br_status_t locate_suite_board(const br_suite_t *suite, size_t i, const char *const *dirs,
				      size_t count, char *path, size_t cap, br_error_t *err)
{
	const br_cfg_string_t *ref = br_cfg_item(&suite->file.boards, sizeof(*ref), i);
	if (br_board_locate(ref->value, suite->dir, dirs, count, path, cap, NULL) == BR_OK)
		return BR_OK;
	return br_cfg_error(err, suite->path, ref->mark,
			    "board '%s' not found; expected a name from configs/boards, or from "
			    "boards/ beside the suite or ../boards, or a board file's path",
			    ref->value);
}

static br_status_t load_boards(const br_cli_settings_t *s, const br_suite_t *suite,
			       br_board_run_t *runs, size_t *count, br_error_t *err)
{
	char up[EXEC_PATH_BYTES], here[EXEC_PATH_BYTES], repo[EXEC_PATH_BYTES];
	const char *suite_dir = suite != NULL && suite->dir[0] != '\0' ? suite->dir : ".";
	snprintf(up, sizeof(up), "%s/../boards", suite_dir);
	snprintf(here, sizeof(here), "%s/boards", suite_dir);
	snprintf(repo, sizeof(repo), "%s/boards", br_cli_configs_dir());
	const char *suite_dirs[] = {up, here, repo};
	const char *cli_dirs[] = {repo};
	size_t wanted = s->board != NULL || suite == NULL ? 1U : suite->file.boards.count;
	if (wanted > EXEC_MAX_BOARDS)
		return br_error_set(err, BR_ERR_INPUT, "%zu boards; at most %u", wanted,
				    EXEC_MAX_BOARDS);
	for (size_t i = 0; i < wanted; i++) {
		char path[EXEC_PATH_BYTES];
		br_status_t st;
		if (s->board != NULL && strcmp(s->board, BR_HOST_BOARD_NAME) == 0) {
			br_board_run_host(&runs[i]);
			*count = i + 1U;
			continue;
		}
		if (s->board != NULL || suite == NULL)
			st = br_board_locate(s->board != NULL ? s->board : EXEC_DEFAULT_BOARD, "",
					     cli_dirs, 1, path, sizeof(path), err);
		else
			st = locate_suite_board(suite, i, suite_dirs, 3, path, sizeof(path), err);
		if (st == BR_OK)
			st = br_board_load(path, &runs[i].board, err);
		if (st != BR_OK)
			return st;
		*count = i + 1U;
	}
	return BR_OK;
}

/* The exit status of all boards together: a configuration or input error
 * first (someone must fix a file), then infrastructure, then a bench that
 * did not finish on a board that answers (a test failure), then the gate. */
static br_status_t overall(const br_board_run_t *runs, size_t count)
{
	static const br_status_t order[] = {BR_ERR_USAGE,    BR_ERR_INPUT,    BR_ERR_INFRA,
					    BR_ERR_TIMEOUT,  BR_ERR_PROTOCOL, BR_ERR_TARGET,
					    BR_ERR_REGRESSION};
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		for (size_t i = 0; i < count; i++) {
			if (runs[i].status == order[o])
				return order[o];
		}
	}
	return BR_OK;
}

/* The gate's word on every checked board: 1 when a budget or regression
 * failed, 3 when a bench could not run, one line on stderr for each board. */
static int gate_exit(const br_board_run_t *runs, size_t count)
{
	int code = 0;
	for (size_t i = 0; i < count; i++) {
		const br_gate_t *g = &runs[i].gate;
		if (!runs[i].gated || g->count == 0)
			continue;
		const br_finding_t *first = NULL;
		for (size_t k = 0; k < g->count && first == NULL; k++) {
			bool error = g->findings[k].kind == BR_FINDING_NOT_RUN;
			if (g->failures > 0 ? !error : error)
				first = &g->findings[k];
		}
		size_t more = (g->failures > 0 ? g->failures : g->not_run) - 1U;
		char tail[48] = "";
		if (more > 0)
			snprintf(tail, sizeof(tail), " (and %zu more)", more);
		if (g->failures > 0) {
			fprintf(stderr, "benchrack: check failed on %s: %s%s\n", runs[i].board.name,
				first->message, tail);
			if (code == 0)
				code = br_status_exit_code(BR_ERR_REGRESSION);
		} else {
			fprintf(stderr, "benchrack: check could not measure everything on %s: %s%s\n",
				runs[i].board.name, first->message, tail);
			code = br_status_exit_code(BR_ERR_INFRA);
		}
	}
	return code;
}

static int finish(const br_cli_settings_t *s, br_board_run_t *runs, size_t count)
{
	br_report_t *reports = xcalloc(count == 0 ? 1U : count, sizeof(*reports));
	size_t shown = 0;
	for (size_t i = 0; i < count; i++) {
		if (!runs[i].has_run_path)
			continue;
		br_board_run_report(&runs[i], &reports[shown++]);
	}
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = BR_OK;
	if (shown > 0)
		st = br_cli_output_write(reports, shown, s->format, s->output, &err);
	free(reports);
	br_status_t worst = overall(runs, count);
	for (size_t i = 0; i < count; i++) {
		/* what the board's counters could not do, said once per board */
		if (runs[i].record.counter_note[0] != '\0')
			fprintf(stderr, "benchrack: %s: %s\n", runs[i].board.name,
				runs[i].record.counter_note);
	}
	for (size_t i = 0; i < count; i++) {
		if (runs[i].status != BR_OK)
			br_cli_report(&runs[i].failure);
	}
	if (worst == BR_OK && st != BR_OK) {
		worst = st;
		br_cli_report(&err);
	}
	if (worst != BR_OK)
		return br_status_exit_code(worst);
	return gate_exit(runs, count);
}

/* Every run file on disk goes to the dashboards (controller/upload): after
 * the outputs, and never changing the exit code. */
static void upload_runs(const br_cli_settings_t *s, const br_suite_t *suite,
			const br_board_run_t *runs, size_t count)
{
	const char **files = xcalloc(count + 1U, sizeof(char *));
	size_t n = 0;
	for (size_t i = 0; i < count; i++) {
		if (runs[i].has_run_path)
			files[n++] = runs[i].run_path;
	}
	br_cli_upload_after_run(s->upload_config, suite, s->results_dir, files, n);
	free(files);
}

static void free_runs(br_board_run_t *runs, size_t count)
{
	for (size_t i = 0; i < count; i++)
		br_board_run_free(&runs[i]);
	free(runs);
}

static void on_progress(void *ctx, unsigned index, unsigned count, const char *name)
{
	(void)ctx;
	br_cli_progress(index, count, name);
}

static void on_progress_done(void *ctx)
{
	(void)ctx;
	br_cli_progress_done();
}

static void on_notice(void *ctx, const char *text)
{
	(void)ctx;
	fprintf(stderr, "benchrack: %s\n", text);
}

void br_cli_settings_callbacks(br_cli_settings_t *s)
{
	s->progress = on_progress;
	s->progress_done = on_progress_done;
	s->firmware_output = br_cli_firmware_output;
	s->load_progress = br_cli_load_progress;
	s->notice = on_notice;
	if (s->host_program == NULL)
		s->host_program = br_cli_host_benches();
}

/* --against REF: the firmware at REF built (or its build reused), then base
 * and head measured together on each board; the head's report carries the
 * comparison and the gate. */
static int execute_against(const br_cli_settings_t *s, const br_suite_t *suite, const char *elf,
			   br_board_run_t *runs, size_t count)
{
	br_error_t err;
	br_error_clear(&err);
	if (suite == NULL) {
		br_error_set(&err, BR_ERR_USAGE, "--against needs a suite file (its build: section)");
		return br_cli_report(&err);
	}
	for (size_t i = 0; i < count; i++) {
		if (runs[i].host) {
			br_error_set(&err, BR_ERR_USAGE,
				     "--against measures a board's firmware at two commits; --board "
				     "host runs this tree's benches only");
			return br_cli_report(&err);
		}
	}
	char cache[EXEC_PATH_BYTES];
	snprintf(cache, sizeof(cache), "%s/worktrees", s->results_dir);
	br_ab_firmware_t fw;
	if (br_ab_firmware_prepare(suite, s->against, cache, &fw, &err) != BR_OK)
		return br_cli_report(&err);
	if (fw.reused)
		fprintf(stderr, "benchrack: base %s = %.12s: the worktree's build is reused (%s)\n",
			s->against, fw.base_commit, fw.elf);
	else
		fprintf(stderr, "benchrack: base %s = %.12s: built in %.1f s (%s)\n", s->against,
			fw.base_commit, fw.build_seconds, fw.elf);
	br_board_run_t *bases = xcalloc(count, sizeof(*bases));
	for (size_t i = 0; i < count; i++) {
		br_ab_sides_t ab = {
			.ref = s->against,
			.base_elf = fw.elf,
			.base_commit = fw.base_commit,
			.head_elf = elf != NULL ? elf : br_cli_default_firmware(runs[i].board.name),
			.head_commit = fw.head_commit,
		};
		bases[i].board = runs[i].board; /* a copy: freed with runs[i] */
		br_board_run_execute_ab(s, suite, &ab, &bases[i], &runs[i]);
	}
	int code = finish(s, runs, count);
	for (size_t i = 0; i < count; i++) {
		br_run_record_free(&bases[i].record);
		br_diff_free(&bases[i].diff);
		br_gate_free(&bases[i].gate);
	}
	free(bases);
	return code;
}

int br_cli_execute(const br_cli_settings_t *given)
{
	br_cli_settings_t settings = *given;
	br_cli_settings_t *s = &settings;
	br_cli_settings_callbacks(s);
	br_board_lock_t desk_lock;
	if (s->lock == NULL) {
		s->lock = br_board_lock_fn;
		s->lock_ctx = &desk_lock;
	}
	br_error_t err;
	br_error_clear(&err);
	br_suite_t suite;
	memset(&suite, 0, sizeof(suite));
	bool have_suite = s->suite_path != NULL;
	if (have_suite && br_suite_load(s->suite_path, &suite, &err) != BR_OK)
		return br_cli_report(&err);
	const br_suite_t *sp = have_suite ? &suite : NULL;
	/* NULL: each board's own image of this build (cli/paths.h). */
	const char *elf = s->elf_path != NULL                         ? s->elf_path
			  : have_suite && suite.firmware_path != NULL ? suite.firmware_path
								      : NULL;
	size_t wanted = s->board != NULL || !have_suite ? 1U : suite.file.boards.count;
	if (s->json_path != NULL && wanted > 1U) {
		br_suite_free(&suite);
		br_error_set(&err, BR_ERR_USAGE,
			     "--json writes one board's record; this suite runs on %zu boards: use "
			     "--format json --output FILE",
			     wanted);
		return br_cli_report(&err);
	}
	br_board_run_t *runs = xcalloc(wanted, sizeof(*runs));
	size_t count = 0;
	int code;
	if (load_boards(s, sp, runs, &count, &err) != BR_OK) {
		code = br_cli_report(&err);
	} else if (s->against != NULL) {
		code = execute_against(s, sp, elf, runs, count);
	} else {
		for (size_t i = 0; i < count; i++)
			br_board_run_execute(s, sp,
					     elf != NULL ? elf : br_cli_default_firmware(runs[i].board.name),
					     &runs[i]);
		code = finish(s, runs, count);
		upload_runs(s, sp, runs, count);
	}
	free_runs(runs, count);
	if (have_suite)
		br_suite_free(&suite);
	return code;
}
