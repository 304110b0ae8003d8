/*
 * `benchrack measure`: one measurement of any firmware — a range or a
 * function at breakpoints, a stub bench in batch mode, or both at once — with
 * its calibration, stack, heap and sizes, printed and optionally written as
 * JSON. Exit 0 when every sample was measured, 2 for a usage or input error,
 * 3 when the target, the server or the counter let us down (a breakpoint
 * that never hit, a counter that does not count, a sample that could hide a
 * wrap).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rack/board_lock.h"
#include "cli/cli.h"
#include "cli/option_table.h"
#include "cli/output.h"
#include "cli/option_number.h"
#include "report/report_measure.h"
#include "run/install_paths.h"
#include "config/board.h"
#include "common/counter_kind.h"
#include "common/interrupt.h"
#include "debug/flavour.h"
#include "common/xalloc.h"
#include "measure/bench_size.h"
#include "measure/counter_spec.h"
#include "measure/measure_run.h"
#include "run/board_target.h"
#include "run/run_measure.h"

#define MEASURE_MAX_COUNT 100000000ULL
#define MEASURE_MAX_TIMEOUT_S 86400ULL
#define MEASURE_MS_PER_S 1000

/* The usage's two listings: what to measure, and the options. */
enum { MEASURE_GROUP_WHAT, MEASURE_GROUP_OPTIONS };

static const br_cli_opts_t measure_options;

static void measure_usage(FILE *out)
{
	fputs("usage: benchrack measure ELF WHAT [options]\n"
	      "\n"
	      "Measures any firmware through the debug port, on QEMU's netduinoplus2 unless\n"
	      "--board names a board file or --remote a running gdbserver. WHAT is one of:\n",
	      out);
	br_cli_opts_usage(out, &measure_options, MEASURE_GROUP_WHAT);
	fputs("\noptions:\n", out);
	br_cli_opts_usage(out, &measure_options, MEASURE_GROUP_OPTIONS);
	fputs("\n"
	      "exit codes: 0 every sample measured, 2 usage or input error, 3 target, server\n"
	      "            or counter error (a breakpoint that never hit, a counter that does\n"
	      "            not count, a sample whose host time could hide a counter wrap)\n",
	      out);
}

/* A usage error about the command line as a whole. */
static int measure_bad(const char *message)
{
	return br_cli_usage_error("measure", message);
}

/* Everything the command line says beyond the measurement's own options. */
typedef struct measure_cli {
	br_measure_options_t opts;
	br_counter_t counter;
	const char *counter_spec;
	const char *core;
	uint64_t clock_hz;
	br_stack_region_t stack_region;
	bool sizes;
	bool warmup_given;
	const char *bench_elf;
	const char *empty_elf;
	const char *json_path;
	const char *board;           /* --board, or NULL */
	const char *load;            /* --load, or NULL */
	br_board_load_t load_policy; /* --load's (DEFAULT: not given) */
	br_board_t board_file;       /* loaded from --board: the counter's texts point into it */
} measure_cli_t;

static int measure_set_iterations(void *opts, const char *arg)
{
	(void)arg;
	((measure_cli_t *)opts)->opts.fewer_ok = false;
	return 0;
}

static int measure_set_warmup(void *opts, const char *arg)
{
	(void)arg;
	((measure_cli_t *)opts)->warmup_given = true;
	return 0;
}

static int measure_set_stack_region(void *opts, const char *arg)
{
	measure_cli_t *m = opts;
	br_error_t err;
	br_error_clear(&err);
	if (br_stack_region_parse(arg, &m->stack_region, &err) != BR_OK)
		return br_cli_report(&err);
	m->opts.stack = true;
	m->opts.stack_region = &m->stack_region;
	return 0;
}

static int measure_set_breakpoints(void *opts, const char *arg)
{
	static const struct {
		const char *name;
		br_breakpoint_kind_t kind;
	} kinds[] = {
	    {"auto", BR_BREAKPOINT_AUTO},
	    {"hardware", BR_BREAKPOINT_HARDWARE},
	    {"software", BR_BREAKPOINT_SOFTWARE},
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(arg, kinds[i].name) == 0) {
			((measure_cli_t *)opts)->opts.breakpoint_kind = kinds[i].kind;
			return 0;
		}
	}
	return measure_bad("--breakpoints takes auto, hardware or software");
}

