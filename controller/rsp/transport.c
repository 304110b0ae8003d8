/*
 * What every transport shares: deadline-bounded reads and writes on a
 * non-blocking descriptor, and closing it.
 */
#include "rsp/transport.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/interrupt.h"

int rsp_transport_fd_wait(int fd, short events, int timeout_ms)
{
	struct pollfd p = {.fd = fd, .events = events};
	int r;
	do {
		if (br_interrupt_signal() != 0) {
			errno = EINTR; /* the caller's loop sees the flag */
			return -1;
		}
		r = poll(&p, 1, timeout_ms);
	} while (r < 0 && errno == EINTR);
	return r;
}

int rsp_transport_set_timeouts(int fd, int ms)
{
	struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0)
		return -1;
	return setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* The most bytes a read waits for: what has come wakes the reader only once
 * it is this much, and a sender stops when the receive window is full, which
 * only a read opens again. Measured on Linux 6.18 loopback: a wait for a whole
 * round of bulk replies (61 KiB) stalled about 7 ms each time, the window
 * reopened only by a TCP timer; a quarter of the default receive buffer
 * (tcp_rmem 128 KiB) does not, and wakes the reader about twice per round.
 * With the wait in poll, 64 KiB still measured 332 us per bulk packet on the
 * user's path against 69-75 us at 32 KiB. */
#define RSP_TRANSPORT_LOWAT_MAX 32768U

/*
 * One receive on a blocking TCP socket, waiting at most left_ms (0: not at
 * all). Without a hint, a blocking recv whose receive timeout is the slice,
 * or left_ms when that is shorter (set only when it changes, so the common
 * wait costs the recv alone). With one (rsp_transport_expect, and
 * rsp_transport_expect_more for at most t->more_ms), the low-water mark is
 * the hinted count and the wait a poll, then a recv that does not wait: a
 * recv that finds part of the count already there copies it and then sleeps
 * until what is still queued alone reaches the mark (Linux tcp_data_ready),
 * which would stall it to its timeout; a poll copies nothing, so it wakes
 * when the whole count is there.
 */
