/*
 * `benchrack report -o report.html`: one self-contained HTML page from the
 * run records, baselines and rack documents found (controller/report/).
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/option_table.h"
#include "common/escape.h"
#include "report/report_gather.h"
#include "report/report_html.h"
#include "report/report_page.h"
#include "results/atomic_file.h"

#define REPORT_DEFAULT_RESULTS "results"
#define REPORT_MAX_LISTED 64U

static const br_cli_opts_t report_options;

static void report_usage(FILE *out)
{
	fputs("usage: benchrack report -o REPORT.html [options]\n"
	      "\n"
	      "Writes one self-contained HTML page (every script and style inlined; it\n"
	      "fetches nothing) from the run records, baselines and rack documents: per\n"
	      "bench the median over the runs with its p10-p90 band and the baseline, the\n"
	      "latest run's samples with outliers marked, the latest run against the\n"
	      "baseline (change, verdict, budgets), sizes, stack and heap against their\n"
	      "budgets, and per rack a board x bench matrix against the rack's median.\n"
	      "The data behind every chart is in the page as JSON.\n"
	      "\n"
	      "options:\n",
	      out);
	br_cli_opts_usage(out, &report_options, 0);
	fputs("\n"
	      "exit codes: 0 written; 2 usage error, nothing to report, or a rack document\n"
	      "that does not read; 3 the page could not be written\n",
	      out);
}

typedef struct report_args {
	const char *output;
	const char *results_dir;
	const char *baseline_dir;
	const char *runs[REPORT_MAX_LISTED];
	size_t run_count;
	const char *racks[REPORT_MAX_LISTED];
	size_t rack_count;
	const char *profiles[REPORT_MAX_LISTED];
	size_t profile_count;
} report_args_t;

/* Adds arg to one of the repeatable lists (--runs, --rack, --profile). */
static int report_list_add(const char **list, size_t *n, const char *option, const char *arg)
{
	if (*n == REPORT_MAX_LISTED) {
		fprintf(stderr, "benchrack report: at most %u --%s options\n", REPORT_MAX_LISTED,
		        option);
		return 2;
	}
	list[(*n)++] = arg;
	return 0;
}

static int report_set_runs(void *opts, const char *arg)
{
	report_args_t *a = opts;
	return report_list_add(a->runs, &a->run_count, "runs", arg);
}

static int report_set_rack(void *opts, const char *arg)
{
	report_args_t *a = opts;
	return report_list_add(a->racks, &a->rack_count, "rack", arg);
}

static int report_set_profile(void *opts, const char *arg)
{
	report_args_t *a = opts;
	return report_list_add(a->profiles, &a->profile_count, "profile", arg);
}

#define A(field) offsetof(report_args_t, field)

static const br_cli_opt_t report_rows[] = {
    {.name = "output",
     .letter = 'o',
     .arg = "FILE",
     .offset = A(output),
     .help = "the page to write (required)"},
    {.name = "results-dir",
     .arg = "D",
     .offset = A(results_dir),
     .help = "runs from D/runs, baselines from D/baselines (default $BENCHRACK_RESULTS_DIR, "
             "else " REPORT_DEFAULT_RESULTS ")"},
    {.name = "runs",
     .arg = "GLOB",
     .kind = BR_CLI_OPT_CALL,
     .set = report_set_runs,
     .help = "these run records instead of D/runs/*.json (repeatable; quote the pattern)"},
    {.name = "baseline-dir",
     .arg = "B",
     .offset = A(baseline_dir),
     .help = "baselines from B instead of D/baselines"},
    {.name = "rack",
     .arg = "DOC",
     .kind = BR_CLI_OPT_CALL,
     .set = report_set_rack,
     .help = "a rack document (D/racks/<rack>.json), with its boards' runs (repeatable)"},
    {.name = "profile",
     .arg = "FILE",
     .kind = BR_CLI_OPT_CALL,
     .set = report_set_profile,
     .help = "a flame graph of each profile in FILE: folded stacks (`a;b;c COUNT` lines) or "
             "speedscope JSON (repeatable)"},
    {.name = "help", .letter = 'h', .kind = BR_CLI_OPT_HELP, .help = "this text"},
};

static const br_cli_opts_t report_options = {
    .command = "report",
    .rows = report_rows,
    .count = BR_CLI_OPTS_COUNT(report_rows),
    .column = 27,
    .usage = report_usage,
};

static int args_parse(int argc, char **argv, report_args_t *a)
{
	memset(a, 0, sizeof(*a));
	const char *env_results = getenv("BENCHRACK_RESULTS_DIR");
	a->results_dir =
	    env_results != NULL && env_results[0] != '\0' ? env_results : REPORT_DEFAULT_RESULTS;
	int code = br_cli_opts_parse(&report_options, argc, argv, a);
	if (code != -1)
		return code;
	if (optind != argc) {
		fprintf(stderr,
		        "benchrack report: unexpected argument '%s'; try 'benchrack report "
		        "--help'\n",
		        argv[optind]);
		return 2;
	}
	if (a->output == NULL) {
		fprintf(stderr, "benchrack report: say where the page goes with -o REPORT.html\n");
		return 2;
	}
	return -1;
}

int br_cli_report_page(int argc, char **argv)
{
	report_args_t a;
	int code = args_parse(argc, argv, &a);
	if (code >= 0)
		return code;
	br_error_t err;
	br_error_clear(&err);
	br_page_t page;
	br_page_init(&page);
	br_page_sources_t sources = {a.results_dir, a.baseline_dir, a.runs,     a.run_count,
	                             a.racks,       a.rack_count,   a.profiles, a.profile_count};
	br_status_t st = br_page_gather(&page, &sources, &err);
	br_atomic_file_t f;
	if (st == BR_OK)
		st = br_atomic_file_open(&f, a.output, &err);
	if (st == BR_OK) {
		st = br_report_html_write(&page, f.stream, &err);
		if (st == BR_OK)
			st = br_atomic_file_commit(&f, &err);
		else
			br_atomic_file_abort(&f);
	}
	for (size_t i = 0; i < page.warning_count; i++) {
		fputs("report: left out: ", stderr);
		br_escape_text_write(stderr, page.warnings[i]); /* paths and names from records */
		fputc('\n', stderr);
	}
	if (st == BR_OK) {
		fprintf(stderr,
		        "report: %zu runs, %zu baselines, %zu racks, %zu profiles written to %s\n",
		        page.run_count, page.baseline_count, page.rack_count, page.profile_count,
		        a.output);
	}
	br_page_free(&page);
	return st == BR_OK ? 0 : br_cli_report(&err);
}
