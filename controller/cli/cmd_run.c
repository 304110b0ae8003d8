/*
 * `benchrack run` and `benchrack check`: their options. What they do is
 * cli/execute.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/config_ref.h"
#include "common/interrupt.h"
#include "cli/option_number.h"
#include "run/install_paths.h"
#include "cli/execute.h"
#include "cli/output.h"
#include "config/upload_config.h"
#include "debug/flavour.h"
#include "measure/suite_run.h"
#include "report/report_output.h"
#include "rsp/transport.h"

#define RUN_MAX_COUNT 1000000UL
#define RUN_MAX_TIMEOUT_S 86400UL
#define RUN_MAX_ITERATIONS 1024UL
#define RUN_DEFAULT_RESULTS "results"
#define RUN_HOST_BYTES 256U

static void run_usage(FILE *out, bool check)
{
	if (check)
		fputs(
		    "usage: benchrack check SUITE.yaml [options]\n"
		    "\n"
		    "Runs the suite like `benchrack run`, then applies the gate: every budget of\n"
		    "the suite, and every bench against the suite's baseline on the board\n"
		    "(RESULTS/baselines/<suite>/<board>.json) with the suite's\n"
		    "fail_on_regression_percent.\n"
		    "Exit 0 within budgets, 1 a regression or budget exceeded (naming the bench,\n"
		    "metric and percent), 2 usage or configuration, 3 infrastructure.\n",
		    out);
	else
		fputs(
		    "usage: benchrack run [SUITE.yaml | ELF] [options]\n"
		    "\n"
		    "Measures every bench of a suite file (configs/suites/*.yaml) on its boards,\n"
		    "or every bench of a firmware built with benchrack's stub on the emulated\n"
		    "board (QEMU netduinoplus2 under -icount: exact instruction counts).\n"
		    "With no argument: the suite firmware built with this benchrack for the\n"
		    "board (suite-O2-<board>.elf, else suite-O2.elf), here:\n",
		    out);
	if (!check)
		fprintf(out, "  %s\n", br_default_firmware(NULL));
	fprintf(
	    out,
	    "\n"
	    "Every run is written first to RESULTS/runs/<time>-<board>.json and rewritten\n"
	    "after each bench, so that an interrupted run keeps what it finished.\n"
	    "\n"
	    "options:\n"
	    "  -n, --iterations N    measured iterations per bench (1 to 1024; default: the\n"
	    "                        suite's, else 100)\n"
	    "  -w, --warmup N        iterations run first and discarded (default 2)\n"
	    "  -b, --board B         run on board B (a name in configs/boards or a file)\n"
	    "                        instead of the suite's boards\n"
	    "      --remote HOST:PORT  reach the one board (--board, or the suite's only one)\n"
	    "                        through the gdbserver running there (a farm's probe or\n"
	    "                        QEMU); the firmware is loaded as the board's load: says\n"
	    "      --flavour NAME    that server's kind: one of %s\n"
	    "                        (default: the board file's)\n"
	    "      --firmware ELF    measure this suite firmware instead of the suite's\n"
	    "                        (with --board host: a host bench program, benches/host/)\n"
	    "      --results-dir D   where runs/ and baselines/ are (default: results, or\n"
	    "                        $BENCHRACK_RESULTS_DIR)\n"
	    "      --write-baseline  record this run as RESULTS/baselines/<suite>/<board>.json\n"
	    "                        (with check: only when the check passes)\n"
	    "      --baseline FILE   compare with FILE instead of the board's baseline\n"
	    "  -f, --format F        also write the results as one of %s, %s:\n"
	    "                        to stdout instead of the table, or to --output\n"
	    "  -o, --output FILE     where --format goes (format from the extension when\n"
	    "                        --format is not given)\n"
	    "      --json FILE       also write the run record (results/SCHEMA.md) to FILE\n"
	    "      --qemu PROGRAM    the QEMU to launch (default: the board's)\n"
	    "      --timeout SEC     how long one bench may run (default: the suite's, 30)\n"
	    "      --commit SHA      the firmware's git commit, when git cannot tell\n"
	    "      --upload-config FILE  post the results to these dashboards instead of the\n"
	    "                        suite's upload: section (never changes the exit code;\n"
	    "                        what a server did not take waits in RESULTS/spool)\n"
	    "      --min-detectable P%%  enough iterations per bench (up to 1024) for a noisy\n"
	    "                        figure's test to resolve a change of P %% of it, sized\n"
	    "                        from the baseline's samples\n"
	    "      --against REF     measure the firmware built at git REF (the suite's\n"
	    "                        build: section, in a worktree kept under\n"
	    "                        RESULTS/worktrees and reused) and this one on the same\n"
	    "                        board in one run, interleaved per bench (elf: entries on\n"
	    "                        their ELF as built at REF in the worktree, where it is);\n"
	    "                        check gates on the difference\n"
	    "  -h, --help            this text\n"
	    "\n"
	    "Colour only on a terminal, never with NO_COLOR set.\n",
	    br_flavour_name_joined(), br_format_names(), BR_REPORT_PAGE_FORMAT);
}

static bool is_suite_file(const char *path)
{
	size_t n = strlen(path);
	return (n > 5 && strcmp(path + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(path + n - 4, ".yml") == 0);
}

/* --remote HOST:PORT and --flavour NAME into s (host kept in host); 2 when
 * they do not make sense (a message printed, or err set for a bad HOST:PORT). */
