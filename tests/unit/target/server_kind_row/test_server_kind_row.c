/*
 * Adding a kind of server benchrack launches is one table row and its
 * command-line builder (issue 25). This program is built against
 * debug/server_kind_table.h with one kind more, "fakesrv"
 * (server_kind_row_add.py writes it), and that kind's builder,
 * server_fakesrv.c; nothing else of the tree changes. It shows that they are
 * enough:
 *
 * - the kind is one of the board schema's kinds, named in the "expected one
 *   of" of a wrong kind, and its row's keys are the section's keys (a
 *   required one missing, another kind's key refused, each with the row's
 *   words);
 * - a board naming it describes its server from the row (program, key's
 *   flag and value), and its session launches the program with the
 *   builder's command line (the key's value, the board's args last), waits
 *   until it listens (it listens late), attaches with the row's flavour,
 *   reads memory, and on close stops the server (its process is gone);
 * - a missing program is refused with the row's install hint.
 *
 * The launched program is this one: started with --serve-fd it is the
 * fake gdbserver, speaking RSP from tests/unit/fake_rsp.h on the socket it
 * inherits and writing its argv and every packet to the --log file.
 */
#define _XOPEN_SOURCE 700 /* readlink, mkstemp */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "config/board.h"
#include "debug/endpoint.h"
#include "debug/flavour.h"
#include "debug/server_kind.h"
#include "fake_rsp.h"
#include "run/board_target.h"

#define READ_ADDRESS 0x20000000U
#define READ_BYTES 32U
#define LATE_LISTEN_NS 200000000L /* the fake listens this late: readiness is waited for */
#define LOG_BYTES 8192U
#define PATH_BYTES 512U
#define YAML_BYTES 2048U

/* The fake gdbserver: listens on fd late, serves one client, logs to log_path. */
static int serve(int fd, const char *log_path, int argc, char **argv)
{
	FILE *log = fopen(log_path, "w");
	if (log == NULL)
		return 2;
	setvbuf(log, NULL, _IOLBF, 0);
	fputs("argv:", log);
	for (int i = 1; i < argc; i++)
		fprintf(log, " %s", argv[i]);
	fputc('\n', log);
	nanosleep(&(struct timespec){.tv_nsec = LATE_LISTEN_NS}, NULL);
	int client = listen(fd, 1) == 0 ? accept(fd, NULL, NULL) : -1;
	if (client < 0)
		return 3;
	char pkt[512];
	while (fake_rsp_read(client, pkt, sizeof(pkt)) == 0) {
		fprintf(log, "%s\n", pkt);
		unsigned address = 0, len = 0;
		if (fake_rsp_attach_answer(client, pkt) != 0)
			continue;
		if (sscanf(pkt, "m%x,%x", &address, &len) == 2 && len <= 64U) {
			char hex[129] = "";
			for (unsigned i = 0; i < len; i++)
				strcat(hex, "a5");
			fake_rsp_send(client, hex);
		} else {
			fake_rsp_send(client, pkt[0] == 'D' ? "OK" : "");
		}
	}
	return 0;
}

/* A board of kind fakesrv whose server section holds server (YAML lines). */
static br_status_t board_with(const char *server, br_board_t *board, br_error_t *err)
{
	char yaml[YAML_BYTES];
	int n = snprintf(yaml, sizeof(yaml),
	                 "name: fake-board\n"
	                 "core: cortex-m4\n"
	                 "server:\n%s"
	                 "counter:\n  kind: systick\n"
	                 "clock_hz: 16000000\n"
	                 "memory:\n  - {name: flash, kind: flash, origin: 0x08000000, length: 1M}\n"
	                 "  - {name: sram, kind: ram, origin: 0x20000000, length: 128K}\n",
	                 server);
	br_error_clear(err);
	return br_board_parse("fake-board.yaml", (const unsigned char *)yaml, (size_t)n, board, err);
}

/* The board schema takes its kinds and keys from the table. */
static void check_schema(void)
{
	br_server_kind_id_t id;
	const br_server_kind_t *k = br_server_kind_find("fakesrv", &id);
	CHECK_MSG(k != NULL && strcmp(br_server_kind_name(id), "fakesrv") == 0,
	          "the added row is found by name");
	bool named = false;
	for (size_t i = 0; br_server_kind_names[i] != NULL; i++)
		named = named || strcmp(br_server_kind_names[i], "fakesrv") == 0;
	CHECK_MSG(named, "the board schema's kinds hold the added kind");

	br_board_t b;
	br_error_t err;
	CHECK(board_with("  kind: nosuch\n", &b, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "expected one of: ") != NULL &&
	              strstr(err.message, ", fakesrv") != NULL,
	          "a wrong kind's message names the added one: %s", err.message);
	CHECK(board_with("  kind: fakesrv\n", &b, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "server lacks required key 'log'; expected log: a file the "
	                              "server writes every packet it gets to") != NULL,
	          "the row's required key, in the row's words: %s", err.message);
	CHECK(board_with("  kind: fakesrv\n  log: x\n  machine: y\n", &b, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "unknown key 'machine' in server (kind fakesrv); expected one "
	                              "of: kind, program, log, args") != NULL,
	          "the section's keys are the row's: %s", err.message);
}

