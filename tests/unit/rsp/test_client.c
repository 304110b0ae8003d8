/*
 * The RSP client against scripted servers (a child process on the other end
 * of a socketpair): NAK and resend, a lost acknowledgement, a damaged reply,
 * keepalives and notifications, garbage, the resend after silence followed by
 * duplicate replies (the resync marker drops the stale one: replies never
 * shift), a pipeline, and a timeout that ends the session.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "rsp/client.h"
#include "rsp/client_private.h" /* a white-box test of the client */
#include "rsp/packet.h"

/* One step of a scripted server. */
typedef enum { READ_PACKET, READ_BYTE, WRITE, SLEEP_MS, END } step_kind_t;
typedef struct step {
	step_kind_t kind;
	const char *text; /* WRITE: bytes; READ_PACKET: expected payload prefix (or NULL) */
	int ms;
} step_t;

static int read_byte(int fd)
{
	unsigned char b;
	return read(fd, &b, 1) == 1 ? b : -1;
}

/* Reads one $...#xx frame; returns 0 when its payload starts with want. */
static int read_packet(int fd, const char *want)
{
	char buf[512];
	size_t n = 0;
	int b;
	do {
		b = read_byte(fd);
	} while (b >= 0 && b != '$');
	while ((b = read_byte(fd)) >= 0 && b != '#' && n + 1 < sizeof(buf))
		buf[n++] = (char)b;
	buf[n] = '\0';
	read_byte(fd);
	read_byte(fd);
	if (want != NULL && strncmp(buf, want, strlen(want)) != 0) {
		fprintf(stderr, "server: got '%s', expected '%s'\n", buf, want);
		return 1;
	}
	return 0;
}

static void serve(int fd, const step_t *steps)
{
	int bad = 0;
	for (const step_t *s = steps; s->kind != END; s++) {
		switch (s->kind) {
		case READ_PACKET:
			bad |= read_packet(fd, s->text);
			break;
		case READ_BYTE:
			bad |= read_byte(fd) != (unsigned char)s->text[0];
			break;
		case WRITE:
			bad |= write(fd, s->text, strlen(s->text)) != (ssize_t)strlen(s->text);
			break;
		case SLEEP_MS: {
			struct timespec ts = {s->ms / 1000, (long)(s->ms % 1000) * 1000000L};
			nanosleep(&ts, NULL);
			break;
		}
		case END:
			break;
		}
	}
	/* Keep the connection open until the client is done. */
	char sink[64];
	while (read(fd, sink, sizeof(sink)) > 0) {
	}
	_exit(bad);
}

/* Starts a scripted server; *out is a client connected to it. */
static pid_t start(rsp_client_t **out, const step_t *steps)
{
	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		serve(sv[1], steps);
	}
	close(sv[1]);
	/* Transports are non-blocking: poll() bounds every wait. */
	fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
	rsp_transport_t t = {.fd = sv[0], .kind = RSP_TRANSPORT_SERIAL};
	snprintf(t.peer, sizeof(t.peer), "scripted");
	rsp_client_t *c = rsp_client_open(&t);
	*out = c;
	c->features.packet_size = 4096;
	c->timeout_ms = 3000;
	return pid;
}

