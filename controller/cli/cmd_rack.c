/*
 * `benchrack rack RACK.yaml [--only TAG]`: the suites of a rack file on
 * every selected board at once, a worker process per board
 * (rack/rack_worker.c over rack/rack_pool.h), at most --parallel emulated
 * boards at a time; a live view on a terminal (a line per board) and plain
 * lines otherwise; then the combined outputs (one report per board and
 * suite: the table, --format, LAVA lines), the summary (board x suite:
 * pass, regression, infrastructure error, not run), the rack document and
 * the exit code: 1 any regression, else 3 any infrastructure error, else 0.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/board_run.h"
#include "cli/cli.h"
#include "cli/option_table.h"
#include "cli/config_ref.h"
#include "cli/option_number.h"
#include "run/install_paths.h"
#include "cli/execute.h"
#include "cli/output.h"
#include "cli/rack_view.h"
#include "upload/upload_run.h"
#include "common/xalloc.h"
#include "config/board.h"
#include "config/rack.h"
#include "config/suite.h"
#include "rack/rack_pool.h"
#include "rack/rack_result.h"
#include "rack/rack_run.h"
#include "rack/rack_worker.h"
#include "report/report_output.h"

#define RACK_MAX_ONLY 16U
#define RACK_MAX_SECONDS 86400UL
#define RACK_MAX_PARALLEL 256UL
#define RACK_MAX_ITERATIONS 1024UL
#define RACK_DEFAULT_RESULTS "results"
#define RACK_PROBE_TIMEOUT_MS 5000
#define RACK_MS_PER_S 1000
#define RACK_TICK_MS 250
#define RACK_PATH_BYTES 1024U

typedef struct rack_options {
	const char *rack_path;
	char rack_named[1024]; /* the rack file a name found */
	const char *only[RACK_MAX_ONLY];
	size_t only_count;
	unsigned parallel;
	const char *results_dir;
	const char *lock_dir;
	int lock_wait_s;
	const char *format;
	const char *output;
	const char *document;
	const char *qemu_program;
	int timeout_s;
	int board_timeout_s;
	uint32_t iterations; /* -n (0: the suites') */
	bool probe;
} rack_options_t;

static const br_cli_opts_t rack_options;

static void rack_usage(FILE *out)
{
	fputs("usage: benchrack rack RACK.yaml [options]\n"
	      "\n"
	      "Runs the suites of a rack file (configs/racks/*.yaml) on all its boards at once,\n"
	      "a worker process per board, each with its own server, port and results. Every\n"
	      "board is locked while in use, probed first (an unhealthy board is skipped with\n"
	      "its reason) and its infrastructure errors are retried (never a regression).\n"
	      "\n"
	      "options:\n",
	      out);
	br_cli_opts_usage(out, &rack_options, 0);
	fputs("\n"
	      "exit: 1 any board regressed (or exceeded a budget), else 3 any infrastructure\n"
	      "error or board not run, else 0; 2 a rack, board or suite file that does not\n"
	      "validate.\n",
	      out);
}

static int rack_set_only(void *opts, const char *arg)
{
	rack_options_t *o = opts;
	if (o->only_count == RACK_MAX_ONLY) {
		fprintf(stderr, "benchrack rack: at most %u --only\n", RACK_MAX_ONLY);
		return 2;
	}
	o->only[o->only_count++] = arg;
	return 0;
}

static int rack_set_no_probe(void *opts, const char *arg)
{
	(void)arg;
	((rack_options_t *)opts)->probe = false;
	return 0;
}

#define R(field) offsetof(rack_options_t, field)

static const br_cli_opt_t rack_rows[] = {
    {.name = "only",
     .arg = "TAG",
     .kind = BR_CLI_OPT_CALL,
     .set = rack_set_only,
     .help = "only the boards with this tag (or name); repeatable"},
    {.name = "parallel",
     .letter = 'j',
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = R(parallel),
     .min = 1,
     .max = RACK_MAX_PARALLEL,
     .help = "emulated boards at once (default: the rack's, else the number of CPUs); boards "
             "behind a probe or a remote server are not limited"},
    {.name = "results-dir",
     .arg = "D",
     .offset = R(results_dir),
     .help = "where runs go: D/racks/<board>/runs (default: results, or "
             "$BENCHRACK_RESULTS_DIR); baselines: D/baselines"},
    {.name = "lock-dir",
     .arg = "D",
     .offset = R(lock_dir),
     .help = "where board locks are kept (default: $BENCHRACK_LOCK_DIR, "
             "else " BR_RACK_LOCK_DEFAULT_DIR ")"},
    {.name = "lock-wait",
     .arg = "SEC",
     .kind = BR_CLI_OPT_INT,
     .offset = R(lock_wait_s),
     .max = RACK_MAX_SECONDS,
     .help = "wait this long for a board in use (default 0: not run)"},
    {.name = "format",
     .letter = 'f',
     .arg = "F",
     .offset = R(format),
     .choices = br_report_output_format_names,
     .help = "every board and suite together, to stdout or to --output"},
    {.name = "output",
     .letter = 'o',
     .arg = "FILE",
     .offset = R(output),
     .help = "where --format goes"},
    {.name = "document",
     .arg = "FILE",
     .offset = R(document),
     .help = "the rack document (outcomes, attempts, locks), default D/racks/<rack>.json"},
    {.name = "qemu", .arg = "PROGRAM", .offset = R(qemu_program), .help = "the QEMU to launch"},
    {.name = "iterations",
     .letter = 'n',
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = R(iterations),
     .min = 1,
     .max = RACK_MAX_ITERATIONS,
     .help = "measured iterations per bench (1 to 1024; default: the suite's)"},
    {.name = "timeout",
     .arg = "SEC",
     .kind = BR_CLI_OPT_INT,
     .offset = R(timeout_s),
     .min = 1,
     .max = RACK_MAX_SECONDS,
     .help = "how long one bench may run (default: the suite's)"},
    {.name = "board-timeout",
     .arg = "SEC",
     .kind = BR_CLI_OPT_INT,
     .offset = R(board_timeout_s),
     .max = RACK_MAX_SECONDS,
     .help = "stop a board's worker after this long (default: none)"},
    {.name = "no-probe",
     .kind = BR_CLI_OPT_CALL,
     .set = rack_set_no_probe,
     .help = "skip the health check"},
    {.name = "help", .letter = 'h', .kind = BR_CLI_OPT_HELP, .help = "this text"},
};

