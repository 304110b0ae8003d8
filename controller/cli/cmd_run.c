/*
 * `benchrack run` and `benchrack check`: their options. What they do is
 * cli/execute.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/option_table.h"
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

static const br_cli_opts_t run_options;

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
	fputs("\n"
	      "Every run is written first to RESULTS/runs/<time>-<board>.json and rewritten\n"
	      "after each bench, so that an interrupted run keeps what it finished.\n"
	      "\n"
	      "options:\n",
	      out);
	br_cli_opts_usage(out, &run_options, 0);
	fputs("\nColour only on a terminal, never with NO_COLOR set.\n", out);
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

/* The command line of run and check: the settings and what becomes them. */
typedef struct run_cli {
	br_cli_settings_t s;
	const char *firmware;
	const char *upload_path;
	const char *remote;
} run_cli_t;

static int run_set_iterations(void *opts, const char *arg)
{
	(void)arg;
	((run_cli_t *)opts)->s.iterations_set = true;
	return 0;
}

static int run_set_warmup(void *opts, const char *arg)
{
	(void)arg;
	((run_cli_t *)opts)->s.warmup_set = true;
	return 0;
}

static int run_set_min_detectable(void *opts, const char *arg)
{
	run_cli_t *r = opts;
	return min_detectable_of(r->s.check ? "check" : "run", arg, &r->s.min_detectable_percent) !=
	               0
	           ? 2
	           : 0;
}

#define S(field) offsetof(run_cli_t, s.field)
#define C(field) offsetof(run_cli_t, field)

static const br_cli_opt_t run_rows[] = {
    {.name = "iterations",
     .letter = 'n',
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = S(iterations),
     .min = 1,
     .max = RUN_MAX_ITERATIONS,
     .set = run_set_iterations,
     .help = "measured iterations per bench (1 to 1024; default: the suite's, else 100)"},
    {.name = "warmup",
     .letter = 'w',
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = S(warmup),
     .max = RUN_MAX_COUNT,
     .set = run_set_warmup,
     .help = "iterations run first and discarded (default 2)"},
    {.name = "board",
     .letter = 'b',
     .arg = "B",
     .offset = S(board),
     .help = "run on board B (a name in configs/boards or a file) instead of the suite's "
             "boards"},
    {.name = "remote",
     .arg = "HOST:PORT",
     .offset = C(remote),
     .help = "reach the one board (--board, or the suite's only one) through the gdbserver "
             "running there (a farm's probe or QEMU); the firmware is loaded as the board's "
             "load: says"},
    {.name = "flavour",
     .arg = "NAME",
     .offset = S(remote_flavour),
     .choices = br_flavour_names,
     .help = "that server's kind, by default the board file's"},
    {.name = "firmware",
     .arg = "ELF",
     .offset = C(firmware),
     .help = "measure this suite firmware instead of the suite's (with --board host: a host "
             "bench program, benches/host/)"},
    {.name = "results-dir",
     .arg = "D",
     .offset = S(results_dir),
     .help = "where runs/ and baselines/ are (default: results, or $BENCHRACK_RESULTS_DIR)"},
    {.name = "write-baseline",
     .kind = BR_CLI_OPT_FLAG,
     .offset = S(write_baseline),
     .help = "record this run as RESULTS/baselines/<suite>/<board>.json (with check: only "
             "when the check passes)"},
    {.name = "baseline",
     .arg = "FILE",
     .offset = S(baseline_path),
     .help = "compare with FILE instead of the board's baseline"},
    {.name = "format",
     .letter = 'f',
     .arg = "F",
     .offset = S(format),
     .choices = br_report_output_format_names,
     .help = "also write the results in this format: to stdout instead of the table, or to "
             "--output"},
    {.name = "output",
     .letter = 'o',
     .arg = "FILE",
     .offset = S(output),
     .help = "where --format goes (format from the extension when --format is not given)"},
    {.name = "json",
     .arg = "FILE",
     .offset = S(json_path),
     .help = "also write the run record (results/SCHEMA.md) to FILE"},
    {.name = "qemu",
     .arg = "PROGRAM",
     .offset = S(qemu_program),
     .help = "the QEMU to launch (default: the board's)"},
    {.name = "timeout",
     .arg = "SEC",
     .kind = BR_CLI_OPT_INT,
     .offset = S(timeout_s),
     .min = 1,
     .max = RUN_MAX_TIMEOUT_S,
     .help = "how long one bench may run (default: the suite's, 30)"},
    {.name = "commit",
     .arg = "SHA",
     .offset = S(commit),
     .help = "the firmware's git commit, when git cannot tell"},
    {.name = "upload-config",
     .arg = "FILE",
     .offset = C(upload_path),
     .help = "post the results to these dashboards instead of the suite's upload: section "
             "(never changes the exit code; what a server did not take waits in "
             "RESULTS/spool)"},
    {.name = "min-detectable",
     .arg = "P%",
     .kind = BR_CLI_OPT_CALL,
     .set = run_set_min_detectable,
     .help = "enough iterations per bench (up to 1024) for a noisy figure's test to resolve a "
             "change of P % of it, sized from the baseline's samples"},
    {.name = "runs",
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = S(check_runs),
     .min = 1,
     .max = BR_RUN_CHECK_RUNS_MAX,
     .help = "check --board host: the runs (launches) taken of each noisy bench whose "
             "baseline holds 2 or more runs, judged by their median against the baseline's "
             "runs (1 to 30; default 5; 1: one run)"},
    {.name = "against",
     .arg = "REF",
     .offset = S(against),
     .help = "measure the firmware built at git REF (the suite's build: section, in a "
             "worktree kept under RESULTS/worktrees and reused) and this one on the same board "
             "in one run, interleaved per bench (elf: entries on their ELF as built at REF in "
             "the worktree, where it is); check gates on the difference"},
    {.name = "help", .letter = 'h', .kind = BR_CLI_OPT_HELP, .help = "this text"},
};