static ssize_t tcp_receive_once(rsp_transport_t *t, void *buf, size_t cap, int left_ms)
{
	if (left_ms <= 0)
		return recv(t->fd, buf, cap, MSG_DONTWAIT);
	int want = left_ms < RSP_TRANSPORT_SLICE_MS ? left_ms : RSP_TRANSPORT_SLICE_MS;
	bool more = t->expect_more > 0 && !t->expect_off;
	if (more && t->more_ms < want)
		want = t->more_ms;
	/* At most cap (more could never come in this read) and at most
	 * RSP_TRANSPORT_LOWAT_MAX, and the kernel's 1 again when nothing is
	 * expected. */
	size_t total = t->expect + (more ? t->expect_more : 0U);
	size_t lowat = total < cap ? total : cap;
	if (lowat > RSP_TRANSPORT_LOWAT_MAX)
		lowat = RSP_TRANSPORT_LOWAT_MAX;
	if (lowat == 0 || t->expect_off)
		lowat = 1;
	if (lowat != (t->rcv_lowat == 0 ? 1U : t->rcv_lowat)) {
		int v = (int)lowat;
		if (setsockopt(t->fd, SOL_SOCKET, SO_RCVLOWAT, &v, sizeof(v)) != 0)
			return -1;
		t->rcv_lowat = lowat;
	}
	t->expect_more = 0; /* one read waits for it, however it ends */
	if (lowat > 1) {
		int ready = rsp_transport_fd_wait(t->fd, POLLIN, want);
		ssize_t n = recv(t->fd, buf, cap, MSG_DONTWAIT);
		if (ready == 0 && n > 0 && (size_t)n < lowat && !more)
			t->expect_off = true;
		return n;
	}
	if (want != t->rcv_timeout_ms) {
		struct timeval tv = {.tv_sec = want / 1000, .tv_usec = (want % 1000) * 1000};
		if (setsockopt(t->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0)
			return -1;
		t->rcv_timeout_ms = want;
	}
	return recv(t->fd, buf, cap, 0);
}

/* tcp_receive_once, what came taken off t->expect (on either path). */
static ssize_t tcp_receive(rsp_transport_t *t, void *buf, size_t cap, int left_ms)
{
	ssize_t n = tcp_receive_once(t, buf, cap, left_ms);
	if (n > 0)
		t->expect = (size_t)n < t->expect ? t->expect - (size_t)n : 0;
	return n;
}

void rsp_transport_expect(rsp_transport_t *t, size_t bytes)
{
	t->expect = bytes;
	t->expect_more = 0;
}

void rsp_transport_expect_more(rsp_transport_t *t, size_t bytes, int within_ms)
{
	t->expect_more = bytes;
	t->more_ms = within_ms < 1 ? 1 : within_ms;
}

/* One write attempt: sockets never raise SIGPIPE (MSG_NOSIGNAL). */
static ssize_t write_some(const rsp_transport_t *t, const uint8_t *p, size_t len)
{
	if (t->kind == RSP_TRANSPORT_TCP)
		return send(t->fd, p, len, MSG_NOSIGNAL);
	return write(t->fd, p, len);
}

static ssize_t read_some(const rsp_transport_t *t, void *buf, size_t cap)
{
	if (t->kind == RSP_TRANSPORT_TCP)
		return recv(t->fd, buf, cap, 0);
	return read(t->fd, buf, cap);
}

br_status_t rsp_transport_write(rsp_transport_t *t, const void *buf, size_t len, int timeout_ms,
                                br_error_t *err)
{
	const uint8_t *p = buf;
	int64_t deadline = br_clock_ms() + timeout_ms;
	if (t->fd < 0)
		return br_error_set(err, BR_ERR_INFRA, "%s: not connected", t->peer);
	while (len > 0) {
		ssize_t n = write_some(t, p, len);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (br_interrupt_signal() != 0)
			return br_interrupt_error(err);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || errno == EAGAIN || errno == EWOULDBLOCK) {
			int left = br_clock_remaining_ms(deadline);
			if (left == 0 || rsp_transport_fd_wait(t->fd, POLLOUT, left) == 0)
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

/* rsp_transport_read on TCP: blocking receives, each bounded (tcp_receive). */
static br_status_t tcp_read(rsp_transport_t *t, void *buf, size_t cap, size_t *got, int timeout_ms,
                            br_error_t *err)
{
	int64_t deadline = br_clock_ms() + timeout_ms;
	for (;;) {
		if (br_interrupt_signal() != 0)
			return br_interrupt_error(err);
		ssize_t n = tcp_receive(t, buf, cap, br_clock_remaining_ms(deadline));
		if (n > 0) {
			*got = (size_t)n;
			return BR_OK;
		}
		if (n == 0)
			return br_error_set(err, BR_ERR_INFRA,
			                    "%s: the server closed the connection", t->peer);
		/* A server that dies with data unread on its side resets the
		 * connection instead of closing it (which of the two a reader
		 * sees is a race): the same end, told the same way. */
		if (errno == ECONNRESET)
			return br_error_set(err, BR_ERR_INFRA,
			                    "%s: the server closed the connection (reset by peer)",
			                    t->peer);
		if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
			return br_error_set(err, BR_ERR_INFRA, "%s: read failed: %s", t->peer,
			                    strerror(errno));
		if (errno != EINTR && br_clock_remaining_ms(deadline) == 0)
			return br_error_set(err, BR_ERR_TIMEOUT, "%s: no answer within %d ms",
			                    t->peer, timeout_ms);
	}
}

br_status_t rsp_transport_read(rsp_transport_t *t, void *buf, size_t cap, size_t *got,
                               int timeout_ms, br_error_t *err)
{
	*got = 0;
	int64_t deadline = br_clock_ms() + timeout_ms;
	if (t->fd < 0)
		return br_error_set(err, BR_ERR_INFRA, "%s: not connected", t->peer);
	if (t->kind == RSP_TRANSPORT_TCP)
		return tcp_read(t, buf, cap, got, timeout_ms, err);
	for (;;) {
		if (br_interrupt_signal() != 0)
			return br_interrupt_error(err);
		ssize_t n = read_some(t, buf, cap);
		if (n > 0) {
			*got = (size_t)n;
			return BR_OK;
		}
		if (n == 0 && t->kind == RSP_TRANSPORT_TCP)
			return br_error_set(err, BR_ERR_INFRA,
			                    "%s: the server closed the connection", t->peer);
		if (n < 0 && errno == EINTR)
			continue;
		/* A raw tty with VMIN 0 answers 0 when it has nothing: not an end. */
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return br_error_set(err, BR_ERR_INFRA, "%s: read failed: %s", t->peer,
			                    strerror(errno));
		int left = br_clock_remaining_ms(deadline);
		if (left == 0)
			return br_error_set(err, BR_ERR_TIMEOUT, "%s: no answer within %d ms",
			                    t->peer, timeout_ms);
		int r = rsp_transport_fd_wait(t->fd, POLLIN, left);
		if (r == 0)
			return br_error_set(err, BR_ERR_TIMEOUT, "%s: no answer within %d ms",
			                    t->peer, timeout_ms);
		if (r > 0 && t->kind == RSP_TRANSPORT_SERIAL) {
			struct pollfd p = {.fd = t->fd, .events = POLLIN};
			if (poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR)) != 0 &&
			    (p.revents & POLLIN) == 0)
				return br_error_set(err, BR_ERR_INFRA,
				                    "%s: the device hung up (probe unplugged?)",
				                    t->peer);
		}
	}
}

bool rsp_transport_is_open(const rsp_transport_t *t)
{
	return t->fd >= 0;
}

void rsp_transport_close(rsp_transport_t *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
