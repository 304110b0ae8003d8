/*
 * `benchrack gdb ELF [--board B] [--from X --to Y | --function F] [-- GDB-ARGS]`:
 * the board as `measure` reaches it — the same server, launched or attached,
 * the image loaded as the board's `load:` says, the board's lock held — then
 * gdb-multiarch started on the ELF, connected, with breakpoints at X and Y
 * or at F's entry (names as written: demangled C++ and Rust too). The server
 * stops when gdb exits; the exit code is gdb's.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/board_lock.h"
#include "cli/cli.h"
#include "cli/paths.h"
#include "common/xalloc.h"
#include "config/board.h"
#include "elf/elf_file.h"
#include "measure/location.h"
#include "run/board_target.h"
#include "run/runner.h"

#define GDB_DEFAULT_PROGRAM "gdb-multiarch"
#define GDB_DEFAULT_BOARD "qemu-netduinoplus2"
#define GDB_TARGET_BYTES 320U
#define GDB_MAX_BREAKS 2U
#define GDB_EXIT_NOT_STARTED 127

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
	      "options:\n"
	      "  -b, --board B        the board (a name in configs/boards or a board file;\n"
	      "                       default qemu-netduinoplus2)\n"
	      "      --from X         a breakpoint at X: a function (C++ and Rust names as\n"
	      "                       written), an address (0x...) or FILE:LINE\n"
	      "      --to Y           a breakpoint at Y (with --from)\n"
	      "      --function F     a breakpoint at F's entry\n"
	      "      --gdb PROGRAM    the debugger to start (default: the board's gdb:, else\n"
	      "                       gdb-multiarch)\n"
	      "      --qemu PROGRAM   the QEMU to launch (default: the board's)\n"
	      "  -h, --help           this text\n"
	      "  -- GDB-ARGS          passed to the debugger after benchrack's own\n"
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

enum { OPT_FROM = 256, OPT_TO, OPT_FUNCTION, OPT_GDB, OPT_QEMU };

static int gdb_bad(const char *message)
{
	fprintf(stderr, "benchrack gdb: %s; try 'benchrack gdb --help'\n", message);
	return 2;
}

/* -1 when parsed, else the exit code. */
static int gdb_parse(int argc, char **argv, gdb_cli_t *g)
{
	static const struct option longopts[] = {
	    {"board", required_argument, NULL, 'b'},   {"from", required_argument, NULL, OPT_FROM},
	    {"to", required_argument, NULL, OPT_TO},   {"function", required_argument, NULL, OPT_FUNCTION},
	    {"gdb", required_argument, NULL, OPT_GDB}, {"qemu", required_argument, NULL, OPT_QEMU},
	    {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "b:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': g->board = optarg; break;
		case OPT_FROM: g->from = optarg; break;
		case OPT_TO: g->to = optarg; break;
		case OPT_FUNCTION: g->function = optarg; break;
		case OPT_GDB: g->gdb = optarg; break;
		case OPT_QEMU: g->qemu = optarg; break;
		case 'h': gdb_usage(stdout); return 0;
		default: return gdb_bad("unknown option");
		}
	}
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

/* The breakpoint addresses the options name, resolved in the ELF as
 * `measure` resolves them. */
static br_status_t gdb_breaks(const gdb_cli_t *g, br_location_t *breaks, size_t *count,
			      br_error_t *err)
{
	*count = 0;
	const char *names[GDB_MAX_BREAKS] = {g->function != NULL ? g->function : g->from, g->to};
	if (names[0] == NULL)
		return BR_OK;
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(g->elf, &elf, err);
	for (size_t i = 0; st == BR_OK && i < GDB_MAX_BREAKS; i++) {
		if (names[i] == NULL)
			continue;
		st = br_location_resolve(elf, names[i], &breaks[*count], err);
		if (st == BR_OK)
			(*count)++;
	}
	br_elf_close(elf);
	return st;
}

/* Where gdb connects: the launched server on loopback, else the board's own
 * host:port or serial device. */
static void gdb_target(const br_runner_t *r, const br_endpoint_t *ep, char *buf, size_t cap)
{
	if (r->session.server.pid != 0)
		snprintf(buf, cap, "127.0.0.1:%u", (unsigned)r->session.server.port);
	else if (ep->kind == BR_ENDPOINT_SERIAL)
		snprintf(buf, cap, "%s", ep->device);
	else
		snprintf(buf, cap, "%s:%u", ep->host, (unsigned)ep->port);
}

/* Runs the debugger to its end; returns its exit code, or GDB_EXIT_NOT_STARTED
 * with err set when it could not be started. */
static int gdb_spawn(const gdb_cli_t *g, const char *target, const br_location_t *breaks,
		     size_t count, br_error_t *err)
{
	size_t max = 8U + 2U * count + (size_t)g->gdb_argc;
	char **argv = xcalloc(max, sizeof(char *));
	char target_cmd[GDB_TARGET_BYTES + 16U];
	char break_cmd[GDB_MAX_BREAKS][48];
	size_t n = 0;
	snprintf(target_cmd, sizeof(target_cmd), "target remote %s", target);
	argv[n++] = (char *)(g->gdb != NULL ? g->gdb : GDB_DEFAULT_PROGRAM);
	argv[n++] = (char *)"-q";
	argv[n++] = (char *)g->elf;
	argv[n++] = (char *)"-ex";
	argv[n++] = target_cmd;
	for (size_t i = 0; i < count; i++) {
		snprintf(break_cmd[i], sizeof(break_cmd[i]), "break *0x%08" PRIx32, breaks[i].address);
		argv[n++] = (char *)"-ex";
		argv[n++] = break_cmd[i];
	}
	for (int i = 0; i < g->gdb_argc; i++)
		argv[n++] = g->gdb_args[i];
	argv[n] = NULL;

	/* gdb owns the terminal meanwhile: its ^C interrupts the target, not us. */
	struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGINT, &ignore, &old_int);
	sigaction(SIGQUIT, &ignore, &old_quit);
	int code = GDB_EXIT_NOT_STARTED;
	int ready[2];
	if (pipe(ready) != 0) {
		br_error_set(err, BR_ERR_INFRA, "pipe: %s", strerror(errno));
		goto out;
	}
	pid_t pid = fork();
	if (pid < 0) {
		br_error_set(err, BR_ERR_INFRA, "fork: %s", strerror(errno));
		close(ready[0]);
		close(ready[1]);
		goto out;
	}
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		close(ready[0]);
		/* The write end closes on a successful exec: the parent reads
		 * nothing; a failed exec sends its errno. */
		fcntl(ready[1], F_SETFD, FD_CLOEXEC);
		execvp(argv[0], argv);
		int e = errno;
		(void)!write(ready[1], &e, sizeof(e));
		_exit(GDB_EXIT_NOT_STARTED);
	}
	close(ready[1]);
	int exec_errno = 0;
	ssize_t got = read(ready[0], &exec_errno, sizeof(exec_errno));
	close(ready[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	if (got == (ssize_t)sizeof(exec_errno)) {
		br_error_set(err, BR_ERR_INFRA,
			     "cannot start %s (%s): install gdb-multiarch (apt-get install "
			     "gdb-multiarch) or name the debugger with --gdb",
			     argv[0], strerror(exec_errno));
		goto out;
	}
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	free(argv);
	return code;
}

/* The board as `measure` opens it: located, loaded, its endpoint for elf;
 * its gdb: program unless --gdb named one. */
static br_status_t gdb_board(gdb_cli_t *g, br_board_t *board, br_endpoint_t *ep,
			     br_error_t *err)
{
	br_status_t st = br_board_open(g->board != NULL ? g->board : GDB_DEFAULT_BOARD,
				       br_cli_configs_dir(), g->elf, board, ep, err);
	if (st == BR_OK && g->qemu != NULL)
		ep->qemu.program = g->qemu;
	if (st == BR_OK && g->gdb == NULL && board->file.gdb.set)
		g->gdb = board->file.gdb.value;
	return st;
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
	br_location_t breaks[GDB_MAX_BREAKS];
	size_t count = 0;
	br_status_t st = gdb_breaks(&g, breaks, &count, &err);
	if (st != BR_OK)
		return br_cli_report(&err);

	br_board_t board;
	memset(&board, 0, sizeof(board));
	br_endpoint_t ep;
	st = gdb_board(&g, &board, &ep, &err);
	if (st != BR_OK) {
		br_board_free(&board);
		return br_cli_report(&err);
	}
	br_counter_t counter;
	br_board_counter(&board, &counter);
	br_board_lock_t lock;
	st = br_board_lock_take(&ep, &lock, &err);
	if (st != BR_OK) {
		br_board_free(&board);
		return br_cli_report(&err);
	}
	br_runner_options_t ro = {
	    .endpoint = &ep, .elf_path = g.elf, .load = board.load, .counter = &counter,
	};
	br_runner_t runner;
	st = br_runner_open(&ro, &runner, &err);
	if (st == BR_OK) {
		char target[GDB_TARGET_BYTES];
		gdb_target(&runner, &runner.endpoint, target, sizeof(target));
		fprintf(stderr, "benchrack gdb: %s (board %s), image %s", runner.server, board.name,
			g.elf);
		for (size_t i = 0; i < count; i++)
			fprintf(stderr, "%s %s", i == 0 ? "; breakpoints at" : ",", breaks[i].describe);
		fputc('\n', stderr);
		br_runner_release(&runner);
		code = gdb_spawn(&g, target, breaks, count, &err);
		if (code == GDB_EXIT_NOT_STARTED && err.status != BR_OK)
			code = br_cli_report(&err);
		br_runner_close(&runner);
	} else {
		code = br_cli_report(&err);
	}
	br_board_lock_give(&lock);
	br_board_free(&board);
	return code;
}
