/*
 * `benchrack gdb ELF [--board B] [--from X --to Y | --function F] [-- GDB-ARGS]`:
 * the board as `measure` reaches it — the same server, launched or attached,
 * the image loaded as the board's `load:` says, the board's lock held — then
 * gdb-multiarch started on the ELF, connected, with breakpoints at X and Y
 * or at F's entry (names as written: demangled C++ and Rust too). The server
 * stops when gdb exits; the exit code is gdb's.
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rack/board_lock.h"
#include "cli/cli.h"
#include "cli/option_table.h"
#include "cli/output.h"
#include "run/install_paths.h"
#include "config/board.h"
#include "run/board_target.h"
#include "run/gdb_handoff.h"
#include "run/runner.h"

#define GDB_DEFAULT_PROGRAM "gdb-multiarch"
#define GDB_DEFAULT_BOARD "qemu-netduinoplus2"

static const br_cli_opts_t gdb_options;

static void gdb_usage(FILE *out)
{
	fputs("usage: benchrack gdb ELF [options] [-- GDB-ARGS]\n"
	      "\n"
	      "Starts gdb-multiarch on ELF, connected to the board as `benchrack measure`\n"
	      "reaches it: the same server, launched or attached, the image loaded as the\n"
	      "board's load: says, the core halted at its reset vector, the board locked.\n"
	      "With --from/--to or --function the breakpoints are set before gdb takes\n"
	      "over. The server stops when gdb exits; the exit code is gdb's.\n"
	      "\n"
	      "options:\n",
	      out);
	br_cli_opts_usage(out, &gdb_options, 0);
	fputs("  -- GDB-ARGS          passed to the debugger after benchrack's own\n"
	      "                       (e.g. -batch -ex continue)\n"
	      "\n"
	      "exit codes: gdb's own; 2 usage or input error, 3 the board or server could\n"
	      "            not be reached or the debugger not started\n",
	      out);
}

typedef struct gdb_cli {
	const char *elf;
	const char *board;
	const char *from, *to, *function;
	const char *gdb;
	const char *qemu;
	char **gdb_args;
	int gdb_argc;
} gdb_cli_t;

#define G(field) offsetof(gdb_cli_t, field)

static const br_cli_opt_t gdb_rows[] = {
    {.name = "board",
     .letter = 'b',
     .arg = "B",
     .offset = G(board),
     .help = "the board (a name in configs/boards or a board file; default " GDB_DEFAULT_BOARD ")"},
    {.name = "from",
     .arg = "X",
     .offset = G(from),
     .help = "a breakpoint at X: a function (C++ and Rust names as written), an address "
             "(0x...) or FILE:LINE"},
    {.name = "to", .arg = "Y", .offset = G(to), .help = "a breakpoint at Y (with --from)"},
    {.name = "function", .arg = "F", .offset = G(function), .help = "a breakpoint at F's entry"},
    {.name = "gdb",
     .arg = "PROGRAM",
     .offset = G(gdb),
     .help = "the debugger to start (default: the board's gdb:, else " GDB_DEFAULT_PROGRAM ")"},
    {.name = "qemu",
     .arg = "PROGRAM",
     .offset = G(qemu),
     .help = "the QEMU to launch (default: the board's)"},
    {.name = "help", .letter = 'h', .kind = BR_CLI_OPT_HELP, .help = "this text"},
};

static const br_cli_opts_t gdb_options = {
    .command = "gdb",
    .rows = gdb_rows,
    .count = BR_CLI_OPTS_COUNT(gdb_rows),
    .column = 23,
    .usage = gdb_usage,
};

static int gdb_bad(const char *message)
{
	return br_cli_usage_error("gdb", message);
}

/* -1 when parsed, else the exit code. */
static int gdb_parse(int argc, char **argv, gdb_cli_t *g)
{
	int code = br_cli_opts_parse(&gdb_options, argc, argv, g);
	if (code != -1)
		return code;
	if (optind >= argc)
		return gdb_bad("give the firmware ELF");
	g->elf = argv[optind];
	g->gdb_args = argv + optind + 1;
	g->gdb_argc = argc - optind - 1;
	if ((g->from == NULL) != (g->to == NULL))
		return gdb_bad("--from and --to go together");
	if (g->function != NULL && g->from != NULL)
		return gdb_bad("--function or --from/--to, not both");
	return -1;
}

int br_cli_gdb(int argc, char **argv)
{
	gdb_cli_t g;
	memset(&g, 0, sizeof(g));
	int code = gdb_parse(argc, argv, &g);
	if (code >= 0)
		return code;

	br_error_t err;
	br_error_clear(&err);
	br_location_t breaks[BR_GDB_MAX_BREAKS];
	size_t count = 0;
	const char *names[BR_GDB_MAX_BREAKS] = {g.function != NULL ? g.function : g.from, g.to};
	br_status_t st = br_gdb_breaks_resolve(g.elf, names, breaks, &count, &err);
	if (st != BR_OK)
		return br_cli_report(&err);

	br_board_t board;
	memset(&board, 0, sizeof(board));
	br_endpoint_t ep;
	br_counter_t counter;
	br_board_load_t load;
	st = br_board_reach(g.board != NULL ? g.board : GDB_DEFAULT_BOARD, br_configs_dir(), g.elf,
	                    g.qemu, &board, &ep, &counter, &load, &err);
	if (st != BR_OK) {
		br_board_free(&board);
		return br_cli_report(&err);
	}
	if (g.gdb == NULL && board.file.gdb.set) /* the board's gdb: unless --gdb */
		g.gdb = board.file.gdb.value;
	br_board_lock_t lock;
	st = br_board_lock_take(&ep, stderr, &lock, &err);
	if (st != BR_OK) {
		br_board_free(&board);
		return br_cli_report(&err);
	}
	br_runner_options_t ro = {
	    .endpoint = &ep,
	    .elf_path = g.elf,
	    .load = load,
	    .counter = &counter,
	    .load_progress = br_cli_load_progress, /* on a terminal only */
	};
	br_runner_t runner;
	st = br_runner_open(&ro, &runner, &err);
	br_cli_progress_done(NULL);
	if (st == BR_OK) {
		char target[BR_GDB_TARGET_BYTES];
		br_gdb_target(&runner, target, sizeof(target));
		fprintf(stderr, "benchrack gdb: %s (board %s), image %s", runner.server, board.name,
		        g.elf);
		for (size_t i = 0; i < count; i++)
			fprintf(stderr, "%s %s", i == 0 ? "; breakpoints at" : ",",
			        breaks[i].describe);
		fputc('\n', stderr);
		br_runner_release(&runner);
		br_gdb_launch_t launch = {
		    .program = g.gdb != NULL ? g.gdb : GDB_DEFAULT_PROGRAM,
		    .elf = g.elf,
		    .target = target,
		    .breaks = breaks,
		    .break_count = count,
		    .extra_args = g.gdb_args,
		    .extra_count = g.gdb_argc,
		};
		code = br_gdb_run(&launch, &err);
		if (code == BR_GDB_EXIT_NOT_STARTED && err.status != BR_OK)
			code = br_cli_report(&err);
		br_runner_close(&runner);
	} else {
		code = br_cli_report(&err);
	}
	br_board_lock_give(&lock);
	br_board_free(&board);
	return code;
}
