/*
 * TCP transport: connecting to a gdbserver at host:port (the reads and writes
 * are transport.c's).
 */
#include "rsp/transport.h"

#include <stdlib.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"

/* How long to wait between connection attempts while a server starts. */
#define RSP_CONNECT_RETRY_PAUSE_MS 10

/* One non-blocking connect to one address, bounded by timeout_ms. Returns fd or -1 with errno. */
static int connect_one(const struct addrinfo *ai, int timeout_ms)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0)
		return -1;
	int flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	int r = connect(fd, ai->ai_addr, ai->ai_addrlen);
	if (r < 0 && errno != EINPROGRESS)
		goto fail;
	if (r < 0) {
		r = rsp_transport_fd_wait(fd, POLLOUT, timeout_ms);
		if (r == 0) {
			errno = ETIMEDOUT;
			goto fail;
		}
		int soerr = 0;
		socklen_t len = sizeof(soerr);
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
		if (soerr != 0) {
			errno = soerr;
			goto fail;
		}
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	/* Blocking from now on, each wait bounded (transport.c): a reply costs
	 * one recv, not a recv that finds nothing, a poll and a recv again. */
	fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (rsp_transport_set_timeouts(fd, RSP_TRANSPORT_SLICE_MS) != 0)
		goto fail;
	return fd;
fail:;
	int saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

br_status_t rsp_transport_tcp_connect(rsp_transport_t *t, const char *host, uint16_t port,
                                      int timeout_ms, br_error_t *err)
{
	char service[8];
	snprintf(service, sizeof(service), "%u", (unsigned)port);
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
	struct addrinfo *res = NULL;
	int gai = getaddrinfo(host, service, &hints, &res);
	t->fd = -1;
	t->kind = RSP_TRANSPORT_TCP;
	snprintf(t->peer, sizeof(t->peer), "%s:%u", host, (unsigned)port);
	if (gai != 0)
		return br_error_set(err, BR_ERR_INFRA, "cannot resolve %s: %s", host,
		                    gai_strerror(gai));
	int last_errno = 0;
	for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
		int fd = connect_one(ai, timeout_ms);
		if (fd >= 0) {
			t->fd = fd;
			t->rcv_timeout_ms = RSP_TRANSPORT_SLICE_MS;
			t->rcv_lowat = 0;
			t->expect = 0;
			t->expect_more = 0;
			t->expect_off = false;
			break;
		}
		last_errno = errno;
	}
	freeaddrinfo(res);
	if (t->fd < 0)
		return br_error_set(err, BR_ERR_INFRA, "cannot connect to %s: %s", t->peer,
		                    strerror(last_errno));
	return BR_OK;
}

br_status_t rsp_transport_tcp_connect_retry(rsp_transport_t *t, const char *host, uint16_t port,
                                            int deadline_ms, int (*alive)(void *ctx), void *ctx,
                                            br_error_t *err)
{
	int64_t deadline = br_clock_ms() + deadline_ms;
	for (;;) {
		br_status_t st = rsp_transport_tcp_connect(
		    t, host, port, br_clock_remaining_ms(deadline) + 1, err);
		if (st == BR_OK)
			return BR_OK;
		if (alive != NULL && !alive(ctx))
			return st;
		if (br_clock_remaining_ms(deadline) == 0)
			return br_error_prefix(err, "server not ready after %d ms", deadline_ms);
		struct timespec pause = {0, RSP_CONNECT_RETRY_PAUSE_MS * 1000000L};
		nanosleep(&pause, NULL);
	}
}

br_status_t rsp_transport_parse_hostport(const char *text, char *host, size_t cap, uint16_t *port,
                                         br_error_t *err)
{
	const char *colon = strrchr(text, ':');
	const char *h = text;
	size_t hlen = colon != NULL ? (size_t)(colon - text) : 0U;
	if (hlen >= 2U && text[0] == '[' && text[hlen - 1U] == ']') {
		h = text + 1;
		hlen -= 2U;
	}
	if (colon == NULL || hlen == 0U || hlen >= cap)
		return br_error_set(err, BR_ERR_USAGE, "'%s' is not HOST:PORT", text);
	char *end = NULL;
	unsigned long p = strtoul(colon + 1, &end, 10);
	if (colon[1] == '\0' || *end != '\0' || p == 0UL || p > 65535UL)
		return br_error_set(err, BR_ERR_USAGE, "'%s': the port must be 1..65535", text);
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	*port = (uint16_t)p;
	return BR_OK;
}