static int remote_settings(const char *cmd, const char *remote, char *host, size_t cap,
                           br_cli_settings_t *s, br_error_t *err)
{
	if (remote == NULL) {
		if (s->remote_flavour == NULL)
			return 0;
		fprintf(stderr, "benchrack %s: --flavour names the server of --remote HOST:PORT\n",
		        cmd);
		return 2;
	}
	if (s->remote_flavour != NULL && br_flavour_find(s->remote_flavour) == NULL) {
		fprintf(stderr, "benchrack %s: unknown flavour '%s' (one of: %s)\n", cmd,
		        s->remote_flavour, br_flavour_names());
		return 2;
	}
	if (s->against != NULL || (s->board != NULL && strcmp(s->board, BR_HOST_BOARD_NAME) == 0)) {
		fprintf(stderr,
		        "benchrack %s: --remote reaches one board's gdbserver; leave out %s\n", cmd,
		        s->against != NULL ? "--against" : "--board host");
		return 2;
	}
	if (rsp_transport_parse_hostport(remote, host, cap, &s->remote_port, err) != BR_OK)
		return 2;
	s->remote_host = host;
	return 0;
}

enum run_option {
	OPT_FIRMWARE = 256,
	OPT_RESULTS_DIR,
	OPT_WRITE_BASELINE,
	OPT_BASELINE,
	OPT_JSON,
	OPT_QEMU,
	OPT_TIMEOUT,
	OPT_COMMIT,
	OPT_UPLOAD_CONFIG,
	OPT_AGAINST,
	OPT_MIN_DETECTABLE,
	OPT_REMOTE,
	OPT_FLAVOUR,
};

/* "1%" or "1": a percentage above 0 and at most 100. */
static int min_detectable_of(const char *cmd, const char *arg, double *out)
{
	char *end = NULL;
	double v = strtod(arg, &end);
	if (end != arg && end != NULL && *end == '%')
		end++;
	if (end == arg || end == NULL || *end != '\0' || !(v > 0.0 && v <= 100.0)) {
		fprintf(
		    stderr,
		    "benchrack %s: --min-detectable takes a percentage above 0 and at most 100, "
		    "e.g. 1%%, not '%s'\n",
		    cmd, arg);
		return -1;
	}
	*out = v;
	return 0;
}

