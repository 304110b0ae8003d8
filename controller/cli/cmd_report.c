/*
 * `benchrack report -o report.html`: one self-contained HTML page from the
 * run records, baselines and rack documents found (controller/report/).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/escape.h"
#include "report/report_html.h"
#include "report/report_page.h"
#include "results/atomic_file.h"

#define REPORT_DEFAULT_RESULTS "results"
#define REPORT_MAX_LISTED 64U

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
	      "options:\n"
	      "  -o, --output FILE        the page to write (required)\n"
	      "      --results-dir D      runs from D/runs, baselines from D/baselines\n"
	      "                           (default $BENCHRACK_RESULTS_DIR, else results)\n"
	      "      --runs GLOB          these run records instead of D/runs/*.json\n"
	      "                           (repeatable; quote the pattern)\n"
	      "      --baseline-dir B     baselines from B instead of D/baselines\n"
	      "      --rack DOC           a rack document (D/racks/<rack>.json), with its\n"
	      "                           boards' runs (repeatable)\n"
	      "      --profile FILE       a flame graph of each profile in FILE: folded stacks\n"
	      "                           (`a;b;c COUNT` lines) or speedscope JSON (repeatable)\n"
	      "  -h, --help               this text\n"
	      "\n"
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

enum { OPT_RESULTS_DIR = 256, OPT_RUNS, OPT_BASELINE_DIR, OPT_RACK, OPT_PROFILE };

static int args_parse(int argc, char **argv, report_args_t *a)
{
	static const struct option longopts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"results-dir", required_argument, NULL, OPT_RESULTS_DIR},
	    {"runs", required_argument, NULL, OPT_RUNS},
	    {"baseline-dir", required_argument, NULL, OPT_BASELINE_DIR},
	    {"rack", required_argument, NULL, OPT_RACK},
	    {"profile", required_argument, NULL, OPT_PROFILE},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	memset(a, 0, sizeof(*a));
	const char *env_results = getenv("BENCHRACK_RESULTS_DIR");
	a->results_dir =
	    env_results != NULL && env_results[0] != '\0' ? env_results : REPORT_DEFAULT_RESULTS;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->output = optarg;
			break;
		case OPT_RESULTS_DIR:
			a->results_dir = optarg;
			break;
		case OPT_BASELINE_DIR:
			a->baseline_dir = optarg;
			break;
		case OPT_RUNS:
		case OPT_RACK:
		case OPT_PROFILE: {
			const char **list = c == OPT_RUNS   ? a->runs
			                    : c == OPT_RACK ? a->racks
			                                    : a->profiles;
			size_t *n = c == OPT_RUNS   ? &a->run_count
			            : c == OPT_RACK ? &a->rack_count
			                            : &a->profile_count;
			if (*n == REPORT_MAX_LISTED) {
				fprintf(stderr, "benchrack report: at most %u --%s options\n",
				        REPORT_MAX_LISTED,
				        c == OPT_RUNS   ? "runs"
				        : c == OPT_RACK ? "rack"
				                        : "profile");
				return 2;
			}
			list[(*n)++] = optarg;
			break;
		}
		case 'h':
			report_usage(stdout);
			return 0;
		default:
			report_usage(stderr);
			return 2;
		}
	}
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
