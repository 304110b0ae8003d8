/*
 * The byte pipe under the RSP client: a file descriptor (a TCP socket to a
 * gdbserver, or a serial device for a Black Magic Probe) with deadline-bounded
 * reads and writes. Nothing here knows about packets.
 *
 * transport.c holds what every kind shares (read, write, close);
 * transport_tcp.c and transport_serial.c each open one kind.
 */
#ifndef BENCHRACK_RSP_TRANSPORT_H
#define BENCHRACK_RSP_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Black Magic Probe's USB serial port ignores the line rate; a real UART
 * bridge needs one, and 115200 is what such bridges default to. */
#define RSP_SERIAL_DEFAULT_BAUD 115200U

typedef enum rsp_transport_kind {
	RSP_TRANSPORT_TCP,    /* a socket: send/recv without SIGPIPE */
	RSP_TRANSPORT_SERIAL, /* a character device in raw mode: read/write */
} rsp_transport_kind_t;

/* The longest one blocking recv or send on a TCP transport waits before its
 * deadline is looked at again: the precision of every TCP timeout. */
#define RSP_TRANSPORT_SLICE_MS 20

/* Sets fd's receive and send timeouts (SO_RCVTIMEO, SO_SNDTIMEO) to ms
 * (>= 1). Returns 0, or -1 with errno. */
int rsp_transport_set_timeouts(int fd, int ms);

typedef struct rsp_transport {
	int fd;             /* -1 when closed; serial: non-blocking; TCP: blocking, every wait
	                       bounded by its receive and send timeouts (rcv_timeout_ms) */
	int rcv_timeout_ms; /* TCP: SO_RCVTIMEO as last set */
	size_t expect;      /* bytes the next reads are known to bring at least; 0: unknown */
	size_t expect_more; /* bytes that may follow them soon (rsp_transport_expect_more) */
	int more_ms;        /* how long the next read waits for expect_more */
	size_t rcv_lowat;   /* TCP: SO_RCVLOWAT as last set (0: never set, the kernel's 1) */
	bool expect_off;    /* an expected count once did not come (a server that
	                       compresses replies, an error reply): hints ignored */
	rsp_transport_kind_t kind;
	char peer[128]; /* "127.0.0.1:1234" or a device path, for messages */
} rsp_transport_t;

/*
 * Connects to host:port over TCP, trying every address getaddrinfo returns,
 * and sets TCP_NODELAY (RSP is a ping-pong of small packets: Nagle would add
 * up to 40 ms per exchange). Gives up after timeout_ms per attempt.
 * On success fills t and returns BR_OK; otherwise BR_ERR_INFRA with the reason.
 */
br_status_t rsp_transport_tcp_connect(rsp_transport_t *t, const char *host, uint16_t port,
                                      int timeout_ms, br_error_t *err);

/*
 * Connects like rsp_transport_tcp_connect, retrying refused connections until
 * deadline_ms (milliseconds from now) has passed: readiness of a server that
 * was just launched, without sleeping a fixed time. alive(ctx), when not NULL,
 * is asked between attempts and stops the wait early when it returns false
 * (the launched server died); its reason is then the caller's to report.
 */
br_status_t rsp_transport_tcp_connect_retry(rsp_transport_t *t, const char *host, uint16_t port,
                                            int deadline_ms, int (*alive)(void *ctx), void *ctx,
                                            br_error_t *err);

/*
 * Splits "HOST:PORT" (or "[v6]:PORT") into host (cap bytes) and *port.
 * Returns BR_OK, or BR_ERR_USAGE naming what is wrong.
 */
br_status_t rsp_transport_parse_hostport(const char *text, char *host, size_t cap, uint16_t *port,
                                         br_error_t *err);

/*
 * Opens the serial device path (e.g. /dev/ttyACM0, or a pty) in raw mode:
 * 8 data bits, no parity, one stop bit, no flow control, no echo, no line
 * editing, at baud bits per second (0: RSP_SERIAL_DEFAULT_BAUD), and drops
 * whatever was waiting in its buffers. On success fills t; otherwise
 * BR_ERR_INFRA with the reason (missing device, permission, not a tty).
 */
br_status_t rsp_transport_serial_open(rsp_transport_t *t, const char *path, unsigned baud,
                                      br_error_t *err);

/*
 * Writes all len bytes, waiting at most timeout_ms in total.
 * Returns BR_OK, BR_ERR_TIMEOUT, or BR_ERR_INFRA (connection lost).
 */
br_status_t rsp_transport_write(rsp_transport_t *t, const void *buf, size_t len, int timeout_ms,
                                br_error_t *err);

/*
 * Reads what is available (at least one byte, at most cap) within timeout_ms.
 * Returns BR_OK with *got > 0, BR_ERR_TIMEOUT when nothing arrived in time,
 * or BR_ERR_INFRA when the peer closed the connection or a read failed.
 */
br_status_t rsp_transport_read(rsp_transport_t *t, void *buf, size_t cap, size_t *got,
                               int timeout_ms, br_error_t *err);

/*
 * Tells the transport that at least bytes more are on their way (0: not
 * known). A TCP read then returns when that many have come (SO_RCVLOWAT),
 * or what has come when a slice of RSP_TRANSPORT_SLICE_MS passes: a
 * pipelined round's replies wake the reader once, not once per segment
 * (each wake-up is a context switch, on the host the server shares). The
 * first read that ends a slice short of its count turns hints off for the
 * connection (a server that run-length encodes replies sends fewer bytes):
 * one slice lost at most. A serial transport ignores it.
 */
void rsp_transport_expect(rsp_transport_t *t, size_t bytes);

/*
 * After rsp_transport_expect: bytes more may follow soon (a stop reply after
 * the replies of the requests before a continue), within_ms (>= 1). The
 * next TCP read waits for both, at most within_ms, and returns what has come
 * then; whether they came or not, only that read waits for them, and its
 * coming short never turns hints off. So replies and a prompt stop wake the
 * reader once; a late stop delays the replies by within_ms at most.
 * rsp_transport_expect drops it. A serial transport ignores it.
 */
void rsp_transport_expect_more(rsp_transport_t *t, size_t bytes, int within_ms);

/* Whether the transport is open. */
bool rsp_transport_is_open(const rsp_transport_t *t);

/* Closes the descriptor if open. Safe to call twice. */
void rsp_transport_close(rsp_transport_t *t);

/*
 * Waits up to timeout_ms (-1: for ever) for events (POLLIN, POLLOUT) on fd,
 * resuming after a signal. Returns poll()'s answer: > 0 ready, 0 timed out,
 * < 0 an error (errno says which). For the transports' own files.
 */
int rsp_transport_fd_wait(int fd, short events, int timeout_ms);

#endif