static int run_or_check(int argc, char **argv, bool check)
{
	static const struct option longopts[] = {
	    {"iterations", required_argument, NULL, 'n'},
	    {"warmup", required_argument, NULL, 'w'},
	    {"board", required_argument, NULL, 'b'},
	    {"format", required_argument, NULL, 'f'},
	    {"output", required_argument, NULL, 'o'},
	    {"firmware", required_argument, NULL, OPT_FIRMWARE},
	    {"results-dir", required_argument, NULL, OPT_RESULTS_DIR},
	    {"write-baseline", no_argument, NULL, OPT_WRITE_BASELINE},
	    {"baseline", required_argument, NULL, OPT_BASELINE},
	    {"json", required_argument, NULL, OPT_JSON},
	    {"qemu", required_argument, NULL, OPT_QEMU},
	    {"timeout", required_argument, NULL, OPT_TIMEOUT},
	    {"commit", required_argument, NULL, OPT_COMMIT},
	    {"upload-config", required_argument, NULL, OPT_UPLOAD_CONFIG},
	    {"against", required_argument, NULL, OPT_AGAINST},
	    {"min-detectable", required_argument, NULL, OPT_MIN_DETECTABLE},
	    {"remote", required_argument, NULL, OPT_REMOTE},
	    {"flavour", required_argument, NULL, OPT_FLAVOUR},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *cmd = check ? "check" : "run";
	br_cli_settings_t s;
	memset(&s, 0, sizeof(s));
	s.check = check;
	const char *env_results = getenv("BENCHRACK_RESULTS_DIR");
	s.results_dir =
	    env_results != NULL && env_results[0] != '\0' ? env_results : RUN_DEFAULT_RESULTS;
	const char *firmware = NULL;
	const char *upload_path = NULL;
	const char *remote = NULL;
	char remote_host[RUN_HOST_BYTES];
	unsigned long long v = 0;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:w:b:f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (br_cli_option_whole(cmd, "--iterations", optarg, 1, RUN_MAX_ITERATIONS,
			                        &v) != 0)
				return 2;
			s.iterations = (uint32_t)v;
			s.iterations_set = true;
			break;
		case 'w':
			if (br_cli_option_whole(cmd, "--warmup", optarg, 0, RUN_MAX_COUNT, &v) != 0)
				return 2;
			s.warmup = (uint32_t)v;
			s.warmup_set = true;
			break;
		case 'b':
			s.board = optarg;
			break;
		case 'f':
			s.format = optarg;
			break;
		case 'o':
			s.output = optarg;
			break;
		case OPT_FIRMWARE:
			firmware = optarg;
			break;
		case OPT_RESULTS_DIR:
			s.results_dir = optarg;
			break;
		case OPT_WRITE_BASELINE:
			s.write_baseline = true;
			break;
		case OPT_BASELINE:
			s.baseline_path = optarg;
			break;
		case OPT_JSON:
			s.json_path = optarg;
			break;
		case OPT_QEMU:
			s.qemu_program = optarg;
			break;
		case OPT_TIMEOUT:
			if (br_cli_option_whole(cmd, "--timeout", optarg, 1, RUN_MAX_TIMEOUT_S,
			                        &v) != 0)
				return 2;
			s.timeout_s = (int)v;
			break;
		case OPT_COMMIT:
			s.commit = optarg;
			break;
		case OPT_UPLOAD_CONFIG:
			upload_path = optarg;
			break;
		case OPT_AGAINST:
			s.against = optarg;
			break;
		case OPT_MIN_DETECTABLE:
			if (min_detectable_of(cmd, optarg, &s.min_detectable_percent) != 0)
				return 2;
			break;
		case OPT_REMOTE:
			remote = optarg;
			break;
		case OPT_FLAVOUR:
			s.remote_flavour = optarg;
			break;
		case 'h':
			run_usage(stdout, check);
			return 0;
		default:
			run_usage(stderr, check);
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr,
		        "benchrack %s: one suite file or firmware ELF at most; try "
		        "'benchrack %s --help'\n",
		        cmd, cmd);
		return 2;
	}
	if (check && argc - optind == 0) {
		fprintf(stderr, "benchrack check: which suite? try 'benchrack check "
		                "configs/suites/default.yaml'\n");
		return 2;
	}
	if (s.baseline_path != NULL && !check) {
		fprintf(stderr, "benchrack run: --baseline only means something to check\n");
		return 2;
	}
	const char *arg = optind < argc ? argv[optind] : NULL;
	char named[1024];
	if (arg != NULL && br_cli_config_is_name(arg)) {
		br_error_t ferr;
		br_error_clear(&ferr);
		if (br_cli_config_find("suite", arg, named, sizeof(named), &ferr) != BR_OK)
			return br_cli_report(&ferr);
		s.suite_path = named;
	} else if (arg != NULL && is_suite_file(arg)) {
		s.suite_path = arg;
	} else {
		s.elf_path = arg;
	}
	if (firmware != NULL) {
		if (s.elf_path != NULL) {
			fprintf(stderr,
			        "benchrack %s: give the firmware once (as ELF or --firmware)\n",
			        cmd);
			return 2;
		}
		s.elf_path = firmware;
	}
	/* --board host: the firmware is a host bench program (benches/host/) */
	if (s.board != NULL && strcmp(s.board, BR_HOST_BOARD_NAME) == 0 && s.elf_path != NULL) {
		s.host_program = s.elf_path;
		s.elf_path = NULL;
	}
	br_error_t err;
	br_error_clear(&err);
	if (remote_settings(cmd, remote, remote_host, sizeof(remote_host), &s, &err) != 0)
		return err.status != BR_OK ? br_cli_report(&err) : 2;
	const br_format_t *fmt = NULL;
	if (br_report_output_format(s.format, s.output, &fmt, &err) != BR_OK)
		return br_cli_report(&err);
	br_upload_config_t upload;
	if (upload_path != NULL && br_upload_config_load(upload_path, &upload, &err) != BR_OK)
		return br_cli_report(&err);
	s.upload_config = upload_path != NULL ? &upload : NULL;
	/* SIGINT/SIGTERM end the run: its record closed "interrupted", the
	 * server it launched stopped, then exit 128 + the signal (issue 31). */
	br_interrupt_install();
	int code = br_cli_execute(&s);
	if (upload_path != NULL)
		br_upload_config_free(&upload);
	if (br_interrupt_signal() != 0)
		return 128 + br_interrupt_signal();
	return code;
}

int br_cli_run(int argc, char **argv)
{
	return run_or_check(argc, argv, false);
}

int br_cli_check(int argc, char **argv)
{
	return run_or_check(argc, argv, true);
}