static int finish(rsp_client_t *c, pid_t pid)
{
	rsp_client_close(c);
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

static const char *ask(rsp_client_t *c, const char *req, br_status_t *st)
{
	const char *reply = "";
	size_t len = 0;
	br_error_t err;
	*st = rsp_client_transact(c, req, &reply, &len, &err);
	if (*st != BR_OK)
		fprintf(stderr, "(%s: %s)\n", req, err.message);
	return *st == BR_OK ? reply : "";
}

/* The replies of a pipeline, as rsp_client_pipeline_each hands them out. */
typedef struct collected {
	char text[4][64];
	size_t n;
} collected_t;

static br_status_t collect(void *ctx, size_t index, const char *reply, size_t len, br_error_t *err)
{
	collected_t *c = ctx;
	(void)err;
	if (index != c->n || index >= 4U || len >= sizeof(c->text[0]))
		return br_error_set(err, BR_ERR_PROTOCOL, "reply %zu out of order or too long",
		                    index);
	memcpy(c->text[index], reply, len + 1U);
	c->n++;
	return BR_OK;
}

/* Every packet a pipeline hands out, with its index (a monitor request's
 * console packets come under its own). */
typedef struct indexed {
	size_t index[6];
	char text[6][64];
	size_t n;
} indexed_t;

static br_status_t collect_indexed(void *ctx, size_t index, const char *reply, size_t len,
                                   br_error_t *err)
{
	indexed_t *c = ctx;
	if (c->n >= 6U || len >= sizeof(c->text[0]))
		return br_error_set(err, BR_ERR_PROTOCOL, "too many or too long");
	c->index[c->n] = index;
	memcpy(c->text[c->n], reply, len + 1U);
	c->n++;
	return BR_OK;
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	rsp_client_t *c;
	br_status_t st;

	/* A NAK sends the packet again. */
	static const step_t nak[] = {{READ_PACKET, "m0,4", 0}, {WRITE, "-", 0},
	                             {READ_PACKET, "m0,4", 0}, {WRITE, "+$01020304#8a", 0},
	                             {READ_BYTE, "+", 0},      {END, NULL, 0}};
	pid_t pid = start(&c, nak);
	CHECK(strcmp(ask(c, "m0,4", &st), "01020304") == 0);
	CHECK(c->counters.resends == 1);
	CHECK(finish(c, pid) == 0);

	/* A lost '+': the reply is the acknowledgement. */
	static const step_t lost_ack[] = {
	    {READ_PACKET, "qC", 0}, {WRITE, "$OK#9a", 0}, {END, NULL, 0}};
	pid = start(&c, lost_ack);
	CHECK(strcmp(ask(c, "qC", &st), "OK") == 0);
	CHECK(c->counters.implicit_acks == 1);
	CHECK(finish(c, pid) == 0);

	/* A damaged reply is NAKed and comes again. */
	static const step_t damaged[] = {{READ_PACKET, "qC", 0},
	                                 {WRITE, "+$OK#00", 0},
	                                 {READ_BYTE, "-", 0},
	                                 {WRITE, "$OK#9a", 0},
	                                 {END, NULL, 0}};
	pid = start(&c, damaged);
	CHECK(strcmp(ask(c, "qC", &st), "OK") == 0);
	CHECK(c->counters.naks_sent == 1);
	CHECK(finish(c, pid) == 0);

	/* Garbage, a notification and keepalives before the reply are skipped. */
	static const step_t noise[] = {{READ_PACKET, "qRcmd", 0},
	                               {WRITE, "+xyz\r\n%oocd_keepalive#ba$O#4f$O#4f$OK#9a", 0},
	                               {END, NULL, 0}};
	pid = start(&c, noise);
	CHECK(strcmp(ask(c, "qRcmd,00", &st), "OK") == 0);
	CHECK(c->counters.keepalives == 2 && c->counters.notifications == 1);
	CHECK(c->counters.garbage_bytes == 5);
	CHECK(finish(c, pid) == 0);

	/* Silence: the read is sent again; both copies are answered. The second
	 * reply must not become the answer to the next request: the resync
	 * marker (m<sync>,8) drops it. */
	static const step_t stall[] = {{READ_PACKET, "m0,4", 0},
	                               {SLEEP_MS, NULL, RSP_CLIENT_ACK_WINDOW_MS + 300},
	                               {READ_PACKET, "m0,4", 0},
	                               {WRITE, "+$01020304#8a+$01020304#8a", 0},
	                               {READ_PACKET, "me000ed00,8", 0},
	                               {WRITE, "+$0a0b0c0d0e0f1011#38", 0},
	                               {READ_PACKET, "m4,4", 0},
	                               {WRITE, "+$05060708#9a", 0},
	                               {END, NULL, 0}};
	pid = start(&c, stall);
	c->sync_address = 0xE000ED00U;
	CHECK(strcmp(ask(c, "m0,4", &st), "01020304") == 0);
	CHECK(c->counters.ack_resends == 1 && c->stale == 1);
	CHECK_MSG(strcmp(ask(c, "m4,4", &st), "05060708") == 0, "a stale reply shifted in");
	CHECK(c->counters.resyncs == 1 && c->counters.stale_dropped == 1);
	CHECK(finish(c, pid) == 0);

	/* A resume is never sent twice: silence after 'c' is just a running target. */
	static const step_t pipeline[] = {
	    {READ_PACKET, "pf", 0}, {READ_PACKET, "m10,4", 0},
	    {READ_PACKET, "c", 0},  {WRITE, "+$78563412#a4+$01020304#8a+", 0},
	    {SLEEP_MS, NULL, 50},   {WRITE, "$T05#b9", 0},
	    {END, NULL, 0}};
	pid = start(&c, pipeline);
	const char *reqs[] = {"pf", "m10,4", "c"};
	collected_t piped = {.n = 0};
	br_error_t err;
	CHECK(rsp_client_pipeline_each(c, reqs, 3, true, collect, &piped, &err) == BR_OK);
	CHECK(piped.n == 2 && strcmp(piped.text[0], "78563412") == 0 &&
	      strcmp(piped.text[1], "01020304") == 0);
	const char *stop;
	size_t len;
	CHECK(rsp_client_receive(c, 2000, &stop, &len, &err) == BR_OK && strcmp(stop, "T05") == 0);
	CHECK(c->counters.write_calls == 2); /* the pipeline, then the stop reply's '+' */
	CHECK(finish(c, pid) == 0);

	/* A monitor request in a pipeline (QEMU's icount read): its console
	 * packet and its OK both under its index, the next read's reply after. */
	static const step_t monitor[] = {
	    {READ_PACKET, "m10,4", 0},
	    {READ_PACKET, "qRcmd,696e666f", 0},
	    {READ_PACKET, "m14,4", 0},
	    {READ_PACKET, "c", 0},
	    {WRITE, "+$01020304#8a+$O636f756e74203d20370a#1c$OK#9a+$05060708#9a+", 0},
	    {END, NULL, 0}};
	pid = start(&c, monitor);
	const char *mreqs[] = {"m10,4", "qRcmd,696e666f", "m14,4", "c"};
	indexed_t mon = {.n = 0};
	CHECK(rsp_client_pipeline_each(c, mreqs, 4, true, collect_indexed, &mon, &err) == BR_OK);
	CHECK(mon.n == 4 && mon.index[0] == 0 && mon.index[1] == 1 && mon.index[2] == 1 &&
	      mon.index[3] == 2);
	CHECK(strcmp(mon.text[1], "O636f756e74203d20370a") == 0 && strcmp(mon.text[2], "OK") == 0);
	CHECK(strcmp(mon.text[3], "05060708") == 0);
	CHECK(finish(c, pid) == 0);

	/* The interrupt leads the pipeline in the same write (a server that stops
	 * on it before reading on): the stop reply is reply 0, then the reads'. */
	static const step_t interrupt_first[] = {
	    {READ_BYTE, "\x03", 0},
	    {READ_PACKET, "g", 0},
	    {READ_PACKET, "m20000000,4", 0},
	    {READ_PACKET, "c", 0},
	    {WRITE, "$T02thread:01;#04$0102030405060708#24$aabbccdd#14", 0},
	    {END, NULL, 0}};
	pid = start(&c, interrupt_first);
	c->no_ack = true;
	const char *ireqs[] = {"g", "m20000000,4", "c"};
	collected_t got = {0};
	CHECK(rsp_client_interrupt_pipeline_each(c, ireqs, 3, true, collect, &got, &err) == BR_OK);
	CHECK(got.n == 3 && strcmp(got.text[0], "T02thread:01;") == 0 &&
	      strcmp(got.text[1], "0102030405060708") == 0 && strcmp(got.text[2], "aabbccdd") == 0);
	CHECK(c->counters.write_calls == 1);
	/* A resent request's reply may still come: refused, nothing written (the
	 * resync needs a stopped target). */
	c->stale = 1;
	got.n = 0;
	CHECK(rsp_client_interrupt_pipeline_each(c, ireqs, 3, true, collect, &got, &err) ==
	      BR_ERR_USAGE);
	CHECK(c->counters.write_calls == 1 && got.n == 0);
	c->stale = 0;
	CHECK(finish(c, pid) == 0);

	/* A reply that never comes ends the session; later calls fail at once. */
	static const step_t silent[] = {{READ_PACKET, "qC", 0}, {WRITE, "+", 0}, {END, NULL, 0}};
	pid = start(&c, silent);
	c->timeout_ms = 300;
	ask(c, "qC", &st);
	CHECK(st == BR_ERR_TIMEOUT);
	CHECK(!rsp_client_usable(c));
	ask(c, "qC", &st);
	CHECK(st == BR_ERR_TIMEOUT);
	CHECK(finish(c, pid) == 0);

	/* QEMU stops a running machine when a client connects and says so with
	 * an unasked stop reply: it is not the answer to qSupported. */
	static const step_t stale_stop[] = {{WRITE, "$T02thread:p01.01;#03", 0},
	                                    {READ_PACKET, "qSupported", 0},
	                                    {WRITE, "+$PacketSize=1000#f1", 0},
	                                    {END, NULL, 0}};
	pid = start(&c, stale_stop);
	br_error_t nerr;
	CHECK(rsp_client_negotiate(c, &nerr) == BR_OK);
	CHECK(c->features.packet_size == 0x1000U);
	CHECK(finish(c, pid) == 0);

	return check_finish();
}