/* Launches the kind through a board, attaches, reads, closes; checks the log. */
static void launch_through(const char *exe, const char *log_path)
{
	char server[YAML_BYTES];
	snprintf(server, sizeof(server),
	         "  kind: fakesrv\n  program: %s\n  log: %s\n  args: [--extra, one]\n", exe,
	         log_path);
	br_board_t board;
	br_error_t err;
	br_status_t st = board_with(server, &board, &err);
	CHECK_MSG(st == BR_OK, "a board naming the added kind loads: %s", err.message);
	if (st != BR_OK)
		return;
	char want[3 * PATH_BYTES], got[3 * PATH_BYTES];
	snprintf(want, sizeof(want), "%s --log %s", exe, log_path);
	br_board_describe_server(&board, got, sizeof(got));
	CHECK_MSG(strcmp(got, want) == 0, "described from the row: %s", got);
	br_endpoint_t ep;
	st = br_board_endpoint(&board, NULL, &ep, &err);
	CHECK_MSG(st == BR_OK && br_endpoint_flavour(&ep) == br_flavour_generic(),
	          "its endpoint has the row's flavour: %s", err.message);
	static br_session_t s;
	st = br_session_open(&ep, &s, &err);
	CHECK_MSG(st == BR_OK, "launch and attach through the added kind: %s", err.message);
	pid_t pid = s.server.pid;
	if (st == BR_OK) {
		snprintf(want, sizeof(want), "%s --log %s at 127.0.0.1:%u", exe, log_path,
		         (unsigned)s.server.port);
		CHECK_MSG(strcmp(s.description, want) == 0, "the session: %s", s.description);
		unsigned char buf[READ_BYTES];
		st = br_target_mem_read(&s.target, READ_ADDRESS, buf, sizeof(buf), &err);
		CHECK_MSG(st == BR_OK && buf[0] == 0xA5U && buf[READ_BYTES - 1] == 0xA5U,
		          "read: %s", err.message);
	}
	br_session_close(&s, false);
	CHECK_MSG(pid > 0 && kill(pid, 0) != 0 && errno == ESRCH,
	          "the launched server %d is stopped and reaped", (int)pid);

	/* A program not there: the row's install hint. */
	ep.launch.program = "/nonexistent/benchrack-fake-server";
	CHECK(br_session_open(&ep, &s, &err) == BR_ERR_INFRA);
	CHECK_MSG(strstr(err.message, "not found: build tests/unit/target") != NULL, "%s",
	          err.message);
	br_board_free(&board);
}

static void check_log(const char *log_path)
{
	static char log[LOG_BYTES];
	FILE *f = fopen(log_path, "r");
	size_t n = f != NULL ? fread(log, 1, sizeof(log) - 1, f) : 0;
	if (f != NULL)
		fclose(f);
	log[n] = '\0';
	char want[3 * PATH_BYTES];
	snprintf(want, sizeof(want), " --log %s --extra one\n", log_path);
	CHECK_MSG(strncmp(log, "argv: --serve-fd ", 17) == 0 && strstr(log, want) != NULL,
	          "the builder's command line, the board's args last:\n%s", log);
	CHECK_MSG(strstr(log, "\nqSupported") != NULL && strstr(log, "\nm20000000,20\n") != NULL,
	          "attached and read through it:\n%s", log);
}

int main(int argc, char **argv)
{
	if (argc >= 5 && strcmp(argv[1], "--serve-fd") == 0 && strcmp(argv[3], "--log") == 0)
		return serve(atoi(argv[2]), argv[4], argc, argv);
	signal(SIGPIPE, SIG_IGN);
	check_schema();

	char exe[PATH_BYTES];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char log_path[] = "/tmp/benchrack-kind-row-XXXXXX";
	int log_fd = mkstemp(log_path);
	if (len <= 0 || log_fd < 0) {
		fprintf(stderr, "no /proc/self/exe or /tmp here\n");
		return 99;
	}
	exe[len] = '\0';
	close(log_fd);
	launch_through(exe, log_path);
	check_log(log_path);
	unlink(log_path);
	return check_finish();
}
