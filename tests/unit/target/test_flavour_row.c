/*
 * Adding a gdbserver flavour is one row (issue 25). This program is built
 * against debug/flavour_table.h with one row more, "fakesrv"
 * (flavour_row_add.py writes it; nothing else of the tree changes), and
 * shows that the row alone is enough:
 *
 * - the flavour's name is one of the flavours everywhere they are listed
 *   (the names joined for help texts, the board schema's enum);
 * - a board file naming it (server: {kind: serial, flavour: fakesrv}) loads,
 *   and its endpoint reaches the server through it;
 * - attaching reads the row's quirks: its scan command runs before vAttach;1
 *   (a column only the Black Magic Probe's row sets), memory is read in
 *   chunks of its max_read_bytes (16 bytes: two m packets for 32), and reset
 *   is its reset command.
 *
 * The server is a child process on a pty (the serial transport), speaking
 * RSP from tests/unit/fake_rsp.h and writing every packet it got to a pipe.
 */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "check.h"
#include "config/board.h"
#include "debug/endpoint.h"
#include "debug/flavour.h"
#include "fake_rsp.h"
#include "run/board_target.h"

#define READ_ADDRESS 0x20000000U
#define READ_BYTES 32U
#define LOG_BYTES 4096

/* hex of "fake-scan" and "fake-reset": the row's monitor commands. */
#define SCAN_HEX "66616b652d7363616e"
#define RESET_HEX "66616b652d7265736574"

/* Answers every packet; each one goes to log_fd, one a line. */
static void serve(int fd, int log_fd)
{
	char pkt[512];
	while (fake_rsp_read(fd, pkt, sizeof(pkt)) == 0) {
		dprintf(log_fd, "%s\n", pkt);
		unsigned address = 0, len = 0;
		if (strncmp(pkt, "qSupported", 10) == 0) {
			fake_rsp_send(fd, "PacketSize=4000;QStartNoAckMode+");
		} else if (fake_rsp_attach_answer(fd, pkt) != 0) {
			continue;
		} else if (strcmp(pkt, "vAttach;1") == 0) {
			fake_rsp_send(fd, "S05");
		} else if (strncmp(pkt, "qRcmd,", 6) == 0) {
			fake_rsp_send(fd, "OK");
		} else if (sscanf(pkt, "m%x,%x", &address, &len) == 2 && len <= 64U) {
			char hex[129] = "";
			for (unsigned i = 0; i < len; i++)
				strcat(hex, "a5");
			fake_rsp_send(fd, hex);
		} else {
			fake_rsp_send(fd, "");
		}
	}
	close(log_fd);
	_exit(0);
}

/* A pty whose slave side is raw (no echo of what the fake writes before
 * the transport opens it); *slave_fd stays open so the settings last. */
static int pty_open(char *path, size_t cap, int *slave_fd)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
		return -1;
	snprintf(path, cap, "%s", ptsname(master));
	*slave_fd = open(path, O_RDWR | O_NOCTTY);
	struct termios tio;
	if (*slave_fd < 0 || tcgetattr(*slave_fd, &tio) != 0)
		return -1;
	cfmakeraw(&tio);
	tcsetattr(*slave_fd, TCSANOW, &tio);
	return master;
}

static void check_names(void)
{
	const br_flavour_t *f = br_flavour_find("fakesrv");
	CHECK_MSG(f != NULL, "the added row is found by name");
	CHECK(f != NULL && strcmp(f->description, "a server added by one row") == 0);
	CHECK_MSG(strstr(br_flavour_names(), ", fakesrv") != NULL, "listed: %s",
	          br_flavour_names());
	bool in_schema = false;
	for (size_t i = 0; br_flavour_name_list[i] != NULL; i++)
		in_schema = in_schema || strcmp(br_flavour_name_list[i], "fakesrv") == 0;
	CHECK_MSG(in_schema, "the board schema's names hold the added flavour");
}

/* Loads a board naming the flavour, attaches, reads memory, resets. */
static void attach_through(const char *device)
{
	char yaml[512];
	int n = snprintf(yaml, sizeof(yaml),
	                 "name: fake-board\n"
	                 "core: cortex-m4\n"
	                 "server:\n  kind: serial\n  device: %s\n  flavour: fakesrv\n"
	                 "counter:\n  kind: systick\n"
	                 "clock_hz: 16000000\n"
	                 "memory:\n  - {name: flash, kind: flash, origin: 0x08000000, length: 1M}\n"
	                 "  - {name: sram, kind: ram, origin: 0x20000000, length: 128K}\n",
	                 device);
	br_board_t board;
	br_error_t err;
	br_error_clear(&err);
	br_status_t st =
	    br_board_parse("fake-board.yaml", (const unsigned char *)yaml, (size_t)n, &board, &err);
	CHECK_MSG(st == BR_OK, "a board naming the added flavour loads: %s", err.message);
	if (st != BR_OK)
		return;
	CHECK(strcmp(br_board_flavour_name(&board), "fakesrv") == 0);
	br_endpoint_t ep;
	br_endpoint_init(&ep);
	st = br_board_endpoint(&board, NULL, &ep, &err);
	CHECK_MSG(st == BR_OK && br_endpoint_flavour(&ep) == br_flavour_find("fakesrv"),
	          "its endpoint names the row: %s", err.message);
	static br_session_t s;
	st = br_session_open(&ep, &s, &err);
	CHECK_MSG(st == BR_OK, "attach through the added flavour: %s", err.message);
	if (st == BR_OK) {
		unsigned char buf[READ_BYTES];
		st = br_target_mem_read(&s.target, READ_ADDRESS, buf, sizeof(buf), &err);
		CHECK_MSG(st == BR_OK && buf[0] == 0xA5U && buf[READ_BYTES - 1] == 0xA5U,
		          "read: %s", err.message);
		st = br_target_reset(&s.target, &err);
		CHECK_MSG(st == BR_OK, "reset with the row's command: %s", err.message);
	}
	br_session_close(&s, false);
	br_board_free(&board);
}

/* Position of line in log, or -1. */
static long log_find(const char *log, const char *line)
{
	char want[128];
	snprintf(want, sizeof(want), "\n%s\n", line);
	const char *p = strstr(log, want);
	return p == NULL ? -1 : (long)(p - log);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	check_names();

	char device[128];
	int slave = -1, logp[2];
	int master = pty_open(device, sizeof(device), &slave);
	if (master < 0 || pipe(logp) != 0) {
		fprintf(stderr, "no pty here\n");
		return 99;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(logp[0]);
		close(slave);
		serve(master, logp[1]);
	}
	close(logp[1]);
	attach_through(device);
	close(slave);
	close(master);
	kill(pid, SIGTERM);
	static char log[LOG_BYTES];
	log[0] = '\n';
	size_t got = 1;
	ssize_t r;
	while (got + 1 < sizeof(log) && (r = read(logp[0], log + got, sizeof(log) - 1 - got)) > 0)
		got += (size_t)r;
	log[got] = '\0';
	waitpid(pid, NULL, 0);

	long scan = log_find(log, "qRcmd," SCAN_HEX), attach = log_find(log, "vAttach;1");
	CHECK_MSG(scan >= 0 && attach > scan, "the row's scan command, then vAttach;1:%s", log);
	CHECK_MSG(log_find(log, "m20000000,10") >= 0 && log_find(log, "m20000010,10") >= 0 &&
	              log_find(log, "m20000000,20") < 0,
	          "32 bytes read as two of the row's 16:%s", log);
	CHECK_MSG(log_find(log, "qRcmd," RESET_HEX) >= 0, "reset is the row's command:%s", log);
	return check_finish();
}