static int measure_set_timeout(void *opts, const char *arg)
{
	unsigned long long v = 0;
	if (br_cli_option_whole("measure", "--timeout", arg, 1, MEASURE_MAX_TIMEOUT_S, &v) != 0)
		return 2;
	((measure_cli_t *)opts)->opts.timeout_ms = (int)v * MEASURE_MS_PER_S;
	return 0;
}

#define M(field) offsetof(measure_cli_t, field)
#define O(field) offsetof(measure_cli_t, opts.field)

static const br_cli_opt_t measure_rows[] = {
    {.name = "from",
     .arg = "X",
     .offset = O(from),
     .group = MEASURE_GROUP_WHAT,
     .help = "each pass from X to --to Y, each a function, an address (0x...) or FILE:LINE; "
             "X equal to Y: one pass of a loop"},
    {.name = "to",
     .arg = "Y",
     .offset = O(to),
     .group = MEASURE_GROUP_WHAT,
     .help = "where each pass from --from X ends"},
    {.name = "function",
     .arg = "NAME",
     .offset = O(function),
     .group = MEASURE_GROUP_WHAT,
     .help = "each call of NAME, from its entry to its return"},
    {.name = "bench",
     .arg = "NAME",
     .offset = O(bench),
     .group = MEASURE_GROUP_WHAT,
     .help = "a bench of a firmware built with benchrack's stub, in batch mode; with "
             "--from/--to or --function, the stub runs NAME while the breakpoints measure "
             "inside it"},
    {.name = "(none, with --sizes)",
     .kind = BR_CLI_OPT_NOTE,
     .group = MEASURE_GROUP_WHAT,
     .help = "sizes only: nothing runs"},
    {.name = "iterations",
     .letter = 'n',
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = O(iterations),
     .min = 1,
     .max = MEASURE_MAX_COUNT,
     .set = measure_set_iterations,
     .group = MEASURE_GROUP_OPTIONS,
     .help = "measured samples (default 100; batch mode: 1..1024); a region reached fewer "
             "times: without -n its samples are the result, with -n they are kept and it is "
             "exit 3"},
    {.name = "warmup",
     .letter = 'w',
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = O(warmup),
     .max = MEASURE_MAX_COUNT,
     .set = measure_set_warmup,
     .group = MEASURE_GROUP_OPTIONS,
     .help = "samples taken first and discarded (default: 2 in batch mode, 0 at "
             "breakpoints)"},
    {.name = "arg",
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = O(bench_argument),
     .max = UINT32_MAX,
     .group = MEASURE_GROUP_OPTIONS,
     .help = "the bench's argument (e.g. recursion's depth)"},
    {.name = "counter",
     .arg = "SPEC",
     .offset = M(counter_spec),
     .group = MEASURE_GROUP_OPTIONS,
     .choices = br_counter_kind_list,
     .help = "the counter, by default QEMU's instruction count; an mmio counter is "
             "mmio:ADDRESS[:WIDTH[:down]]"},
    {.name = "clock-hz",
     .arg = "HZ",
     .kind = BR_CLI_OPT_U64,
     .offset = M(clock_hz),
     .min = 1,
     .max = UINT64_MAX,
     .group = MEASURE_GROUP_OPTIONS,
     .help = "the counter's clock: times, and the wrap check"},
    {.name = "core",
     .arg = "CORE",
     .offset = M(core),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "m0, m0+, m3, m4 (default), m7, m33 (the DWT's lock)"},
    {.name = "stack",
     .kind = BR_CLI_OPT_FLAG,
     .offset = O(stack),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "paint the stack region the ELF's linker symbols define and report how deep each "
             "sample went (breakpoints)"},
    {.name = "stack-region",
     .arg = "LOW:SIZE",
     .kind = BR_CLI_OPT_CALL,
     .set = measure_set_stack_region,
     .group = MEASURE_GROUP_OPTIONS,
     .help = "paint this region instead (implies --stack)"},
    {.name = "breakpoints",
     .arg = "K",
     .kind = BR_CLI_OPT_CALL,
     .set = measure_set_breakpoints,
     .group = MEASURE_GROUP_OPTIONS,
     .help = "auto (by memory region, the default), hardware, software"},
    {.name = "sizes",
     .kind = BR_CLI_OPT_FLAG,
     .offset = M(sizes),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "break the code down by function (against the empty bench's image when there is "
             "one); for a stub image, the flash and RAM of the stub and of each bench on top"},
    {.name = "bench-elf",
     .arg = "FILE",
     .offset = M(bench_elf),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "the image a bench's size is measured in (found next to a suite-O<L>.elf as "
             "bench-<NAME>-O<L>.elf when not given)"},
    {.name = "empty-elf",
     .arg = "FILE",
     .offset = M(empty_elf),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "the image a bench's size is measured against (bench-empty-O<L>.elf next to a "
             "suite-O<L>.elf when not given)"},
    {.name = "json",
     .arg = "FILE",
     .offset = M(json_path),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "also write the result as JSON"},
    {.name = "qemu",
     .arg = "PROGRAM",
     .offset = O(link.qemu_program),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "the QEMU to launch (default " BR_QEMU_PROGRAM ")"},
    {.name = "machine",
     .arg = "NAME",
     .offset = O(link.machine),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "its machine (default netduinoplus2)"},
    {.name = "board",
     .letter = 'b',
     .arg = "B",
     .offset = M(board),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "the board (a name in configs/boards or a board file): its server, counter and "
             "memory; the ELF is loaded over the debug port as its load: key says"},
    {.name = "remote",
     .arg = "HOST:PORT",
     .offset = O(link.remote),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "a running gdbserver (the ELF loaded there when it differs, see --load)"},
    {.name = "flavour",
     .arg = "NAME",
     .offset = O(link.flavour),
     .group = MEASURE_GROUP_OPTIONS,
     .choices = br_flavour_names,
     .help = "that server's kind, by default " BR_FLAVOUR_GENERIC_NAME},
    {.name = "load",
     .arg = "POLICY",
     .offset = M(load),
     .group = MEASURE_GROUP_OPTIONS,
     .help = "always, if-different (default for a board benchrack did not launch) or never"},
    {.name = "timeout",
     .arg = "SEC",
     .kind = BR_CLI_OPT_CALL,
     .set = measure_set_timeout,
     .group = MEASURE_GROUP_OPTIONS,
     .help = "the longest wait for one breakpoint (default 10)"},
    {.name = "help",
     .letter = 'h',
     .kind = BR_CLI_OPT_HELP,
     .group = MEASURE_GROUP_OPTIONS,
     .help = "this text"},
};

