#include "run/board_runs.h"

#include <stdio.h>
#include <string.h>

#include "config/board_locate.h"
#include "run/ab_worktree.h"
#include "run/install_paths.h"

#define RUNS_PATH_BYTES 1024U

size_t br_board_runs_wanted(const br_run_settings_t *s, const br_suite_t *suite)
{
	return s->board != NULL || suite == NULL ? 1U : suite->file.boards.count;
}

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

br_status_t br_board_runs_load(const br_run_settings_t *s, const br_suite_t *suite,
                               const char *configs_dir, br_board_run_t *runs, size_t *count,
                               br_error_t *err)
{
	char up[RUNS_PATH_BYTES], here[RUNS_PATH_BYTES], repo[RUNS_PATH_BYTES];
	const char *suite_dir = suite != NULL && suite->dir[0] != '\0' ? suite->dir : ".";
	snprintf(up, sizeof(up), "%s/../boards", suite_dir);
	snprintf(here, sizeof(here), "%s/boards", suite_dir);
	snprintf(repo, sizeof(repo), "%s/boards", configs_dir);
	const char *suite_dirs[] = {up, here, repo};
	const char *cli_dirs[] = {repo};
	size_t wanted = br_board_runs_wanted(s, suite);
	if (wanted > BR_RUN_MAX_BOARDS)
		return br_error_set(err, BR_ERR_INPUT, "%zu boards; at most %u", wanted,
		                    BR_RUN_MAX_BOARDS);
	for (size_t i = 0; i < wanted; i++) {
		char path[RUNS_PATH_BYTES];
		br_status_t st;
		if (s->board != NULL && strcmp(s->board, BR_HOST_BOARD_NAME) == 0) {
			br_board_run_host(&runs[i]);
			*count = i + 1U;
			continue;
		}
		if (s->board != NULL || suite == NULL)
			st = br_board_locate(s->board != NULL ? s->board : BR_RUN_DEFAULT_BOARD, "",
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

br_status_t br_board_runs_status(const br_board_run_t *runs, size_t count)
{
	static const br_status_t order[] = {BR_ERR_USAGE,     BR_ERR_INPUT,    BR_ERR_INFRA,
	                                    BR_ERR_TIMEOUT,   BR_ERR_PROTOCOL, BR_ERR_TARGET,
	                                    BR_ERR_REGRESSION};
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		for (size_t i = 0; i < count; i++) {
			if (runs[i].status == order[o])
				return order[o];
		}
	}
	return BR_OK;
}

static void notice(const br_run_settings_t *s, const char *text)
{
	if (s->notice != NULL)
		s->notice(s->notice_ctx, text);
}

br_status_t br_board_runs_against(const br_run_settings_t *s, const br_suite_t *suite,
                                  const char *elf, br_board_run_t *runs, br_board_run_t *bases,
                                  size_t count, br_error_t *err)
{
	if (suite == NULL)
		return br_error_set(err, BR_ERR_USAGE,
		                    "--against needs a suite file (its build: section)");
	bool host = count > 0 && runs[0].host;
	if (host && !suite->file.build.host_program.set)
		return br_error_set(
		    err, BR_ERR_USAGE,
		    "%s: --against with --board host needs build: host_program (the "
		    "host bench program the build command yields, relative to the "
		    "worktree's root)",
		    suite->path);
	char cache[RUNS_PATH_BYTES];
	snprintf(cache, sizeof(cache), "%s/worktrees", s->results_dir);
	br_ab_firmware_t fw;
	char before[RUNS_PATH_BYTES];
	/* a build takes seconds to minutes: say what is going on before it starts */
	snprintf(before, sizeof(before),
	         "base %s: checking it out and building it (the suite's build: command; a build "
	         "made before is used again)...",
	         s->against);
	notice(s, before);
	br_status_t st = br_ab_firmware_prepare(suite, s->against, cache, &fw, err);
	if (st != BR_OK)
		return st;
	char text[RUNS_PATH_BYTES * 2U];
	if (fw.reused)
		snprintf(text, sizeof(text), "base %s = %.12s: the worktree's build is reused (%s)",
		         s->against, fw.base_commit, fw.elf);
	else
		snprintf(text, sizeof(text), "base %s = %.12s: built in %.1f s (%s)", s->against,
		         fw.base_commit, fw.build_seconds, fw.elf);
	notice(s, text);
	char base_program[RUNS_PATH_BYTES * 2U];
	if (host)
		snprintf(base_program, sizeof(base_program), "%s/%s", fw.worktree,
		         suite->file.build.host_program.value);
	for (size_t i = 0; i < count; i++) {
		br_ab_sides_t ab = {
		    .ref = s->against,
		    .base_elf = host ? base_program : fw.elf,
		    .base_commit = fw.base_commit,
		    .head_elf = host          ? s->host_program
		                : elf != NULL ? elf
		                              : br_default_firmware(runs[i].board.name),
		    .head_commit = fw.head_commit,
		    .repo = fw.repo,
		    .worktree = fw.worktree,
		};
		bases[i].board = runs[i].board; /* a copy: freed with runs[i] */
		bases[i].host = runs[i].host;
		br_board_run_execute_ab(s, suite, &ab, &bases[i], &runs[i]);
	}
	return BR_OK;
}

size_t br_board_runs_reports(const br_board_run_t *runs, size_t count, br_report_t *reports,
                             const char **files)
{
	size_t n = 0;
	for (size_t i = 0; i < count; i++) {
		if (!runs[i].has_run_path)
			continue;
		if (reports != NULL)
			br_board_run_report(&runs[i], &reports[n]);
		if (files != NULL)
			files[n] = runs[i].run_path;
		n++;
	}
	return n;
}

void br_board_runs_free_bases(br_board_run_t *bases, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		br_run_record_free(&bases[i].record);
		br_diff_free(&bases[i].diff);
		br_gate_free(&bases[i].gate);
	}
}
