/*
 * `benchrack upload [RUN.json ...]`: posts result records to the dashboards
 * of an upload config, and retries whatever earlier runs left in the spool.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "upload/upload_run.h"
#include "config/suite.h"
#include "config/upload_config.h"
#include "upload/spool.h"

#define UPLOAD_DEFAULT_RESULTS "results"
#define UPLOAD_MAX_TIME_S 86400UL
#define UPLOAD_MS_PER_S 1000U

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
	      "options:\n"
	      "      --upload-config FILE  the sinks (a file whose top level is an upload\n"
	      "                            section, as in a suite's upload: key)\n"
	      "      --suite FILE          the sinks of this suite's upload: section\n"
	      "      --results-dir D       where spool/ and rejected/ are (default: results, or\n"
	      "                            $BENCHRACK_RESULTS_DIR)\n"
	      "      --max-time SEC        the most this may take, retries included (default:\n"
	      "                            the config's max_total_seconds, else 30)\n"
	      "      --force               also send uploads a server asked to wait for\n"
	      "      --list                show what is spooled and rejected; send nothing\n"
	      "  -h, --help                this text\n"
	      "\n"
	      "exit codes: 0 nothing left to deliver, 2 a configuration error, an upload\n"
	      "            the server refused or one the configuration does not name,\n"
	      "            3 uploads left in the spool (server down)\n",
	      out);
}

static int parse_seconds(const char *arg, unsigned *out)
{
	char *end = NULL;
	unsigned long v = strtoul(arg, &end, 10);
	if (arg[0] == '\0' || arg[0] == '-' || *end != '\0' || v == 0 || v > UPLOAD_MAX_TIME_S) {
		fprintf(stderr, "benchrack upload: --max-time takes 1 to %lu seconds, not '%s'\n",
		        UPLOAD_MAX_TIME_S, arg);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
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

enum upload_option {
	OPT_UPLOAD_CONFIG = 256,
	OPT_SUITE,
	OPT_RESULTS_DIR,
	OPT_MAX_TIME,
	OPT_FORCE,
	OPT_LIST,
};

/* What the options say. */
typedef struct upload_args {
	const char *config_path, *suite_path, *results_dir;
	unsigned max_time_s;
	bool force, list;
} upload_args_t;

static int parse_args(int argc, char **argv, upload_args_t *a)
{
	static const struct option longopts[] = {
	    {"upload-config", required_argument, NULL, OPT_UPLOAD_CONFIG},
	    {"suite", required_argument, NULL, OPT_SUITE},
	    {"results-dir", required_argument, NULL, OPT_RESULTS_DIR},
	    {"max-time", required_argument, NULL, OPT_MAX_TIME},
	    {"force", no_argument, NULL, OPT_FORCE},
	    {"list", no_argument, NULL, OPT_LIST},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *env_results = getenv("BENCHRACK_RESULTS_DIR");
	a->results_dir =
	    env_results != NULL && env_results[0] != '\0' ? env_results : UPLOAD_DEFAULT_RESULTS;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_UPLOAD_CONFIG:
			a->config_path = optarg;
			break;
		case OPT_SUITE:
			a->suite_path = optarg;
			break;
		case OPT_RESULTS_DIR:
			a->results_dir = optarg;
			break;
		case OPT_MAX_TIME:
			if (parse_seconds(optarg, &a->max_time_s) != 0)
				return 2;
			break;
		case OPT_FORCE:
			a->force = true;
			break;
		case OPT_LIST:
			a->list = true;
			break;
		case 'h':
			upload_usage(stdout);
			return 0;
		default:
			upload_usage(stderr);
			return 2;
		}
	}
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
