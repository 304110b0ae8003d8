/*
 * The scripted fake target (fake_script.h): the child that plays a script,
 * byte by byte the way QEMU's gdbstub treats its client.
 */
#include "fake_script.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fake_rsp.h"

/* How long the fake waits for the client to connect. */
#define FAKE_ACCEPT_MS 20000

typedef enum fake_ack { FAKE_ACK, FAKE_NAK, FAKE_SILENT } fake_ack_t;

typedef struct fake {
	int fd;          /* the connection */
	bool acks;       /* acknowledging packets (until QStartNoAckMode is answered) */
	bool split;      /* every byte written on its own */
	bool gone;       /* a write failed: the client hung up */
	fake_ack_t next; /* what the next packet received gets */
	char *last;      /* the last frame sent, right (a '-' has it sent again) */
	size_t last_len;
	char *pkt;   /* the packet being read, FAKE_SCRIPT_PACKET_MAX + 1 bytes */
	char *want;  /* a script payload decoded, as many */
	char *frame; /* a frame being written, FAKE_SCRIPT_PACKET_MAX + 8 bytes */
} fake_t;

/* Writes n bytes of buf, all at once or (split) one write per byte; once a
 * write fails the client is gone (f->gone) and nothing more is written. */
static void fake_write(fake_t *f, const char *buf, size_t n)
{
	size_t step = f->split ? 1U : n;
	for (size_t i = 0; i < n && !f->gone; i += step)
		if (write(f->fd, buf + i, step) != (ssize_t)step)
			f->gone = true;
}

/* Decodes a script payload (\xHH escapes) into out; returns its length. */
static size_t fake_decode(const char *text, char *out)
{
	size_t n = 0;
	while (*text != '\0' && n < FAKE_SCRIPT_PACKET_MAX) {
		unsigned v;
		if (text[0] == '\\' && text[1] == 'x' && sscanf(text + 2, "%2x", &v) == 1) {
			out[n++] = (char)v;
			text += 4;
		} else {
			out[n++] = *text++;
		}
	}
	out[n] = '\0';
	return n;
}

/* Sends payload (len bytes) framed, its checksum plus skew; a right frame
 * is kept as the one a '-' asks for again. */
static void fake_send(fake_t *f, const char *payload, size_t len, unsigned skew)
{
	size_t n = fake_rsp_frame(f->frame, FAKE_SCRIPT_PACKET_MAX + 8, payload, len, skew);
	if (n == 0)
		_exit(FAKE_SCRIPT_BAD);
	fake_write(f, f->frame, n);
	size_t right = fake_rsp_frame(f->last, FAKE_SCRIPT_PACKET_MAX + 8, payload, len, 0);
	f->last_len = right;
}

/* The next byte from the client, or -1 at its end (a reset: f->gone, what
 * it sent may be lost with it). */
static int fake_getc(fake_t *f)
{
	unsigned char b;
	ssize_t n = read(f->fd, &b, 1);
	if (n < 0 && errno == ECONNRESET)
		f->gone = true;
	return n == 1 ? b : -1;
}

/* Reads one packet into f->pkt as QEMU does: acknowledged (or not, as
 * f->next says: a "nak" line refuses it, and the next "> " line is the
 * client's resend), a bad checksum refused and read past, a '-' answered with
 * the last frame again (until a '+' or the next packet), 0x03 read as the packet "\x03", other
 * bytes between packets ignored. Returns its length, or -1 when the client hung up. */
static long fake_read(fake_t *f)
{
	for (;;) {
		int c = fake_getc(f);
		if (c < 0)
			return -1;
		if (c == 0x03) {
			f->pkt[0] = 0x03;
			f->pkt[1] = '\0';
			return 1;
		}
		/* Its last packet is owed again on a '-', and no more once a '+' or
		 * the next packet came (QEMU forgets it then). */
		if (c == '-' && f->last_len > 0)
			fake_write(f, f->last, f->last_len);
		if (c == '+' || c == '$')
			f->last_len = 0;
		if (c != '$')
			continue;
		size_t n = 0;
		unsigned sum = 0;
		while ((c = fake_getc(f)) >= 0 && c != '#') {
			if (n < FAKE_SCRIPT_PACKET_MAX)
				f->pkt[n++] = (char)c;
			sum += (unsigned)c;
		}
		int h1 = c == '#' ? fake_getc(f) : -1;
		int h2 = h1 >= 0 ? fake_getc(f) : -1;
		if (h2 < 0)
			return -1;
		char hex[3] = {(char)h1, (char)h2, '\0'};
		f->pkt[n] = '\0';
		bool good = strtoul(hex, NULL, 16) == (sum & 0xFFU);
		fake_ack_t ack = good ? f->next : FAKE_NAK;
		if (good)
			f->next = FAKE_ACK;
		if (f->acks && ack != FAKE_SILENT)
			fake_write(f, ack == FAKE_ACK ? "+" : "-", 1);
		if (good) /* refused by a "nak" line: the next "> " line is its resend */
			return (long)n;
	}
}

/* "> payload": the next packet must be payload. */
static int fake_expect(fake_t *f, const char *text, unsigned lineno)
{
	size_t want = fake_decode(text, f->want);
	long got = fake_read(f);
	if (got < 0 && f->gone)
		return 0; /* it hung up with replies still due: what it sent before is checked */
	if (got < 0 || (size_t)got != want || memcmp(f->pkt, f->want, want) != 0) {
		fprintf(stderr, "script line %u: expected \"%s\", got \"", lineno, text);
		for (long i = 0; i < got; i++)
			fprintf(stderr, (unsigned char)f->pkt[i] < 0x20 ? "\\x%02x" : "%c",
			        (unsigned char)f->pkt[i]);
		fprintf(stderr, got < 0 ? "(the client hung up)\"\n" : "\"\n");
		return FAKE_SCRIPT_MISMATCH;
	}
	return 1;
}

/* "< payload", "<! payload": a reply, right or corrupted. */
static void fake_reply(fake_t *f, const char *text, unsigned skew)
{
	size_t len = fake_decode(text, f->want);
	fake_send(f, f->want, len, skew);
	if (strcmp(f->want, "OK") == 0 && strcmp(f->pkt, "QStartNoAckMode") == 0)
		f->acks = false;
}

/* A connection taken: TCP_NODELAY, as QEMU's gdbstub sets it (its '+' and
 * its reply are two writes: Nagle would hold the reply for the client's
 * delayed ACK, 40 ms a packet). */
static int fake_nodelay(int fd)
{
	int one = 1;
	if (fd >= 0)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* The steps that end the conversation: hold, close, rst. */
static int fake_end(fake_t *f, const char *line)
{
	if (strcmp(line, "hold") == 0) {
		while (read(f->fd, f->pkt, FAKE_SCRIPT_PACKET_MAX) > 0)
			;
	} else if (strcmp(line, "rst") == 0) {
		struct linger l = {.l_onoff = 1, .l_linger = 0};
		setsockopt(f->fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	}
	close(f->fd);
	return 0;
}

/* Plays one line; 1 to go on, 0 when the fake is done, or an exit status. */
static int fake_step(fake_t *f, const char *line, unsigned lineno)
{
	if (line[0] == '\0' || line[0] == '#')
		return 1;
	if (strncmp(line, "> ", 2) == 0)
		return fake_expect(f, line + 2, lineno);
	if (strncmp(line, "<! ", 3) == 0)
		fake_reply(f, line + 3, 1);
	else if (line[0] == '<' && (line[1] == '\0' || line[1] == ' '))
		fake_reply(f, line[1] == ' ' ? line + 2 : "", 0);
	else if (strncmp(line, "junk ", 5) == 0)
		fake_write(f, f->want, fake_decode(line + 5, f->want));
	else if (strcmp(line, "nak") == 0)
		f->next = FAKE_NAK;
	else if (strcmp(line, "noack") == 0)
		f->next = FAKE_SILENT;
	else if (strcmp(line, "@split") == 0)
		f->split = true;
	else if (strncmp(line, "~ ", 2) == 0) {
		long ms = strtol(line + 2, NULL, 10);
		struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
	} else if (strcmp(line, "hold") == 0 || strcmp(line, "close") == 0 ||
	           strcmp(line, "rst") == 0)
		return fake_end(f, line);
	else {
		fprintf(stderr, "script line %u: unknown step \"%s\"\n", lineno, line);
		return FAKE_SCRIPT_BAD;
	}
	return 1;
}

/* The child: plays the script at path on fd, then exits with its verdict. */
static void fake_play(int fd, const char *path)
{
	fake_t f = {.fd = fd, .acks = true, .next = FAKE_ACK};
	f.last = malloc(FAKE_SCRIPT_PACKET_MAX + 8);
	f.pkt = calloc(1, FAKE_SCRIPT_PACKET_MAX + 1);
	f.want = malloc(FAKE_SCRIPT_PACKET_MAX + 1);
	f.frame = malloc(FAKE_SCRIPT_PACKET_MAX + 8);
	FILE *in = fopen(path, "r");
	if (in == NULL || f.last == NULL || f.pkt == NULL || f.want == NULL || f.frame == NULL) {
		fprintf(stderr, "%s: cannot open the script\n", path);
		_exit(FAKE_SCRIPT_BAD);
	}
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int r = 1;
	while (r == 1 && getline(&line, &cap, in) >= 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		r = fake_step(&f, line, lineno);
	}
	fclose(in);
	if (r == 1) {
		while (fake_read(&f) >= 0)
			fake_send(&f, "OK", 2, 0);
		r = 0;
	}
	_exit(r);
}

uint16_t fake_script_listen(const char *path, pid_t *pid)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(l, 4) != 0 ||
	    getsockname(l, (struct sockaddr *)&a, &len) != 0)
		exit(99);
	*pid = fork();
	if (*pid < 0)
		exit(99);
	if (*pid == 0) {
		struct pollfd p = {.fd = l, .events = POLLIN};
		int fd =
		    poll(&p, 1, FAKE_ACCEPT_MS) == 1 ? fake_nodelay(accept(l, NULL, NULL)) : -1;
		if (fd < 0) {
			fprintf(stderr, "%s: the client never connected\n", path);
			_exit(FAKE_SCRIPT_MISMATCH);
		}
		close(l);
		fake_play(fd, path);
	}
	close(l);
	return ntohs(a.sin_port);
}

int fake_script_wait(pid_t pid)
{
	int status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}