static const br_cli_opts_t measure_options = {
    .command = "measure",
    .rows = measure_rows,
    .count = BR_CLI_OPTS_COUNT(measure_rows),
    .column = 23,
    .usage = measure_usage,
};

/* Parses argv into m; returns -1 to go on, or an exit code. */
static int measure_parse(int argc, char **argv, measure_cli_t *m)
{
	br_measure_options_t *o = &m->opts;
	o->fewer_ok = true;
	int code = br_cli_opts_parse(&measure_options, argc, argv, m);
	if (code != -1)
		return code;
	if (argc - optind != 1)
		return measure_bad("give exactly one firmware ELF");
	if (m->board != NULL && (o->link.remote != NULL || o->link.machine != NULL))
		return measure_bad(
		    "--board says where the board is: leave out --remote and --machine");
	if (m->load != NULL && !br_board_load_parse(m->load, &m->load_policy))
		return measure_bad("--load takes always, if-different or never");
	o->elf_path = argv[optind];
	/* A region that runs once (most firmware's main) is measured as it is. */
	if (!m->warmup_given && (o->from != NULL || o->function != NULL))
		o->warmup = 0;
	if (m->counter_spec != NULL || m->clock_hz != 0) {
		br_error_t err;
		br_error_clear(&err);
		if (br_counter_spec_parse(m->counter_spec != NULL
		                              ? m->counter_spec
		                              : br_counter_kind_names[BR_COUNTER_KIND_TIM2],
		                          m->clock_hz, m->core, &m->counter, &err) != BR_OK)
			return br_cli_report(&err);
		o->counter = &m->counter;
	}
	return -1;
}

/* The measurement, through the runner, on the board --board names or the
 * one the link options describe, with the board's lock held throughout. */
