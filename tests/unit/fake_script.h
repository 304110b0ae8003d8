/*
 * A scripted fake target for unit tests: a replayable RSP conversation read
 * from a small text file, played by a child process on a socketpair (the
 * framing is fake_rsp.h's). One line per step:
 *
 *   # text      a comment (blank lines too)
 *   @attach     the attach: qSupported, QStartNoAckMode and '?' answered
 *               (fake_rsp_attach_answer), any other packet before the '?'
 *               answered "" (not supported)
 *   > payload   the next packet the client must send, exactly
 *   < payload   a reply sent ("<" alone: the empty reply)
 *   <! payload  a reply sent with its checksum wrong (a corrupted frame)
 *   ~ ms        a pause of ms milliseconds before the next step (a delay)
 *   hold        no reply: the fake reads on until the client hangs up
 *               (a missing reply: the client's timeout)
 *   close       the connection closed here (mid-session)
 *
 * Two "<" lines in a row are a reply out of step (one the client did not
 * ask for). After the last line every packet is answered "OK" until the
 * client hangs up (its detach). The child's exit status says whether the
 * client kept to the script: 0 yes, FAKE_SCRIPT_MISMATCH when a packet
 * differed from its "> " line (both written to stderr), FAKE_SCRIPT_BAD for
 * a script that could not be read or has an unknown line.
 */
#ifndef BENCHRACK_TESTS_FAKE_SCRIPT_H
#define BENCHRACK_TESTS_FAKE_SCRIPT_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fake_rsp.h"

#define FAKE_SCRIPT_MISMATCH 65
#define FAKE_SCRIPT_BAD 66

/* Answers an attach: returns 0 at its '?', -1 when the client hung up. */
static inline int fake_script_attach(int fd)
{
	char pkt[512];
	while (fake_rsp_read(fd, pkt, sizeof(pkt)) == 0) {
		int r = fake_rsp_attach_answer(fd, pkt);
		if (r == 2)
			return 0;
		if (r == 0)
			fake_rsp_send(fd, "");
	}
	return -1;
}

/* Plays one line; 1 to go on, 0 when the fake is done, or an exit status. */
static inline int fake_script_step(int fd, const char *line, unsigned lineno)
{
	char pkt[512] = "";
	if (line[0] == '\0' || line[0] == '#')
		return 1;
	if (strcmp(line, "@attach") == 0)
		return fake_script_attach(fd) == 0 ? 1 : FAKE_SCRIPT_MISMATCH;
	if (strncmp(line, "> ", 2) == 0) {
		if (fake_rsp_read(fd, pkt, sizeof(pkt)) != 0 || strcmp(pkt, line + 2) != 0) {
			fprintf(stderr, "script line %u: expected \"%s\", got \"%s\"\n", lineno,
			        line + 2, pkt);
			return FAKE_SCRIPT_MISMATCH;
		}
		return 1;
	}
	if (strncmp(line, "<! ", 3) == 0) {
		fake_rsp_send_skewed(fd, line + 3, 1);
		return 1;
	}
	if (line[0] == '<' && (line[1] == '\0' || line[1] == ' ')) {
		fake_rsp_send(fd, line[1] == ' ' ? line + 2 : "");
		return 1;
	}
	if (strncmp(line, "~ ", 2) == 0) {
		long ms = strtol(line + 2, NULL, 10);
		struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
		return 1;
	}
	if (strcmp(line, "hold") == 0) {
		while (fake_rsp_read(fd, pkt, sizeof(pkt)) == 0)
			;
		return 0;
	}
	if (strcmp(line, "close") == 0) {
		close(fd);
		return 0;
	}
	fprintf(stderr, "script line %u: unknown step \"%s\"\n", lineno, line);
	return FAKE_SCRIPT_BAD;
}

/* The child: plays the script at path on fd, then exits with its verdict. */
static inline void fake_script_play(int fd, const char *path)
{
	FILE *f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "%s: cannot open the script\n", path);
		_exit(FAKE_SCRIPT_BAD);
	}
	char line[512];
	unsigned lineno = 0;
	int r = 1;
	while (r == 1 && fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		r = fake_script_step(fd, line, lineno);
	}
	fclose(f);
	if (r == 1) {
		char pkt[512];
		while (fake_rsp_read(fd, pkt, sizeof(pkt)) == 0)
			fake_rsp_send(fd, "OK");
		r = 0;
	}
	_exit(r);
}

/*
 * Starts a fake playing the script at path; returns the client's end of the
 * socketpair (non-blocking, as a transport wants it) and the child in *pid.
 * Exits 99 when the socketpair or the fork fails.
 */
static inline int fake_script_start(const char *path, pid_t *pid)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		exit(99);
	*pid = fork();
	if (*pid < 0)
		exit(99);
	if (*pid == 0) {
		close(sv[0]);
		fake_script_play(sv[1], path);
	}
	close(sv[1]);
	fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
	return sv[0];
}

/* Waits for the fake started as pid; returns its exit status (-1: killed). */
static inline int fake_script_wait(pid_t pid)
{
	int status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif
