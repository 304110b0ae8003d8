/*
 * A fake gdb server's side of RSP for unit tests: a child process on a
 * socketpair reads packets and answers them (no acknowledgements: the client
 * is offered QStartNoAckMode). One place for the framing every fake uses.
 */
#ifndef BENCHRACK_TESTS_FAKE_RSP_H
#define BENCHRACK_TESTS_FAKE_RSP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

/* The exit status of a fake that could not write. */
#define FAKE_RSP_BROKEN 64

/* Reads one packet's payload into buf (NUL-terminated); -1 at the end. */
static inline int fake_rsp_read(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	char b;
	do {
		if (read(fd, &b, 1) != 1)
			return -1;
	} while (b != '$');
	while (read(fd, &b, 1) == 1 && b != '#')
		if (n + 1 < cap)
			buf[n++] = b;
	buf[n] = '\0';
	char sum[2];
	return read(fd, sum, 2) == 2 ? 0 : -1;
}

/* Writes into frame (cap bytes) the frame of payload's len bytes, its
 * checksum plus skew (0: the right checksum; any other: a corrupted frame);
 * returns the frame's length, 0 when it does not fit. */
static inline size_t fake_rsp_frame(char *frame, size_t cap, const char *payload, size_t len,
                                    unsigned skew)
{
	unsigned sum = skew;
	if (len + 4 > cap)
		return 0;
	frame[0] = '$';
	for (size_t i = 0; i < len; i++) {
		frame[1 + i] = payload[i];
		sum += (unsigned char)payload[i];
	}
	static const char hex[] = "0123456789abcdef";
	frame[1 + len] = '#';
	frame[2 + len] = hex[(sum >> 4) & 0xFU];
	frame[3 + len] = hex[sum & 0xFU];
	return len + 4;
}

/* Sends payload framed with its checksum plus skew (fake_rsp_frame). */
static inline void fake_rsp_send_skewed(int fd, const char *payload, unsigned skew)
{
	char frame[128];
	size_t n = fake_rsp_frame(frame, sizeof(frame), payload, strlen(payload), skew);
	if (n == 0 || write(fd, frame, n) != (ssize_t)n)
		_exit(FAKE_RSP_BROKEN);
}

/* Sends payload framed with its checksum. */
static inline void fake_rsp_send(int fd, const char *payload)
{
	fake_rsp_send_skewed(fd, payload, 0);
}

/* Sends a 32-bit word as a memory read's reply (little-endian hex). */
static inline void fake_rsp_send_word(int fd, uint32_t v)
{
	char hex[9];
	snprintf(hex, sizeof(hex), "%02x%02x%02x%02x", v & 0xFFU, (v >> 8) & 0xFFU,
	         (v >> 16) & 0xFFU, v >> 24);
	fake_rsp_send(fd, hex);
}

/* The two ends of a forked fake (fake_rsp_fork). */
typedef struct fake_rsp_fork {
	pid_t pid;     /* 0 in the child, the child's pid in the parent */
	int fd;        /* the child's: the server's end; the parent's: the client's, non-blocking */
	int report_fd; /* the report pipe: its write end in the child, read end in the parent */
} fake_rsp_fork_t;

/* Forks a fake server: a socketpair between the two processes (the
 * parent's end non-blocking, as transports are: poll() bounds every wait)
 * and a pipe from the child to the parent for the child's report. Returns
 * in both processes, each holding only its own ends; exits 99 when the
 * system refuses. */
static inline fake_rsp_fork_t fake_rsp_fork(void)
{
	int sv[2], rp[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0 || pipe(rp) != 0)
		exit(99);
	fake_rsp_fork_t f = {.pid = fork()};
	if (f.pid < 0)
		exit(99);
	close(f.pid == 0 ? sv[0] : sv[1]);
	close(f.pid == 0 ? rp[0] : rp[1]);
	f.fd = f.pid == 0 ? sv[1] : sv[0];
	f.report_fd = f.pid == 0 ? rp[1] : rp[0];
	if (f.pid != 0)
		fcntl(f.fd, F_SETFL, fcntl(f.fd, F_GETFL) | O_NONBLOCK);
	return f;
}

/*
 * Answers the packets of an attach (qSupported offering no-ack mode,
 * QStartNoAckMode, '?' with a halted core): 0 when pkt is none of them, 1
 * when it was answered, 2 when it was the '?' that ends the attach.
 */
static inline int fake_rsp_attach_answer(int fd, const char *pkt)
{
	if (strncmp(pkt, "qSupported", 10) == 0) {
		fake_rsp_send(fd, "PacketSize=4000;QStartNoAckMode+");
		return 1;
	}
	if (strcmp(pkt, "QStartNoAckMode") == 0) {
		fake_rsp_send(fd, "OK");
		return 1;
	}
	if (strcmp(pkt, "?") == 0) {
		fake_rsp_send(fd, "S05");
		return 2;
	}
	return 0;
}

#endif
