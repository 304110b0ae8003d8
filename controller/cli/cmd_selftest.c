/*
 * `benchrack selftest`: prove a board's counter before measuring there
 * (run/selftest.h does it; this parses, prints and picks the exit code).
 */
#include <getopt.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/option_table.h"
#include "common/counter_kind.h"
#include "config/board.h"
#include "debug/endpoint.h"
#include "measure/counter_spec.h"
#include "rack/board_lock.h"
#include "run/board_target.h"
#include "run/install_paths.h"
#include "run/selftest.h"

#define SELFTEST_DEFAULT_BOARD "qemu-netduinoplus2"
#define SELFTEST_TIMEOUT_S 10

typedef struct selftest_options {
	const char *board;
	const char *qemu;
	int timeout_s;
	uint32_t loops;
	const char *counter; /* --counter: instead of the board file's */
	uint64_t clock_hz;
} selftest_options_t;

/* The core names counter_spec.h takes, in br_board_core_t's order. */
static const char *const spec_cores[] = {"m0", "m0+", "m3", "m4", "m7", "m33", "m55", "m85"};

static const br_cli_opts_t selftest_options;

static void selftest_usage(FILE *out)
{
	fputs("usage: benchrack selftest [--board B] [options]\n"
	      "\n"
	      "Proves the board's counter before anything is measured there. Writes a\n"
	      "calibration image of benchrack's own into the board's RAM (no firmware, no\n"
	      "flash write): 1 nop, 1000 nops and a two-instruction loop, each run between\n"
	      "two breakpoints with the counter read at both halts. Prints one verdict per\n"
	      "check with its evidence: counts, still when halted, rises, no wrap, per\n"
	      "instruction (exact on QEMU; cycles >= instructions, within a bound, on a real\n"
	      "core's DWT), resume cost, rate vs host (a real board with clock_hz).\n"
	      "The board's RAM is overwritten and the core is left in the image: reset the\n"
	      "board afterwards.\n"
	      "\n"
	      "options:\n",
	      out);
	br_cli_opts_usage(out, &selftest_options, 0);
	fputs("\n"
	      "exit codes: 0 every check passed (or does not apply), 1 a check failed,\n"
	      "            2 usage or board file error, 3 infrastructure error\n",
	      out);
}

#define S(field) offsetof(selftest_options_t, field)

static const br_cli_opt_t selftest_rows[] = {
    {.name = "board",
     .letter = 'B',
     .arg = "B",
     .offset = S(board),
     .help =
         "a board file (a name in configs/boards or a path; default " SELFTEST_DEFAULT_BOARD ")"},
    {.name = "counter",
     .arg = "SPEC",
     .offset = S(counter),
     .choices = br_counter_kind_list,
     .help = "prove this counter instead of the board file's; an mmio counter is "
             "mmio:ADDRESS[:WIDTH[:down]]"},
    {.name = "clock-hz",
     .arg = "HZ",
     .kind = BR_CLI_OPT_U64,
     .offset = S(clock_hz),
     .min = 1,
     .max = 10000000000ULL,
     .help = "its clock (default: the board file's clock_hz)"},
    {.name = "qemu",
     .arg = "PROG",
     .offset = S(qemu),
     .help = "the qemu-system-arm to launch (QEMU boards)"},
    {.name = "timeout",
     .arg = "SEC",
     .kind = BR_CLI_OPT_INT,
     .offset = S(timeout_s),
     .min = 1,
     .max = 3600,
     .help = "the longest one window may take (default 10)"},
    {.name = "loops",
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = S(loops),
     .min = 2000,
     .max = 0x7FFFFFFFULL,
     .help = "the long loop window's iterations (default: 2,000,000 on QEMU, 20,000,000 on "
             "a QEMU clock; on a board, a quarter second at clock_hz or a quarter of the "
             "counter's period)"},
    {.name = "help", .letter = 'h', .kind = BR_CLI_OPT_HELP, .help = "this text"},
};

static const br_cli_opts_t selftest_options = {
    .command = "selftest",
    .rows = selftest_rows,
    .count = BR_CLI_OPTS_COUNT(selftest_rows),
    .column = 22,
    .usage = selftest_usage,
};

/* -1 when parsed, else the exit code (0 after --help). */
static int selftest_parse(int argc, char **argv, selftest_options_t *o)
{
	int code = br_cli_opts_parse(&selftest_options, argc, argv, o);
	if (code != -1)
		return code;
	if (optind < argc) {
		fprintf(stderr,
		        "benchrack selftest: unexpected argument '%s'; try 'benchrack selftest "
		        "--help'\n",
		        argv[optind]);
		return 2;
	}
	return -1;
}

static const char *verdict_word(br_selftest_verdict_t v)
{
	switch (v) {
	case BR_SELFTEST_PASS:
		return "pass";
	case BR_SELFTEST_FAIL:
		return "FAIL";
	case BR_SELFTEST_NOT_APPLICABLE:
		break;
	}
	return "n/a";
}

static void print_report(const br_board_t *board, const br_session_t *s,
                         const br_selftest_figures_t *f, const br_selftest_report_t *r)
{
	const br_counter_t *c = &f->counter.counter;
	printf("selftest on %s: counter %s, unit %s, %s\n", board->name, c->name, c->unit,
	       s->description);
	printf("calibration image: %zu bytes at 0x%08x (RAM): nops at 0x%08x, loop at 0x%08x, "
	       "halt at 0x%08x%s\n",
	       f->layout.size, f->layout.base, f->layout.nops, f->layout.loop, f->layout.end,
	       f->layout.enables != 0U ? "; it starts the counter from the core" : "");
	printf("windows:\n");
	for (size_t i = 0; i < f->nwindows; i++) {
		const br_selftest_window_t *w = &f->windows[i];
		printf("  %-11s %12" PRIu64 " instructions %12" PRIu64 " ticks %10.3f ms\n",
		       w->name, w->instructions, w->ticks, (double)w->wall_ns / 1e6);
	}
	for (size_t i = 0; i < r->count; i++)
		printf("%-18s %-5s %s\n", r->checks[i].name, verdict_word(r->checks[i].verdict),
		       r->checks[i].evidence);
	if (r->failed == 0)
		printf("selftest: pass\n");
	else
		printf("selftest: FAIL (%zu of %zu checks)\n", r->failed, r->count);
}

/* The board's first RAM region, where the image goes. */
static const br_region_t *first_ram(const br_endpoint_t *ep)
{
	for (size_t i = 0; i < ep->memory_map.count; i++)
		if (ep->memory_map.regions[i].kind == BR_REGION_RAM)
			return &ep->memory_map.regions[i];
	return NULL;
}

static int selftest_on(const br_board_t *board, br_endpoint_t *ep, const br_counter_t *counter,
                       const selftest_options_t *o)
{
	br_error_t err;
	br_error_clear(&err);
	const br_region_t *ram = first_ram(ep);
	if (ram == NULL) {
		fprintf(stderr,
		        "benchrack selftest: board %s names no RAM region (memory: a region "
		        "of kind ram) to run the calibration image in\n",
		        board->name);
		return 2;
	}
	if (br_counter_is_monitor(counter))
		ep->launch.record = true;
	br_board_lock_t lock;
	br_status_t st = br_board_lock_take(ep, stderr, &lock, &err);
	if (st != BR_OK)
		return br_cli_report(&err);
	static br_session_t s;
	st = br_session_open(ep, &s, &err);
	if (st != BR_OK) {
		br_board_lock_give(&lock);
		return br_cli_report(&err);
	}
	br_selftest_setup_t setup = {
	    .ram_origin = ram->start,
	    .ram_length = ram->length,
	    .emulated = br_board_server_kind(board)->emulated,
	    .dual_issue = board->core == BR_BOARD_CORE_M7 || board->core == BR_BOARD_CORE_M85,
	    .timeout_ms = o->timeout_s * 1000,
	    .long_loops = o->loops,
	};
	static br_selftest_figures_t f;
	st = br_selftest_run(&s.target, counter, &setup, &f, &err);
	if (st != BR_OK)
		br_session_explain(&s, &err);
	br_session_close(&s, false);
	br_board_lock_give(&lock);
	if (st != BR_OK)
		return br_cli_report(&err);
	br_selftest_report_t r;
	br_selftest_judge(&f, &r);
	print_report(board, &s, &f, &r);
	return r.failed == 0 ? 0 : 1;
}

int br_cli_selftest(int argc, char **argv)
{
	selftest_options_t o = {.board = SELFTEST_DEFAULT_BOARD, .timeout_s = SELFTEST_TIMEOUT_S};
	int rc = selftest_parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	br_error_t err;
	br_error_clear(&err);
	static br_board_t board;
	br_endpoint_t ep;
	br_counter_t counter;
	br_status_t st = br_board_reach(o.board, br_configs_dir(), NULL, o.qemu, &board, &ep,
	                                &counter, NULL, &err);
	if (st != BR_OK) {
		br_board_free(&board);
		return br_cli_report(&err);
	}
	ep.timeout_ms = o.timeout_s * 1000;
	if (o.counter != NULL) {
		uint64_t clock = o.clock_hz != 0 ? o.clock_hz : board.clock_hz;
		if (br_counter_spec_parse(o.counter, clock, spec_cores[board.core], &counter,
		                          &err) != BR_OK) {
			br_board_free(&board);
			return br_cli_report(&err);
		}
		br_board_counter_label(&board, &counter);
	}
	rc = selftest_on(&board, &ep, &counter, &o);
	br_board_free(&board);
	return rc;
}
