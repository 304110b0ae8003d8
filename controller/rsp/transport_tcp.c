#include "rsp/transport.h"

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

static int wait_fd(int fd, short events, int timeout_ms)
{
	struct pollfd p = {.fd = fd, .events = events};
	int r;
	do {
		r = poll(&p, 1, timeout_ms);
	} while (r < 0 && errno == EINTR);
	return r;
}

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
		r = wait_fd(fd, POLLOUT, timeout_ms);
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
	snprintf(t->peer, sizeof(t->peer), "%s:%u", host, (unsigned)port);
	if (gai != 0)
		return br_error_set(err, BR_ERR_INFRA, "cannot resolve %s: %s", host,
				    gai_strerror(gai));
	int last_errno = 0;
	for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
		int fd = connect_one(ai, timeout_ms);
		if (fd >= 0) {
			t->fd = fd;
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
		br_status_t st = rsp_transport_tcp_connect(t, host, port,
							   br_clock_remaining_ms(deadline) + 1, err);
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

br_status_t rsp_transport_write(rsp_transport_t *t, const void *buf, size_t len, int timeout_ms,
				br_error_t *err)
{
	const uint8_t *p = buf;
	int64_t deadline = br_clock_ms() + timeout_ms;
	while (len > 0) {
		ssize_t n = send(t->fd, p, len, MSG_NOSIGNAL);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int left = br_clock_remaining_ms(deadline);
			if (left == 0 || wait_fd(t->fd, POLLOUT, left) == 0)
				return br_error_set(err, BR_ERR_TIMEOUT,
						    "%s: write timed out after %d ms", t->peer,
						    timeout_ms);
			continue;
		}
		return br_error_set(err, BR_ERR_INFRA, "%s: connection lost while writing: %s",
				    t->peer, strerror(errno));
	}
	return BR_OK;
}

br_status_t rsp_transport_read(rsp_transport_t *t, void *buf, size_t cap, size_t *got,
			       int timeout_ms, br_error_t *err)
{
	*got = 0;
	int64_t deadline = br_clock_ms() + timeout_ms;
	for (;;) {
		ssize_t n = recv(t->fd, buf, cap, 0);
		if (n > 0) {
			*got = (size_t)n;
			return BR_OK;
		}
		if (n == 0)
			return br_error_set(err, BR_ERR_INFRA, "%s: the server closed the connection",
					    t->peer);
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return br_error_set(err, BR_ERR_INFRA, "%s: read failed: %s", t->peer,
					    strerror(errno));
		int left = br_clock_remaining_ms(deadline);
		if (left == 0 || wait_fd(t->fd, POLLIN, left) == 0)
			return br_error_set(err, BR_ERR_TIMEOUT, "%s: no answer within %d ms",
					    t->peer, timeout_ms);
	}
}

void rsp_transport_close(rsp_transport_t *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
