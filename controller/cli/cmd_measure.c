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
#include "cli/output.h"
#include "cli/option_number.h"
#include "cli/output.h"
#include "run/measure_report.h"
#include "run/install_paths.h"
#include "config/board.h"
#include "common/counter_kind.h"
#include "common/interrupt.h"
#include "common/server_names.h"
#include "common/xalloc.h"
#include "measure/bench_size.h"
#include "measure/counter_spec.h"
#include "measure/measure_run.h"
#include "run/board_target.h"
#include "run/run_measure.h"

#define MEASURE_MAX_COUNT 100000000ULL
#define MEASURE_MAX_TIMEOUT_S 86400ULL
#define MEASURE_MS_PER_S 1000

static void measure_usage(FILE *out)
{
	fprintf(out,
	        "usage: benchrack measure ELF WHAT [options]\n"
	        "\n"
	        "Measures any firmware through the debug port, on QEMU's netduinoplus2 unless\n"
	        "--board names a board file or --remote a running gdbserver. WHAT is one of:\n"
	        "  --from X --to Y      each pass from X to Y, each a function, an address\n"
	        "                       (0x...) or FILE:LINE; X equal to Y: one pass of a loop\n"
	        "  --function NAME      each call of NAME, from its entry to its return\n"
	        "  --bench NAME         a bench of a firmware built with benchrack's stub, in\n"
	        "                       batch mode; with --from/--to or --function, the stub\n"
	        "                       runs NAME while the breakpoints measure inside it\n"
	        "  (none, with --sizes) sizes only: nothing runs\n"
	        "\n"
	        "options:\n"
	        "  -n, --iterations N   measured samples (default 100; batch mode: 1..1024); a\n"
	        "                       region reached fewer times: without -n its samples are\n"
	        "                       the result, with -n they are kept and it is exit 3\n"
	        "  -w, --warmup N       samples taken first and discarded (default: 2 in batch\n"
	        "                       mode, 0 at breakpoints)\n"
	        "      --arg N          the bench's argument (e.g. recursion's depth)\n"
	        "      --counter SPEC   one of %s (default: QEMU's instruction\n"
	        "                       count; %s: mmio:ADDRESS[:WIDTH[:down]])\n"
	        "      --clock-hz HZ    the counter's clock: times, and the wrap check\n"
	        "      --core CORE      m0, m0+, m3, m4 (default), m7, m33 (the DWT's lock)\n"
	        "      --stack          paint the stack region the ELF's linker symbols define\n"
	        "                       and report how deep each sample went (breakpoints)\n"
	        "      --stack-region LOW:SIZE  paint this region instead (implies --stack)\n"
	        "      --breakpoints K  auto (by memory region, the default), hardware, software\n"
	        "      --sizes          break the code down by function (against the empty\n"
	        "                       bench's image when there is one); for a stub image,\n"
	        "                       the flash and RAM of the stub and of each bench on top\n"
	        "      --bench-elf FILE, --empty-elf FILE\n"
	        "                       the images a bench's size is the difference of (found\n"
	        "                       next to a suite-O<L>.elf as bench-<NAME>-O<L>.elf and\n"
	        "                       bench-empty-O<L>.elf when not given)\n"
	        "      --json FILE      also write the result as JSON\n"
	        "      --qemu PROGRAM   the QEMU to launch (default qemu-system-arm)\n"
	        "      --machine NAME   its machine (default netduinoplus2)\n"
	        "  -b, --board B        the board (a name in configs/boards or a board file):\n"
	        "                       its server, counter and memory; the ELF is loaded over\n"
	        "                       the debug port as its load: key says\n"
	        "      --remote HOST:PORT  a running gdbserver (the ELF loaded there when it\n"
	        "                       differs, see --load)\n"
	        "      --flavour NAME   that server's kind: one of %s\n"
	        "                       (default %s)\n"
	        "      --load POLICY    always, if-different (default for a board benchrack did\n"
	        "                       not launch) or never\n"
	        "      --timeout SEC    the longest wait for one breakpoint (default 10)\n"
	        "  -h, --help           this text\n"
	        "\n"
	        "exit codes: 0 every sample measured, 2 usage or input error, 3 target, server\n"
	        "            or counter error (a breakpoint that never hit, a counter that does\n"
	        "            not count, a sample whose host time could hide a counter wrap)\n",
	        br_counter_kind_list(), br_counter_kind_names[BR_COUNTER_KIND_MMIO],
	        br_flavour_name_joined(), BR_FLAVOUR_GENERIC_NAME);
}

/* A usage error about the command line as a whole. */
static int measure_bad(const char *message)
{
	fprintf(stderr, "benchrack measure: %s; try 'benchrack measure --help'\n", message);
	return 2;
}

static void show_output(void *ctx, int fd, const char *text, size_t len)
{
	(void)ctx;
	(void)fd;
	fprintf(stderr, "firmware: %.*s", (int)len, text);
}

/* Everything the command line says beyond the measurement's own options. */
typedef struct measure_cli {
	br_measure_options_t opts;
	br_counter_t counter;
	const char *counter_spec;
	const char *core;
	unsigned long long clock_hz;
	br_stack_region_t stack_region;
	bool sizes;
	const char *bench_elf;
	const char *empty_elf;
	const char *json_path;
	const char *board;           /* --board, or NULL */
	const char *load;            /* --load, or NULL */
	br_board_load_t load_policy; /* --load's (DEFAULT: not given) */
	br_board_t board_file;       /* loaded from --board: the counter's texts point into it */
} measure_cli_t;

/* Parses argv into m; returns -1 to go on, or an exit code. */
static int measure_parse(int argc, char **argv, measure_cli_t *m)
{
	enum {
		OPT_FROM = 256,
		OPT_TO,
		OPT_FUNCTION,
		OPT_BENCH,
		OPT_ARG,
		OPT_COUNTER,
		OPT_CLOCK,
		OPT_CORE,
		OPT_STACK,
		OPT_STACK_REGION,
		OPT_BREAKPOINTS,
		OPT_SIZES,
		OPT_BENCH_ELF,
		OPT_EMPTY_ELF,
		OPT_JSON,
		OPT_QEMU,
		OPT_MACHINE,
		OPT_REMOTE,
		OPT_FLAVOUR,
		OPT_TIMEOUT,
		OPT_LOAD,
	};
	static const struct option longopts[] = {
	    {"from", required_argument, NULL, OPT_FROM},
	    {"to", required_argument, NULL, OPT_TO},
	    {"function", required_argument, NULL, OPT_FUNCTION},
	    {"bench", required_argument, NULL, OPT_BENCH},
	    {"arg", required_argument, NULL, OPT_ARG},
	    {"iterations", required_argument, NULL, 'n'},
	    {"warmup", required_argument, NULL, 'w'},
	    {"counter", required_argument, NULL, OPT_COUNTER},
	    {"clock-hz", required_argument, NULL, OPT_CLOCK},
	    {"core", required_argument, NULL, OPT_CORE},
	    {"stack", no_argument, NULL, OPT_STACK},
	    {"stack-region", required_argument, NULL, OPT_STACK_REGION},
	    {"breakpoints", required_argument, NULL, OPT_BREAKPOINTS},
	    {"sizes", no_argument, NULL, OPT_SIZES},
	    {"bench-elf", required_argument, NULL, OPT_BENCH_ELF},
	    {"empty-elf", required_argument, NULL, OPT_EMPTY_ELF},
	    {"json", required_argument, NULL, OPT_JSON},
	    {"qemu", required_argument, NULL, OPT_QEMU},
	    {"machine", required_argument, NULL, OPT_MACHINE},
	    {"remote", required_argument, NULL, OPT_REMOTE},
	    {"flavour", required_argument, NULL, OPT_FLAVOUR},
	    {"timeout", required_argument, NULL, OPT_TIMEOUT},
	    {"board", required_argument, NULL, 'b'},
	    {"load", required_argument, NULL, OPT_LOAD},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	br_measure_options_t *o = &m->opts;
	unsigned long long v = 0;
	br_error_t err;
	int c;
	bool warmup_given = false;
	o->fewer_ok = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:w:b:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FROM:
			o->from = optarg;
			break;
		case OPT_TO:
			o->to = optarg;
			break;
		case OPT_FUNCTION:
			o->function = optarg;
			break;
		case OPT_BENCH:
			o->bench = optarg;
			break;
		case OPT_ARG:
			if (br_cli_option_whole("measure", "--arg", optarg, 0, UINT32_MAX, &v) != 0)
				return 2;
			o->bench_argument = (uint32_t)v;
			break;
		case 'n':
			if (br_cli_option_whole("measure", "--iterations", optarg, 1,
			                        MEASURE_MAX_COUNT, &v) != 0)
				return 2;
			o->iterations = (uint32_t)v;
			o->fewer_ok = false;
			break;
		case 'w':
			if (br_cli_option_whole("measure", "--warmup", optarg, 0, MEASURE_MAX_COUNT,
			                        &v) != 0)
				return 2;
			o->warmup = (uint32_t)v;
			warmup_given = true;
			break;
		case OPT_COUNTER:
			m->counter_spec = optarg;
			break;
		case OPT_CLOCK:
			if (br_cli_option_whole("measure", "--clock-hz", optarg, 1, UINT64_MAX,
			                        &m->clock_hz) != 0)
				return 2;
			break;
		case OPT_CORE:
			m->core = optarg;
			break;
		case OPT_STACK:
			o->stack = true;
			break;
		case OPT_STACK_REGION:
			br_error_clear(&err);
			if (br_stack_region_parse(optarg, &m->stack_region, &err) != BR_OK)
				return br_cli_report(&err);
			o->stack = true;
			o->stack_region = &m->stack_region;
			break;
		case OPT_BREAKPOINTS:
			if (strcmp(optarg, "auto") == 0)
				o->breakpoint_kind = BR_BREAKPOINT_AUTO;
			else if (strcmp(optarg, "hardware") == 0)
				o->breakpoint_kind = BR_BREAKPOINT_HARDWARE;
			else if (strcmp(optarg, "software") == 0)
				o->breakpoint_kind = BR_BREAKPOINT_SOFTWARE;
			else
				return measure_bad(
				    "--breakpoints takes auto, hardware or software");
			break;
		case OPT_SIZES:
			m->sizes = true;
			break;
		case OPT_BENCH_ELF:
			m->bench_elf = optarg;
			break;
		case OPT_EMPTY_ELF:
			m->empty_elf = optarg;
			break;
		case OPT_JSON:
			m->json_path = optarg;
			break;
		case OPT_QEMU:
			o->link.qemu_program = optarg;
			break;
		case OPT_MACHINE:
			o->link.machine = optarg;
			break;
		case OPT_REMOTE:
			o->link.remote = optarg;
			break;
		case OPT_FLAVOUR:
			o->link.flavour = optarg;
			break;
		case OPT_TIMEOUT:
			if (br_cli_option_whole("measure", "--timeout", optarg, 1,
			                        MEASURE_MAX_TIMEOUT_S, &v) != 0)
				return 2;
			o->timeout_ms = (int)v * MEASURE_MS_PER_S;
			break;
		case 'b':
			m->board = optarg;
			break;
		case OPT_LOAD:
			m->load = optarg;
			break;
		case 'h':
			measure_usage(stdout);
			return 0;
		default:
			measure_usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 1)
		return measure_bad("give exactly one firmware ELF");
	if (m->board != NULL && (o->link.remote != NULL || o->link.machine != NULL))
		return measure_bad(
		    "--board says where the board is: leave out --remote and --machine");
	if (m->load != NULL && !br_board_load_parse(m->load, &m->load_policy))
		return measure_bad("--load takes always, if-different or never");
	o->elf_path = argv[optind];
	/* A region that runs once (most firmware's main) is measured as it is. */
	if (!warmup_given && (o->from != NULL || o->function != NULL))
		o->warmup = 0;
	if (m->counter_spec != NULL || m->clock_hz != 0) {
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
	m.opts.link.output = show_output;
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
