#include "cli/execute.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rack/board_lock.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "run/install_paths.h"
#include "upload/upload_run.h"
#include "common/xalloc.h"
#include "config/suite.h"
#include "report/report_output.h"
#include "run/board_runs.h"
#include "run/suite_files.h"

/* The gate's word on every checked board: 1 when a budget or regression
 * failed, 3 when a bench could not run, one line on stderr for each board. */
static int gate_exit(const br_board_run_t *runs, size_t count)
{
	int code = 0;
	for (size_t i = 0; i < count; i++) {
		const br_gate_t *g = &runs[i].gate;
		if (!runs[i].gated || g->count == 0)
			continue;
		size_t more = 0;
		const br_finding_t *first = br_gate_first(g, &more);
		char tail[48] = "";
		if (more > 0)
			snprintf(tail, sizeof(tail), " (and %zu more)", more);
		if (g->failures > 0) {
			fprintf(stderr, "benchrack: check failed on %s: %s%s\n", runs[i].board.name,
			        first->message, tail);
			if (code == 0)
				code = br_status_exit_code(BR_ERR_REGRESSION);
		} else {
			fprintf(stderr,
			        "benchrack: check could not measure everything on %s: %s%s\n",
			        runs[i].board.name, first->message, tail);
			code = br_status_exit_code(BR_ERR_INFRA);
		}
	}
	return code;
}

static int finish(const br_cli_settings_t *s, br_board_run_t *runs, size_t count)
{
	br_report_t *reports = xcalloc(count == 0 ? 1U : count, sizeof(*reports));
	size_t shown = br_board_runs_reports(runs, count, reports, NULL);
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = BR_OK;
	if (shown > 0)
		st = br_report_output_write(reports, shown, s->format, s->output, NULL, stdout,
		                            br_cli_colour(stdout), &err);
	free(reports);
	br_status_t worst = br_board_runs_status(runs, count);
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
	size_t n = br_board_runs_reports(runs, count, NULL, files);
	br_upload_run_after(s->upload_config, suite, s->results_dir, files, n, stderr);
	free(files);
}

static void free_runs(br_board_run_t *runs, size_t count)
{
	for (size_t i = 0; i < count; i++)
		br_board_run_free(&runs[i]);
	free(runs);
}

static void on_notice(void *ctx, const char *text)
{
	(void)ctx;
	fprintf(stderr, "benchrack: %s\n", text);
}

void br_cli_settings_callbacks(br_cli_settings_t *s)
{
	s->progress = br_cli_progress;
	s->progress_done = br_cli_progress_done;
	s->firmware_output = br_cli_firmware_output;
	s->load_progress = br_cli_load_progress;
	s->load_done = br_cli_load_done;
	s->notice = on_notice;
	if (s->host_program == NULL)
		s->host_program = br_host_benches();
}

/* --against REF: base and head measured together on each board (run/board_runs.h);
 * the head's report carries the comparison and the gate. */
static int execute_against(const br_cli_settings_t *s, const br_suite_t *suite, const char *elf,
                           br_board_run_t *runs, size_t count)
{
	br_error_t err;
	br_error_clear(&err);
	br_board_run_t *bases = xcalloc(count, sizeof(*bases));
	int code;
	if (br_board_runs_against(s, suite, elf, runs, bases, count, &err) != BR_OK)
		code = br_cli_report(&err);
	else
		code = finish(s, runs, count);
	br_board_runs_free_bases(bases, count);
	free(bases);
	return code;
}

int br_cli_execute(const br_cli_settings_t *given)
{
	br_cli_settings_t settings = *given;
	br_cli_settings_t *s = &settings;
	br_cli_settings_callbacks(s);
	br_board_lock_t desk_lock = {.notes = stderr};
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
	/* NULL: each board's own image of this build (run/install_paths.h). */
	const char *elf = s->elf_path != NULL                         ? s->elf_path
	                  : have_suite && suite.firmware_path != NULL ? suite.firmware_path
	                                                              : NULL;
	size_t wanted = br_board_runs_wanted(s, sp);
	if (s->remote_host != NULL && wanted > 1U) {
		br_suite_free(&suite);
		br_error_set(&err, BR_ERR_USAGE,
		             "--remote reaches one board; this suite runs on %zu boards: name "
		             "one with --board",
		             wanted);
		return br_cli_report(&err);
	}
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
	br_status_t st = br_board_runs_load(s, sp, br_configs_dir(), runs, &count, &err);
	/* The suite's files, before any board starts: a problem at its key. */
	for (size_t i = 0; st == BR_OK && sp != NULL && s->against == NULL && i < count; i++) {
		if (!runs[i].host)
			st = br_suite_files_check(
			    sp, elf != NULL ? elf : br_default_firmware(runs[i].board.name), &err);
	}
	if (st != BR_OK) {
		code = br_cli_report(&err);
	} else if (s->against != NULL) {
		code = execute_against(s, sp, elf, runs, count);
	} else {
		for (size_t i = 0; i < count; i++)
			br_board_run_execute(
			    s, sp, elf != NULL ? elf : br_default_firmware(runs[i].board.name),
			    &runs[i]);
		code = finish(s, runs, count);
		upload_runs(s, sp, runs, count);
	}
	free_runs(runs, count);
	if (have_suite)
		br_suite_free(&suite);
	return code;
}