static const br_cli_opts_t rack_options = {
    .command = "rack",
    .rows = rack_rows,
    .count = BR_CLI_OPTS_COUNT(rack_rows),
    .column = 24,
    .usage = rack_usage,
};

/* Parses argv into o: 0 to go on, 1 after --help, else the exit code. */
static int rack_parse(int argc, char **argv, rack_options_t *o)
{
	int code = br_cli_opts_parse(&rack_options, argc, argv, o);
	if (code != -1)
		return code == 0 ? 1 : code;
	if (argc - optind != 1) {
		fprintf(stderr, "benchrack rack: which rack? try 'benchrack rack "
		                "configs/racks/qemu-lab.yaml'\n");
		return 2;
	}
	o->rack_path = argv[optind];
	if (br_cli_config_is_name(o->rack_path)) {
		br_error_t err;
		br_error_clear(&err);
		if (br_cli_config_find("rack", o->rack_path, o->rack_named, sizeof(o->rack_named),
		                       &err) != BR_OK)
			return br_cli_report(&err);
		o->rack_path = o->rack_named;
	}
	return 0;
}

static void on_warn(void *ctx, const char *board, const char *message)
{
	(void)ctx;
	fprintf(stderr, "benchrack rack: %s: %s\n", board, message);
}

/*
 * Posts every run the rack wrote to the dashboards its suite names (its
 * upload: section), spooling each first, then makes one bounded delivery
 * pass that also retries whatever was already spooled — as `benchrack run`
 * does after a run. It prints, and never changes the exit code.
 */
static void rack_upload(const br_rack_t *rack, const br_rack_board_result_t *results,
                        const br_suite_t *const *suite_ptrs, const char *results_dir)
{
	for (size_t i = 0; i < rack->entry_count; i++) {
		for (size_t k = 0; k < rack->entries[i].suite_count; k++) {
			const br_suite_t *suite = suite_ptrs[i * BR_RACK_MAX_SUITES + k];
			const char *run = results[i].suites[k].run_path;
			if (suite == NULL || run[0] == '\0' || !suite->file.upload.head.set)
				continue;
			bool failed = false;
			br_upload_run_enqueue(&suite->file.upload, suite->dir, results_dir, &run, 1,
			                      &failed, stderr);
		}
	}
	/* one pass per suite with sinks, each sending only to its own sinks
	 * (a spooled upload goes to a sink its configuration names) */
	for (size_t n = 0; n < rack->entry_count * BR_RACK_MAX_SUITES; n++) {
		const br_suite_t *suite = suite_ptrs[n];
		bool first = suite != NULL && suite->file.upload.head.set;
		for (size_t m = 0; first && m < n; m++)
			first = suite_ptrs[m] != suite;
		if (first)
			br_upload_run_after(NULL, suite, results_dir, NULL, 0, stderr);
	}
}

/* After the boards ran: their reports collected, the rack document written,
 * the format asked for, the summary and the uploads; the rack's exit code. */
static int rack_report(const rack_options_t *op, const br_rack_t *rack,
                       br_rack_board_result_t *results, const br_suite_t *const *suite_ptrs,
                       const br_format_t *fmt)
{
	br_error_t err;
	br_error_clear(&err);
	size_t reports_room = rack->entry_count * BR_RACK_MAX_SUITES;
	br_board_run_t *runs = xcalloc(reports_room, sizeof(*runs));
	br_report_t *reports = xcalloc(reports_room, sizeof(*reports));
	size_t n =
	    br_rack_reports_collect(op->results_dir, rack, results, runs, reports, on_warn, NULL);
	int code = br_rack_exit_code(results, rack->entry_count);
	bool format_on_stdout = fmt != NULL && op->output == NULL;
	char doc[RACK_PATH_BYTES];
	if (op->document != NULL)
		snprintf(doc, sizeof(doc), "%s", op->document);
	else
		snprintf(doc, sizeof(doc), "%s/racks/%s.json", op->results_dir, rack->name);
	bool doc_written = br_rack_document_save(doc, rack, results, &err) == BR_OK;
	if (!doc_written)
		br_cli_report(&err);
	else
		fprintf(stderr, "rack: document written to %s\n", doc);
	/* The HTML page shows the rack's document too, even when no board ran. */
	bool page = fmt != NULL && br_report_output_is_page(fmt);
	if ((n > 0 || (page && doc_written)) &&
	    br_report_output_write(reports, n, op->format, op->output, doc_written ? doc : NULL,
	                           stdout, br_cli_colour(stdout), &err) != BR_OK)
		br_cli_report(&err);
	br_rack_summary_write(rack, results, code, format_on_stdout ? stderr : stdout);
	rack_upload(rack, results, suite_ptrs, op->results_dir);
	for (size_t i = 0; i < n; i++)
		br_board_run_free(&runs[i]);
	free(runs);
	free(reports);
	return code;
}

int br_cli_rack(int argc, char **argv)
{
	rack_options_t o;
	memset(&o, 0, sizeof(o));
	o.probe = true;
	const char *env_results = getenv("BENCHRACK_RESULTS_DIR");
	o.results_dir =
	    env_results != NULL && env_results[0] != '\0' ? env_results : RACK_DEFAULT_RESULTS;
	const char *env_lock = getenv(BR_RACK_LOCK_DIR_ENV);
	o.lock_dir = env_lock != NULL && env_lock[0] != '\0' ? env_lock : BR_RACK_LOCK_DEFAULT_DIR;
	int rc = rack_parse(argc, argv, &o);
	if (rc != 0)
		return rc == 1 ? 0 : rc;
	br_error_t err;
	br_error_clear(&err);
	const br_format_t *fmt = NULL;
	if (br_report_output_format(o.format, o.output, &fmt, &err) != BR_OK)
		return br_cli_report(&err);
	br_rack_session_t rs;
	int code = 2;
	if (br_rack_session_open(o.rack_path, br_configs_dir(), o.only, o.only_count, &rs, &err) !=
	    BR_OK) {
		code = br_cli_report(&err);
		br_rack_session_free(&rs);
		return code;
	}
	const br_rack_t rack = rs.rack;
	br_rack_board_result_t *results = rs.results;
	br_rack_worker_view_t *views = xcalloc(rack.entry_count + 1U, sizeof(*views));
	if (rack.entry_count == 0) {
		fprintf(stderr, "benchrack rack: no board of %s has the tag%s asked for\n",
		        o.rack_path, o.only_count > 1 ? "s" : "");
		goto out;
	}
	for (size_t i = 0; i < rack.entry_count; i++)
		snprintf(views[i].state, sizeof(views[i].state), "waiting");
	unsigned parallel = br_rack_session_parallel(&rs, o.parallel);
	br_run_settings_t run_base;
	memset(&run_base, 0, sizeof(run_base));
	run_base.qemu_program = o.qemu_program;
	run_base.timeout_s = o.timeout_s;
	run_base.iterations_set = o.iterations > 0;
	run_base.iterations = o.iterations;
	br_cli_settings_callbacks(&run_base);
	br_rack_worker_options_t wo = {
	    .rack = &rack,
	    .suites = rs.suite_ptrs,
	    .results_dir = o.results_dir,
	    .lock_dir = o.lock_dir,
	    .lock_wait_ms = o.lock_wait_s * RACK_MS_PER_S,
	    .run_base = &run_base,
	    .probe_timeout_ms = RACK_PROBE_TIMEOUT_MS,
	    .probe = o.probe,
	};
	br_cli_rack_view_t run = {
	    .rack = &rack, .results = results, .views = views, .live = br_cli_rack_view_live()};
	if (!run.live)
		fprintf(stderr, "rack: %s: %zu boards, %u emulated at once\n", rack.name,
		        rack.entry_count, parallel);
	br_rack_pool_t pool = {
	    .count = rack.entry_count,
	    .heavy = rs.heavy,
	    .heavy_limit = parallel,
	    .job_timeout_ms = o.board_timeout_s * RACK_MS_PER_S,
	    .tick_ms = RACK_TICK_MS,
	    .job = br_rack_worker_run,
	    .line = br_cli_rack_view_line,
	    .done = br_cli_rack_view_done,
	    .tick = br_cli_rack_view_tick,
	    .ctx = &run,
	    .job_ctx = &wo,
	};
	br_status_t st = br_rack_pool_run(&pool, &err);
	br_cli_rack_view_draw(&run);
	if (st != BR_OK)
		br_cli_report(&err);

	code = rack_report(&o, &rack, results, rs.suite_ptrs, fmt);
out:
	free(views);
	br_rack_session_free(&rs);
	return code;
}