static br_status_t measure_take(measure_cli_t *m, br_measure_raw_t *raw, br_error_t *err)
{
	br_measure_options_t *o = &m->opts;
	br_endpoint_t ep;
	char host[BR_MEASURE_HOST_BYTES];
	br_board_load_t load = m->load_policy;
	bool counter_given = m->counter_spec != NULL || m->clock_hz != 0;
	br_status_t st;
	if (m->board != NULL) {
		st = br_board_reach(m->board, br_configs_dir(), o->elf_path, o->link.qemu_program,
		                    &m->board_file, &ep, counter_given ? NULL : &m->counter,
		                    m->load == NULL ? &load : NULL, err);
		if (st == BR_OK && !counter_given)
			o->counter = &m->counter;
		if (st == BR_OK && counter_given)
			br_board_counter_label(&m->board_file, &m->counter);
	} else {
		st = br_measure_endpoint(o, &ep, host, sizeof(host), err);
	}
	br_board_lock_t lock;
	if (st == BR_OK)
		st = br_board_lock_take(&ep, stderr, &lock, err);
	if (st == BR_OK) {
		br_image_hooks_t hooks = {.progress = br_cli_load_progress,
		                          .loaded = br_cli_load_done};
		st = br_run_measure(o, &ep, load, false, &hooks, raw, err);
		br_cli_progress_done(NULL);
		br_board_lock_give(&lock);
	}
	return st;
}

int br_cli_measure(int argc, char **argv)
{
	measure_cli_t m;
	memset(&m, 0, sizeof(m));
	br_measure_options_default(&m.opts);
	m.opts.link.output = br_cli_firmware_output;
	m.opts.link.load_progress = br_cli_load_progress; /* on a terminal only */
	m.load_policy = BR_BOARD_LOAD_DEFAULT;
	int code = measure_parse(argc, argv, &m);
	if (code >= 0)
		return code;
	br_measure_options_t *o = &m.opts;
	bool sizes_only =
	    m.sizes && o->from == NULL && o->to == NULL && o->function == NULL && o->bench == NULL;

	br_error_t err;
	br_error_clear(&err);
	br_measure_raw_t raw;
	memset(&raw, 0, sizeof(raw));
	br_status_t st = BR_OK;
	/* SIGINT/SIGTERM end the measurement: the server it launched stopped,
	 * --json written as failed naming the signal, then exit 128 + the
	 * signal (issue 31), as for run and check. */
	br_interrupt_install();
	if (!sizes_only)
		st = measure_take(&m, &raw, &err);
	br_error_t failure = err;

	br_measure_report_t r;
	memset(&r, 0, sizeof(r));
	r.elf_path = o->elf_path;
	r.raw = sizes_only ? NULL : &raw;
	char bench_buf[BR_MEASURE_PATH_BYTES], empty_buf[BR_MEASURE_PATH_BYTES];
	br_status_t rst = BR_OK;
	if (sizes_only) {
		rst = br_bench_size_elf(o->elf_path, &r.sizes, &err);
	} else {
		r.sizes = raw.sizes;
	}
	/* Figures only from a measurement that got as far as its samples. */
	bool show = sizes_only || raw.count > 0;
	br_suite_footprint_t *footprint = xcalloc(1, sizeof(*footprint));
	br_measure_sizes_ask_t ask = {
	    .elf_path = o->elf_path,
	    .bench = o->bench,
	    .bench_elf = m.bench_elf,
	    .empty_elf = m.empty_elf,
	    .breakdown = m.sizes,
	};
	if (rst == BR_OK && show)
		rst = br_measure_report_sizes(&r, &ask, bench_buf, empty_buf, footprint, &err);
	if (rst == BR_OK && show)
		rst = br_measure_report_summarize(&r, &err);
	if (rst == BR_OK && show)
		br_measure_report_print(&r, stdout);
	if (rst != BR_OK && st == BR_OK) {
		st = rst;
		failure = err;
	}
	if (st == BR_OK && r.not_measured > 0) {
		char why[BR_MEASURE_WHY_TEXT];
		br_measure_report_why(&r, why, sizeof(why));
		st = br_error_set(&failure, BR_ERR_TARGET, "%s", why);
	}
	/* --json is written whatever happened: a failed measurement says it
	 * failed and why, beside the samples it took (issue 12). */
	if (m.json_path != NULL && (show || st != BR_OK)) {
		r.failure = st != BR_OK ? &failure : NULL;
		br_status_t jst = br_measure_report_save_json(&r, m.json_path, &err);
		if (jst != BR_OK && st == BR_OK) {
			st = jst;
			failure = err;
		}
	}
	free(r.symbols);
	free(footprint);
	br_measure_raw_free(&raw);
	if (m.board != NULL)
		br_board_free(&m.board_file);
	if (st != BR_OK)
		code = br_cli_report(&failure);
	else
		code = 0;
	return br_interrupt_signal() != 0 ? 128 + br_interrupt_signal() : code;
}
