/*
 * `benchrack upload [RUN.json ...]`: posts result records to the dashboards
 * of an upload config, and retries whatever earlier runs left in the spool.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/option_table.h"
#include "upload/upload_run.h"
#include "config/suite.h"
#include "config/upload_config.h"
#include "upload/spool.h"

#define UPLOAD_DEFAULT_RESULTS "results"
#define UPLOAD_MAX_TIME_S 86400UL
#define UPLOAD_MS_PER_S 1000U

static const br_cli_opts_t upload_options;

static void upload_usage(FILE *out)
{
	fputs("usage: benchrack upload [RUN.json ...] [options]\n"
	      "\n"
	      "Sends what waits in RESULTS/spool (uploads a dashboard did not take yet) to\n"
	      "the sinks of --upload-config FILE or of --suite FILE's upload: section. With\n"
	      "RUN files, first spools each of them for every sink (a run or check does\n"
	      "that by itself for its own runs). A spooled upload goes only to a sink the\n"
	      "configuration names (same name, kind and URL), with that sink's token\n"
	      "source; any other is refused, kept, and shown by --list with the reason.\n"
	      "\n"
	      "An upload is deleted from the spool only when its server accepted it; 408,\n"
	      "429, 5xx and connection errors are retried (backoff with jitter, Retry-After\n"
	      "honoured) within the time limit; a server's refusal (400, 401, 403, 404,\n"
	      "422, ...) moves it to RESULTS/rejected with the server's message, never\n"
	      "retried by itself (move it back into the spool once fixed).\n"
	      "\n"
	      "options:\n",
	      out);
	br_cli_opts_usage(out, &upload_options, 0);
	fputs("\n"
	      "exit codes: 0 nothing left to deliver, 2 a configuration error, an upload\n"
	      "            the server refused or one the configuration does not name,\n"
	      "            3 uploads left in the spool (server down)\n",
	      out);
}

/* The exit code of a pass: configuration first, then what is still pending. */
static int pass_exit(const br_upload_report_t *report, bool spool_failed)
{
	if (spool_failed || br_upload_report_count(report, BR_UPLOAD_OUT_REJECTED) > 0 ||
	    br_upload_report_count(report, BR_UPLOAD_OUT_REFUSED) > 0)
		return br_status_exit_code(BR_ERR_INPUT);
	if (br_upload_report_count(report, BR_UPLOAD_OUT_DELIVERED) < report->count)
		return br_status_exit_code(BR_ERR_INFRA);
	return 0;
}

/* What the options say. */
typedef struct upload_args {
	const char *config_path, *suite_path, *results_dir;
	uint32_t max_time_s;
	bool force, list;
} upload_args_t;

#define U(field) offsetof(upload_args_t, field)

static const br_cli_opt_t upload_rows[] = {
    {.name = "upload-config",
     .arg = "FILE",
     .offset = U(config_path),
     .help = "the sinks (a file whose top level is an upload section, as in a suite's upload: "
             "key)"},
    {.name = "suite",
     .arg = "FILE",
     .offset = U(suite_path),
     .help = "the sinks of this suite's upload: section"},
    {.name = "results-dir",
     .arg = "D",
     .offset = U(results_dir),
     .help = "where spool/ and rejected/ are (default: results, or $BENCHRACK_RESULTS_DIR)"},
    {.name = "max-time",
     .arg = "SEC",
     .kind = BR_CLI_OPT_U32,
     .offset = U(max_time_s),
     .min = 1,
     .max = UPLOAD_MAX_TIME_S,
     .help = "the most this may take, retries included (default: the config's "
             "max_total_seconds, else 30)"},
    {.name = "force",
     .kind = BR_CLI_OPT_FLAG,
     .offset = U(force),
     .help = "also send uploads a server asked to wait for"},
    {.name = "list",
     .kind = BR_CLI_OPT_FLAG,
     .offset = U(list),
     .help = "show what is spooled and rejected; send nothing"},
    {.name = "help", .letter = 'h', .kind = BR_CLI_OPT_HELP, .help = "this text"},
};