static void run_usage_run(FILE *out)
{
	run_usage(out, false);
}

static void run_usage_check(FILE *out)
{
	run_usage(out, true);
}

static const br_cli_opts_t run_options = {
    .command = "run",
    .rows = run_rows,
    .count = BR_CLI_OPTS_COUNT(run_rows),
    .column = 24,
    .usage = run_usage_run,
};

static const br_cli_opts_t check_options = {
    .command = "check",
    .rows = run_rows,
    .count = BR_CLI_OPTS_COUNT(run_rows),
    .column = 24,
    .usage = run_usage_check,
};

/* run and check after their options: the operand, then the settings. */
static int run_or_check_go(int argc, char **argv, const char *cmd, run_cli_t *r)
{
	br_cli_settings_t *s = &r->s;
	bool check = s->check;
	const char *firmware = r->firmware;
	const char *upload_path = r->upload_path;
	const char *remote = r->remote;
	char remote_host[RUN_HOST_BYTES];
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
	if (s->baseline_path != NULL && !check) {
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
		s->suite_path = named;
	} else if (arg != NULL && is_suite_file(arg)) {
		s->suite_path = arg;
	} else {
		s->elf_path = arg;
	}
	if (firmware != NULL) {
		if (s->elf_path != NULL) {
			fprintf(stderr,
			        "benchrack %s: give the firmware once (as ELF or --firmware)\n",
			        cmd);
			return 2;
		}
		s->elf_path = firmware;
	}
	/* --board host: the firmware is a host bench program (benches/host/) */
	if (s->board != NULL && strcmp(s->board, BR_HOST_BOARD_NAME) == 0 && s->elf_path != NULL) {
		s->host_program = s->elf_path;
		s->elf_path = NULL;
	}
	br_error_t err;
	br_error_clear(&err);
	if (remote_settings(cmd, remote, remote_host, sizeof(remote_host), s, &err) != 0)
		return err.status != BR_OK ? br_cli_report(&err) : 2;
	const br_format_t *fmt = NULL;
	if (br_report_output_format(s->format, s->output, &fmt, &err) != BR_OK)
		return br_cli_report(&err);
	br_upload_config_t upload;
	if (upload_path != NULL && br_upload_config_load(upload_path, &upload, &err) != BR_OK)
		return br_cli_report(&err);
	s->upload_config = upload_path != NULL ? &upload : NULL;
	/* SIGINT/SIGTERM end the run: its record closed "interrupted", the
	 * server it launched stopped, then exit 128 + the signal (issue 31). */
	br_interrupt_install();
	int code = br_cli_execute(s);
	if (upload_path != NULL)
		br_upload_config_free(&upload);
	if (br_interrupt_signal() != 0)
		return 128 + br_interrupt_signal();
	return code;
}

static int run_or_check(int argc, char **argv, bool check)
{
	const char *cmd = check ? "check" : "run";
	run_cli_t r;
	memset(&r, 0, sizeof(r));
	br_cli_settings_t *sp = &r.s;
	sp->check = check;
	const char *env_results = getenv("BENCHRACK_RESULTS_DIR");
	sp->results_dir =
	    env_results != NULL && env_results[0] != '\0' ? env_results : RUN_DEFAULT_RESULTS;
	int parsed = br_cli_opts_parse(check ? &check_options : &run_options, argc, argv, &r);
	if (parsed != -1)
		return parsed;
	return run_or_check_go(argc, argv, cmd, &r);
}

int br_cli_run(int argc, char **argv)
{
	return run_or_check(argc, argv, false);
}

int br_cli_check(int argc, char **argv)
{
	return run_or_check(argc, argv, true);
}