static const br_cli_opts_t upload_options = {
    .command = "upload",
    .rows = upload_rows,
    .count = BR_CLI_OPTS_COUNT(upload_rows),
    .column = 28,
    .usage = upload_usage,
};

static int parse_args(int argc, char **argv, upload_args_t *a)
{
	const char *env_results = getenv("BENCHRACK_RESULTS_DIR");
	a->results_dir =
	    env_results != NULL && env_results[0] != '\0' ? env_results : UPLOAD_DEFAULT_RESULTS;
	int code = br_cli_opts_parse(&upload_options, argc, argv, a);
	if (code != -1)
		return code;
	if (a->config_path != NULL && a->suite_path != NULL) {
		fprintf(stderr, "benchrack upload: --upload-config or --suite, not both\n");
		return 2;
	}
	if (!a->list && a->config_path == NULL && a->suite_path == NULL) {
		fprintf(stderr, "benchrack upload: to which dashboards? give --upload-config FILE "
		                "or --suite FILE (a spooled upload goes only to a sink the "
		                "configuration names)\n");
		return 2;
	}
	return -1;
}

int br_cli_upload(int argc, char **argv)
{
	upload_args_t a;
	memset(&a, 0, sizeof(a));
	int code = parse_args(argc, argv, &a);
	if (code >= 0)
		return code;
	br_error_t err;
	br_error_clear(&err);
	if (a.list) {
		br_upload_spool_t sp;
		if (br_upload_spool_open(&sp, a.results_dir, false, &err) != BR_OK)
			return br_cli_report(&err);
		br_upload_run_list(&sp, false, stdout, stderr);
		br_upload_run_list(&sp, true, stdout, stderr);
		return 0;
	}
	br_upload_config_t cfg;
	br_suite_t suite;
	memset(&cfg, 0, sizeof(cfg));
	memset(&suite, 0, sizeof(suite));
	const br_upload_section_t *section = NULL;
	const char *config_dir = NULL;
	if (a.config_path != NULL) {
		if (br_upload_config_load(a.config_path, &cfg, &err) != BR_OK)
			return br_cli_report(&err);
		section = &cfg.section;
		config_dir = cfg.dir;
	} else if (a.suite_path != NULL) {
		if (br_suite_load(a.suite_path, &suite, &err) != BR_OK)
			return br_cli_report(&err);
		if (!suite.file.upload.head.set) {
			br_suite_free(&suite);
			fprintf(stderr, "benchrack upload: %s has no upload: section\n",
			        a.suite_path);
			return 2;
		}
		section = &suite.file.upload;
		config_dir = suite.dir;
	}
	bool spool_failed = false;
	br_upload_run_enqueue(section, config_dir, a.results_dir,
	                      (const char *const *)(argv + optind), (size_t)(argc - optind),
	                      &spool_failed, stderr);
	br_upload_pass_t pass = {
	    .results_dir = a.results_dir,
	    .section = section,
	    .config_dir = config_dir,
	    .limits = br_upload_section_limits(section),
	    .force = a.force,
	    .user_agent = br_upload_run_user_agent(),
	};
	if (a.max_time_s > 0)
		pass.limits.max_total_ms = a.max_time_s * UPLOAD_MS_PER_S;
	br_upload_report_t report;
	br_status_t st = br_upload_deliver(&pass, &report, &err);
	if (st != BR_OK)
		code = br_cli_report(&err);
	br_upload_run_print(&report, stderr);
	if (st == BR_OK)
		code = pass_exit(&report, spool_failed);
	if (report.count == 0 && st == BR_OK && !spool_failed)
		fprintf(stderr, "benchrack: upload: nothing waits in %s/spool\n", a.results_dir);
	br_upload_report_free(&report);
	br_upload_config_free(&cfg);
	br_suite_free(&suite);
	return code;
}
