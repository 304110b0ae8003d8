#include "rsp/client.h"
#include "rsp/client_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "rsp/console.h"
#include "rsp/hex.h"
#include "rsp/packet.h"
#include "rsp/protocol.h"
#include "rsp/request.h"

/* What we tell the server we support in qSupported (GDB manual, "General Query Packets"). */
#define RSP_CLIENT_FEATURES "qSupported:swbreak+;hwbreak+;multiprocess+"
/* The most console packets a pipelined monitor request's answer may bring
 * before its final reply (QEMU sends one per line). */
#define RSP_CLIENT_CONSOLE_MAX 64U
/* An empty console packet: OpenOCD's "still busy" while it works. */
#define RSP_KEEPALIVE "O"
/* Resync marker lengths (bytes): whole words (debug registers such as CPUID
 * need word accesses), never a register's 4 bytes; the one not used by the
 * resent read is taken, so a duplicate reply can never look like the marker's. */
#define RSP_SYNC_LEN_A 8U
#define RSP_SYNC_LEN_B 12U
#define RSP_SYNC_LEN_C 16U
/* The shortest reply to a register read: a 32-bit register's hex digits. */
#define RSP_REGISTER_REPLY_MIN 8U
/* The shortest stop reply's payload: a letter and a two-digit code ("S05"). */
#define RSP_STOP_REPLY_MIN 3U

/* How a wait for a packet ended, besides errors. */
typedef struct client_wait {
	int64_t deadline;      /* current end of the wait (keepalives move it) */
	int64_t hard_deadline; /* keepalives never move it past this */
	int64_t window;        /* resend a silent request at this time; 0: never */
	int timeout_ms;
	bool ack_reply;      /* acknowledge the packet (ack mode) */
	bool poll;           /* only a begun packet ends the window (not a '+') */
	bool window_expired; /* out: the window passed in silence */
	bool damaged;        /* out: no-ack mode, the reply was damaged */
	bool sync;           /* rsp_client_sync: NAKs and damaged replies belong to
	                        what is being dropped; ignore them */
	bool in_step_lost;   /* a pipeline of reads: a NAK or a damaged reply is
	                        returned (out_of_step set), not repaired */
} client_wait_t;

/* err's status; BR_ERR_INFRA when the caller passed no context (cleanup
 * paths do: a server that died must not crash them). */
static br_status_t status_of(const br_error_t *err)
{
	return err != NULL ? err->status : BR_ERR_INFRA;
}

static br_status_t client_fail(rsp_client_t *c, br_error_t *err)
{
	/* A session that lost a reply is over: remember why, refuse what follows. */
	if (!c->broken) {
		c->broken = true;
		if (err != NULL)
			c->broken_reason = *err;
		else
			br_error_set(&c->broken_reason, BR_ERR_INFRA, "%s: the session broke",
			             c->transport.peer);
	}
	return status_of(err);
}

static br_status_t client_check(const rsp_client_t *c, br_error_t *err)
{
	if (!c->broken && c->out_of_step)
		return br_error_set(err, BR_ERR_PROTOCOL,
		                    "%s: the replies are out of step: put them back in step "
		                    "(rsp_client_sync) first",
		                    c->transport.peer);
	if (!c->broken)
		return BR_OK;
	return br_error_set(err, c->broken_reason.status, "session ended earlier: %s",
	                    c->broken_reason.message);
}

rsp_client_t *rsp_client_open(const rsp_transport_t *transport)
{
	rsp_client_t *c = xcalloc(1, sizeof(*c));
	c->transport = *transport;
	c->timeout_ms = RSP_CLIENT_DEFAULT_TIMEOUT_MS;
	rsp_decoder_init(&c->decoder, RSP_CLIENT_MAX_REPLY);
	rsp_features_init(&c->features);
	c->tx_cap = 2U * RSP_CLIENT_MAX_REPLY + RSP_FRAME_OVERHEAD;
	c->tx = xmalloc(c->tx_cap + 1U);
	c->reply = xmalloc(RSP_CLIENT_MAX_REPLY + 1U);
	c->reply[0] = '\0';
	return c;
}

void rsp_client_close(rsp_client_t *c)
{
	if (c == NULL)
		return;
	rsp_transport_close(&c->transport);
	rsp_decoder_free(&c->decoder);
	free(c->tx);
	free(c->reply);
	free(c);
}

const rsp_features_t *rsp_client_features(const rsp_client_t *c)
{
	return &c->features;
}

bool rsp_client_no_ack(const rsp_client_t *c)
{
	return c->no_ack;
}

const rsp_client_counters_t *rsp_client_counters(const rsp_client_t *c)
{
	return &c->counters;
}

void rsp_client_count_reread_round(rsp_client_t *c)
{
	c->counters.reread_rounds++;
}

void rsp_client_count_stale_dropped(rsp_client_t *c)
{
	c->counters.stale_dropped++;
}

int rsp_client_timeout(const rsp_client_t *c)
{
	return c->timeout_ms;
}

void rsp_client_set_timeout(rsp_client_t *c, int ms)
{
	c->timeout_ms = ms;
}

void rsp_client_set_sync_address(rsp_client_t *c, uint32_t address)
{
	c->sync_address = address;
}

void rsp_client_set_defer_acks(rsp_client_t *c, bool on)
{
	c->defer_acks = on;
}

unsigned rsp_client_stale(const rsp_client_t *c)
{
	return c->stale;
}

bool rsp_client_out_of_step(const rsp_client_t *c)
{
	return c->out_of_step;
}

const br_error_t *rsp_client_broken_reason(const rsp_client_t *c)
{
	return c->broken ? &c->broken_reason : NULL;
}

void rsp_client_end(rsp_client_t *c, const br_error_t *why)
{
	br_error_t copy = *why;
	client_fail(c, &copy);
}

bool rsp_client_usable(const rsp_client_t *c)
{
	return c != NULL && !c->broken && rsp_transport_is_open(&c->transport);
}

size_t rsp_client_max_payload(const rsp_client_t *c)
{
	size_t size = c->features.packet_size;
	if (size > RSP_CLIENT_MAX_REPLY)
		size = RSP_CLIENT_MAX_REPLY;
	return size > RSP_FRAME_OVERHEAD ? size - RSP_FRAME_OVERHEAD : 1U;
}

static br_status_t client_write_raw(rsp_client_t *c, const void *buf, size_t len, br_error_t *err)
{
	c->counters.write_calls++;
	br_status_t st = rsp_transport_write(&c->transport, buf, len, c->timeout_ms, err);
	if (st != BR_OK)
		return client_fail(c, err);
	return BR_OK;
}

static br_status_t client_write_byte(rsp_client_t *c, char byte, br_error_t *err)
{
	return client_write_raw(c, &byte, 1, err);
}

/* Acknowledges the packet just received: now, or with the next write. */
static br_status_t client_ack(rsp_client_t *c, br_error_t *err)
{
	if (c->defer_acks) {
		c->ack_owed = true;
		return BR_OK;
	}
	return client_write_byte(c, RSP_ACK, err);
}

/* Writes the len framed bytes at tx + 1, led by an owed '+'. */
static br_status_t client_write_frames(rsp_client_t *c, size_t len, br_error_t *err)
{
	if (c->ack_owed) {
		c->ack_owed = false;
		c->tx[0] = RSP_ACK;
		return client_write_raw(c, c->tx, len + 1U, err);
	}
	return client_write_raw(c, c->tx + 1, len, err);
}

/* Frames payload into tx (replacing what was there). */
static br_status_t client_frame(rsp_client_t *c, const void *payload, size_t len, br_error_t *err)
{
	size_t framed = rsp_packet_encode(payload, len, c->tx + 1, c->tx_cap);
	if (framed == 0 || framed - RSP_FRAME_OVERHEAD > rsp_client_max_payload(c))
		return br_error_set(
		    err, BR_ERR_PROTOCOL,
		    "a request of %zu bytes does not fit the server's packets (%zu)", len,
		    rsp_client_max_payload(c));
	c->tx_len = framed;
	return BR_OK;
}

/* Writes the packet framed in tx: a fresh one (resets the NAK budget) or a resend. */
static br_status_t client_write_tx(rsp_client_t *c, bool fresh, br_error_t *err)
{
	if (fresh)
		c->nak_resends = 0;
	br_status_t st = client_write_frames(c, c->tx_len, err);
	if (st != BR_OK)
		return st;
	c->counters.packets_sent++;
	if (!c->no_ack)
		c->unacked++;
	return BR_OK;
}

/* Keeps the decoded payload of the packet just completed as the reply. */
static void client_keep_reply(rsp_client_t *c)
{
	size_t len = 0;
	const char *p = rsp_decoder_payload(&c->decoder, &len);
	memcpy(c->reply, p, len);
	c->reply[len] = '\0';
	c->reply_len = len;
	c->counters.packets_received++;
}

/* Moves the wait's deadline after a sign of life, never past the hard one. */
static void client_busy(client_wait_t *w)
{
	int64_t next = br_clock_ms() + w->timeout_ms;
	w->deadline = next < w->hard_deadline ? next : w->hard_deadline;
}

static void client_wait_init(const rsp_client_t *c, client_wait_t *w, int timeout_ms)
{
	memset(w, 0, sizeof(*w));
	w->timeout_ms = timeout_ms > 0 ? timeout_ms : c->timeout_ms;
	int64_t now = br_clock_ms();
	w->deadline = now + w->timeout_ms;
	w->hard_deadline = now + (int64_t)w->timeout_ms * RSP_CLIENT_BUSY_FACTOR;
	w->ack_reply = true;
}

/* A NAK while waiting: resends the one packet it can mean. Returns true to
 * end the wait with *st. */
static bool client_nak(rsp_client_t *c, const client_wait_t *w, br_error_t *err, br_status_t *st)
{
	/* Only the one packet in tx can be meant; a pipeline cannot be
	 * repaired (the server has run what followed). */
	if (w->sync)
		return false;
	if (w->in_step_lost) {
		c->out_of_step = true;
		*st =
		    br_error_set(err, BR_ERR_PROTOCOL,
		                 "%s: the server refused a packet (NAK) inside a pipeline of reads",
		                 c->transport.peer);
		return true;
	}
	if (c->unacked != 1 || c->tx_len == 0 || c->nak_resends >= RSP_CLIENT_RESEND_LIMIT) {
		br_error_set(err, BR_ERR_PROTOCOL, "%s: the server refused a packet (NAK) %s",
		             c->transport.peer,
		             c->unacked != 1 ? "inside a pipeline" : "too many times");
		*st = client_fail(c, err);
		return true;
	}
	c->nak_resends++;
	c->counters.resends++;
	c->unacked = 0;
	if (client_write_tx(c, false, err) != BR_OK) {
		*st = status_of(err);
		return true;
	}
	return false;
}

/* A whole packet while waiting: acked as the mode asks; a keepalive moves
 * the deadline and the wait goes on (false), a reply is kept (true, *st
 * BR_OK). */
static bool client_packet(rsp_client_t *c, client_wait_t *w, br_error_t *err, br_status_t *st)
{
	size_t len = 0;
	const char *p = rsp_decoder_payload(&c->decoder, &len);
	if (c->unacked > 0) {
		/* The '+' was lost, but the reply proves the request arrived. */
		c->counters.implicit_acks++;
		c->unacked = 0;
	}
	bool keepalive = len == 1U && p[0] == RSP_KEEPALIVE[0];
	if (!c->no_ack && w->ack_reply && client_ack(c, err) != BR_OK) {
		*st = status_of(err);
		return true;
	}
	if (keepalive) {
		c->counters.keepalives++;
		client_busy(w);
		return false;
	}
	client_keep_reply(c);
	*st = BR_OK;
	return true;
}

/* A damaged frame (the damaged-th of this wait): NAKed for a resend where
 * that can work. Returns true to end the wait with *st. */
static bool client_damaged(rsp_client_t *c, client_wait_t *w, int damaged, br_error_t *err,
                           br_status_t *st)
{
	if (w->sync)
		return false;
	if (w->in_step_lost) {
		/* A NAK would have the server resend its last reply, not this one. */
		c->out_of_step = true;
		*st =
		    br_error_set(err, BR_ERR_PROTOCOL,
		                 "%s: damaged reply inside a pipeline of reads", c->transport.peer);
		return true;
	}
	if (c->no_ack) {
		w->damaged = true;
		*st =
		    br_error_set(err, BR_ERR_PROTOCOL,
		                 "%s: damaged reply (bad checksum or framing)", c->transport.peer);
		return true;
	}
	if (!w->ack_reply || damaged > RSP_CLIENT_RESEND_LIMIT) {
		br_error_set(
		    err, BR_ERR_PROTOCOL, "%s: reply damaged %d times (bad checksum or framing)%s",
		    c->transport.peer, damaged, w->ack_reply ? "" : " while the target ran");
		*st = client_fail(c, err);
		return true;
	}
	c->counters.naks_sent++;
	if (client_write_byte(c, RSP_NAK, err) != BR_OK) {
		*st = status_of(err);
		return true;
	}
	return false;
}

/*
 * Feeds buffered and fresh bytes to the decoder until a packet completes.
 * Handles acks, NAKs (resending tx), notifications and keepalives. Returns
 * BR_OK with the packet in c->reply; BR_ERR_TIMEOUT with w->window_expired
 * when the resend window passed with nothing received (session intact); in
 * no-ack mode BR_ERR_PROTOCOL with w->damaged for a damaged frame (session
 * intact); any other error ends the session.
 */
static br_status_t client_wait_packet(rsp_client_t *c, client_wait_t *w, br_error_t *err)
{
	int damaged = 0;
	bool heard = false;
	br_status_t end = BR_OK; /* how the wait ends, when a helper says it does */
	for (;;) {
		while (c->rx_pos < c->rx_len) {
			c->rx_pos += rsp_decoder_feed_plain(&c->decoder, c->rx + c->rx_pos,
			                                    c->rx_len - c->rx_pos);
			if (c->rx_pos == c->rx_len)
				break;
			rsp_event_t ev = rsp_decoder_feed(&c->decoder, c->rx[c->rx_pos++]);
			switch (ev) {
			case RSP_EVENT_NONE:
				continue;
			case RSP_EVENT_GARBAGE:
				c->counters.garbage_bytes++;
				continue;
			case RSP_EVENT_ACK:
				if (c->unacked > 0)
					c->unacked--;
				continue;
			case RSP_EVENT_NAK:
				if (client_nak(c, w, err, &end))
					return end;
				continue;
			case RSP_EVENT_NOTIFICATION:
				c->counters.notifications++;
				client_busy(w);
				continue;
			case RSP_EVENT_PACKET:
				if (client_packet(c, w, err, &end))
					return end;
				continue;
			case RSP_EVENT_BAD_CHECKSUM:
			case RSP_EVENT_OVERSIZE:
			case RSP_EVENT_BAD_RUNLENGTH:
			case RSP_EVENT_BAD_ESCAPE:
				damaged++;
				if (client_damaged(c, w, damaged, err, &end))
					return end;
				continue;
			case RSP_EVENT_INTERRUPT:
				continue; /* a server never sends this; nothing to answer */
			}
		}
		if (w->poll)
			heard = rsp_decoder_in_frame(&c->decoder);
		int64_t now = br_clock_ms();
		int64_t until = w->deadline;
		if (w->window != 0 && !heard && w->window < until)
			until = w->window;
		int left = until > now ? (int)(until - now) : 0;
		size_t got = 0;
		br_status_t st = BR_ERR_TIMEOUT;
		if (left > 0)
			st = rsp_transport_read(&c->transport, c->rx, sizeof(c->rx), &got, left,
			                        err);
		if (st == BR_OK) {
			heard = true;
			c->rx_len = got;
			c->rx_pos = 0;
			continue;
		}
		if (st == BR_ERR_TIMEOUT && w->window != 0 && !heard &&
		    br_clock_ms() < w->deadline) {
			w->window_expired = true;
			return br_error_set(err, BR_ERR_TIMEOUT, "%s: no answer",
			                    c->transport.peer);
		}
		if (st == BR_ERR_TIMEOUT)
			br_error_set(err, BR_ERR_TIMEOUT, "%s: no answer within %d ms",
			             c->transport.peer, w->timeout_ms);
		return client_fail(c, err);
	}
}

/* Whether a reply is the resync marker's: exactly 2 * n hex digits. */
static bool is_marker_reply(const char *reply, size_t len, size_t n)
{
	if (len != 2U * n)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (rsp_hex_digit_value((unsigned char)reply[i]) < 0)
			return false;
	}
	return true;
}

/*
 * After a resend, the first copy may still be answered. Reads a marker and
 * drops every reply before the marker's: the next request then gets its own
 * reply. The marker itself is never resent, so no stale marker reply exists.
 */
static br_status_t client_resync(rsp_client_t *c, br_error_t *err)
{
	size_t n = c->stale_read_len == RSP_SYNC_LEN_A ? RSP_SYNC_LEN_B : RSP_SYNC_LEN_A;
	char req[32];
	int rlen = snprintf(req, sizeof(req), "m%x,%zx", c->sync_address, n);
	c->counters.resyncs++;
	unsigned allowed = c->stale + 1U;
	c->stale = 0;
	br_status_t st = client_frame(c, req, (size_t)rlen, err);
	if (st == BR_OK)
		st = client_write_tx(c, true, err);
	if (st != BR_OK)
		return client_fail(c, err);
	for (unsigned i = 0; i < allowed + 1U; i++) {
		client_wait_t w;
		client_wait_init(c, &w, 0);
		st = client_wait_packet(c, &w, err);
		if (st != BR_OK) {
			br_error_prefix(err, "resynchronising after a resend");
			return client_fail(c, err);
		}
		if (is_marker_reply(c->reply, c->reply_len, n))
			return BR_OK;
		c->counters.stale_dropped++;
	}
	br_error_set(err, BR_ERR_PROTOCOL,
	             "%s: lost step with the server (no marker after %u replies)",
	             c->transport.peer, allowed + 1U);
	return client_fail(c, err);
}

/* The byte count of an m request ("m<addr>,<len>"), or 0 for any other. */
static size_t read_length(const void *payload, size_t len)
{
	const char *p = payload;
	const char *end = p + len;
	const char *comma = len > 0 && p[0] == 'm' ? memchr(p, RSP_ARG_SEPARATOR, len) : NULL;
	uint32_t n = 0;
	if (comma == NULL)
		return 0;
	comma++;
	return rsp_hex_u32(&comma, end, &n) ? n : 0U;
}

/* Frames and writes a request, resynchronising first when needed. */
static br_status_t client_send_request(rsp_client_t *c, const void *payload, size_t len,
                                       br_error_t *err)
{
	br_status_t st = client_check(c, err);
	if (st != BR_OK)
		return st;
	if (c->stale > 0) {
		st = client_resync(c, err);
		if (st != BR_OK)
			return st;
	}
	c->unacked = 0;
	st = client_frame(c, payload, len, err);
	if (st != BR_OK)
		return st;
	return client_write_tx(c, true, err);
}

br_status_t rsp_client_send(rsp_client_t *c, const void *payload, size_t len, br_error_t *err)
{
	return client_send_request(c, payload, len, err);
}

/* Waits as w says for the next packet and hands out its payload. A poll's
 * silent window is BR_ERR_TIMEOUT with the session intact; any other failure
 * ends the session. */
static br_status_t client_receive(rsp_client_t *c, client_wait_t *w, const char **payload,
                                  size_t *len, br_error_t *err)
{
	br_status_t st = client_wait_packet(c, w, err);
	if (st == BR_ERR_TIMEOUT && w->poll && w->window_expired && !c->broken)
		return st;
	if (st != BR_OK)
		return client_fail(c, err);
	*payload = c->reply;
	*len = c->reply_len;
	return BR_OK;
}

/* The next packet: within timeout_ms, or for a poll, silence until then is
 * BR_ERR_TIMEOUT with the session intact (a begun packet gets the client's
 * own timeout). */
static br_status_t client_next(rsp_client_t *c, int timeout_ms, bool poll, const char **payload,
                               size_t *len, br_error_t *err)
{
	br_status_t st = client_check(c, err);
	if (st != BR_OK)
		return st;
	client_wait_t w;
	client_wait_init(c, &w, poll ? 0 : timeout_ms);
	if (poll) {
		w.window = br_clock_ms() + (timeout_ms > 0 ? timeout_ms : 1);
		w.deadline = w.window + w.timeout_ms;
		w.hard_deadline = w.deadline + (int64_t)w.timeout_ms * RSP_CLIENT_BUSY_FACTOR;
		w.poll = true;
	}
	return client_receive(c, &w, payload, len, err);
}

br_status_t rsp_client_receive(rsp_client_t *c, int timeout_ms, const char **payload, size_t *len,
                               br_error_t *err)
{
	return client_next(c, timeout_ms, false, payload, len, err);
}

br_status_t rsp_client_poll(rsp_client_t *c, int timeout_ms, const char **payload, size_t *len,
                            br_error_t *err)
{
	return client_next(c, timeout_ms, true, payload, len, err);
}

br_status_t rsp_client_sync(rsp_client_t *c, uint32_t address, const uint8_t *bytes, size_t len,
                            br_error_t *err)
{
	c->out_of_step = false;
	br_status_t st = client_check(c, err);
	if (st != BR_OK)
		return st;
	c->counters.resyncs++;
	c->stale = 0;
	/* Attempts of RSP_SYNC_LEN_A, RSP_SYNC_LEN_B, then RSP_SYNC_LEN_C bytes:
	 * a reply of an earlier attempt can never match a later one. */
	static const size_t lengths[] = {RSP_SYNC_LEN_A, RSP_SYNC_LEN_B, RSP_SYNC_LEN_C};
	unsigned dropped = 0;
	for (size_t a = 0; a < sizeof(lengths) / sizeof(lengths[0]) && lengths[a] <= len; a++) {
		char request[32];
		char expected[2U * RSP_SYNC_LEN_C + 1U];
		int rlen = snprintf(request, sizeof(request), "m%x,%zx", address, lengths[a]);
		rsp_hex_encode(bytes, lengths[a], expected, sizeof(expected));
		size_t want = 2U * lengths[a];
		c->unacked = 0;
		st = client_frame(c, request, (size_t)rlen, err);
		if (st == BR_OK)
			st = client_write_tx(c, true, err);
		if (st != BR_OK)
			return client_fail(c, err);
		for (;;) {
			client_wait_t w;
			client_wait_init(c, &w, 0);
			w.window = br_clock_ms() + RSP_CLIENT_ACK_WINDOW_MS;
			w.deadline = w.window + w.timeout_ms;
			w.poll = true;
			w.sync = true;
			st = client_wait_packet(c, &w, err);
			if (st == BR_ERR_TIMEOUT && w.window_expired && !c->broken)
				break; /* this attempt was lost: the next, of another length */
			if (st != BR_OK) {
				br_error_prefix(err, "putting the replies back in step");
				return client_fail(c, err);
			}
			if (c->reply_len == want && memcmp(c->reply, expected, want) == 0)
				return BR_OK;
			c->counters.stale_dropped++;
			if (++dropped > RSP_CLIENT_SYNC_DROP_MAX) {
				br_error_set(err, BR_ERR_PROTOCOL,
				             "%s: lost step with the server (no marker reply after "
				             "%u others)",
				             c->transport.peer, RSP_CLIENT_SYNC_DROP_MAX);
				return client_fail(c, err);
			}
		}
	}
	br_error_set(err, BR_ERR_PROTOCOL,
	             "%s: lost step with the server (no answer to the marker read)",
	             c->transport.peer);
	return client_fail(c, err);
}

br_status_t rsp_client_request(rsp_client_t *c, const void *payload, size_t len, int timeout_ms,
                               const char **reply, size_t *reply_len, br_error_t *err)
{
	bool replayable = rsp_request_is_replayable(payload, len);
	br_status_t st = client_send_request(c, payload, len, err);
	if (st != BR_OK)
		return st;
	unsigned resent = 0;
	client_wait_t w;
	client_wait_init(c, &w, timeout_ms);
	for (;;) {
		w.window = replayable && resent < RSP_CLIENT_RESEND_LIMIT
		               ? br_clock_ms() + (RSP_CLIENT_ACK_WINDOW_MS < w.timeout_ms
		                                      ? RSP_CLIENT_ACK_WINDOW_MS
		                                      : w.timeout_ms / 2)
		               : 0;
		w.window_expired = false;
		w.damaged = false;
		st = client_wait_packet(c, &w, err);
		if (st == BR_OK)
			break;
		if (c->broken || !(w.window_expired || (w.damaged && replayable)) ||
		    resent >= RSP_CLIENT_RESEND_LIMIT) {
			br_error_prefix(err, "request '%.24s'", (const char *)payload);
			return client_fail(c, err);
		}
		/* Silence, or a damaged reply in no-ack mode: ask again. The first
		 * copy may still be answered, so resync before the next request. */
		resent++;
		if (w.window_expired)
			c->counters.ack_resends++;
		else
			c->counters.rerequests++;
		c->stale++;
		c->stale_read_len = read_length(payload, len);
		c->unacked = 0;
		st = client_write_tx(c, true, err);
		if (st != BR_OK)
			return st;
	}
	*reply = c->reply;
	*reply_len = c->reply_len;
	return BR_OK;
}

void rsp_client_set_stop_linger(rsp_client_t *c, int ms)
{
	c->stop_linger_ms = ms > 0 ? ms : 0;
}

br_status_t rsp_client_transact(rsp_client_t *c, const char *request, const char **reply,
                                size_t *reply_len, br_error_t *err)
{
	return rsp_client_request(c, request, strlen(request), 0, reply, reply_len, err);
}

/* The fewest bytes request's reply can take when it is what was asked: a
 * read ("mADDR,LEN") brings 2 * LEN hex digits, a register read ("pN") at
 * least a 32-bit register's 8, a breakpoint change (z, Z) "OK", anything
 * else at least an empty frame. A shorter reply (an error, a request not
 * supported) only costs its reader one wait of RSP_TRANSPORT_SLICE_MS, or of
 * a stop's linger. Memory writes (M, X) are counted as an empty frame: with
 * their "OK" counted too, the bulk benchmark's rounds of 15 pipelined fills
 * measured a third slower on QEMU 7.2 (72-79 -> 105-113 us per packet, in
 * alternating runs), for a reason not found. */
static size_t reply_min_bytes(const char *request)
{
	size_t bytes = RSP_FRAME_OVERHEAD;
	if (request[0] == 'p')
		return bytes + RSP_REGISTER_REPLY_MIN;
	if (request[0] == 'z' || request[0] == 'Z')
		return bytes + sizeof("OK") - 1U;
	if (rsp_request_is_monitor(request)) /* its console text, if any, is extra */
		return bytes + sizeof("OK") - 1U;
	const char *comma = request[0] == 'm' ? strchr(request, ',') : NULL;
	if (comma != NULL) {
		char *end = NULL;
		unsigned long len = strtoul(comma + 1, &end, 16);
		if (end != comma + 1 && *end == '\0' && len <= RSP_CLIENT_MAX_REPLY / 2U)
			bytes += 2U * (size_t)len;
	}
	return bytes;
}

/* Tells the transport how many bytes the replies still due bring at least:
 * the acknowledgements and each reply's fewest (reply_min_bytes), less what
 * is already read; the stop reply first when interrupt_first. */
static void pipeline_expect(rsp_client_t *c, bool interrupt_first, const char *const *requests,
                            size_t count, size_t replies)
{
	size_t bytes = c->no_ack ? 0U : count;
	if (interrupt_first)
		bytes += RSP_FRAME_OVERHEAD;
	for (size_t i = 0; i < replies && i < count; i++)
		bytes += reply_min_bytes(requests[i]);
	size_t buffered = c->rx_len - c->rx_pos;
	rsp_transport_expect(&c->transport, bytes > buffered ? bytes - buffered : 0U);
}

static br_status_t pipeline_replies(rsp_client_t *c, bool interrupt_first,
                                    const char *const *requests, size_t count, size_t expect,
                                    bool last_resumes, rsp_reply_fn on_reply, void *ctx,
                                    br_error_t *err);

/* rsp_client_pipeline_each, led by the interrupt byte when interrupt_first
 * (rsp_client_interrupt_pipeline_each): its stop reply is reply 0. */
static br_status_t pipeline_run(rsp_client_t *c, bool interrupt_first, const char *const *requests,
                                size_t count, bool last_resumes, rsp_reply_fn on_reply, void *ctx,
                                br_error_t *err)
{
	br_status_t st = client_check(c, err);
	if (st != BR_OK)
		return st;
	if (count == 0 || count > RSP_PIPELINE_EACH_MAX)
		return br_error_set(err, BR_ERR_USAGE, "a pipeline holds 1 to %u requests",
		                    RSP_PIPELINE_EACH_MAX);
	if (c->stale > 0 && interrupt_first)
		return br_error_set(err, BR_ERR_USAGE,
		                    "%s: a resent request may still be answered: stop the target "
		                    "and put the replies back in step before reading in one write",
		                    c->transport.peer);
	if (c->stale > 0) {
		st = client_resync(c, err);
		if (st != BR_OK)
			return st;
	}
	/* All frames in tx, one write. */
	size_t used = 0;
	for (size_t i = 0; i < count; i++) {
		size_t len = strlen(requests[i]);
		size_t framed =
		    rsp_packet_encode(requests[i], len, c->tx + 1 + used, c->tx_cap - used);
		if (framed == 0 || framed - RSP_FRAME_OVERHEAD > rsp_client_max_payload(c))
			return br_error_set(err, BR_ERR_PROTOCOL, "pipelined request too long");
		used += framed;
	}
	c->tx_len = used;
	c->unacked = 0;
	if (interrupt_first) {
		/* The interrupt takes the place of an owed '+' (a '+' would stop
		 * the target just as well, then the 0x03 would find it stopped). */
		c->ack_owed = false;
		c->tx[0] = (char)RSP_INTERRUPT;
		st = client_write_raw(c, c->tx, used + 1U, err);
	} else {
		st = client_write_frames(c, used, err);
	}
	if (st != BR_OK)
		return st;
	c->counters.packets_sent += count;
	if (!c->no_ack)
		c->unacked = (unsigned)count;
	c->tx_len = 0; /* a NAK now cannot be repaired */
	size_t expect = (last_resumes ? count - 1U : count) + (interrupt_first ? 1U : 0U);
	pipeline_expect(c, interrupt_first, requests, count, last_resumes ? count - 1U : count);
	if (last_resumes && c->stop_linger_ms > 0)
		rsp_transport_expect_more(&c->transport, RSP_FRAME_OVERHEAD + RSP_STOP_REPLY_MIN,
		                          c->stop_linger_ms);
	st = pipeline_replies(c, interrupt_first, requests, count, expect, last_resumes, on_reply,
	                      ctx, err);
	rsp_transport_expect(&c->transport, 0);
	return st;
}

/* pipeline_run's replies: expect of them, each handed to on_reply. */
static br_status_t pipeline_replies(rsp_client_t *c, bool interrupt_first,
                                    const char *const *requests, size_t count, size_t expect,
                                    bool last_resumes, rsp_reply_fn on_reply, void *ctx,
                                    br_error_t *err)
{
	br_status_t st = BR_OK;
	unsigned consoles = 0;
	for (size_t i = 0; i < expect; i++) {
		client_wait_t w;
		client_wait_init(c, &w, 0);
		w.ack_reply = !last_resumes;
		w.in_step_lost = !last_resumes && count > 1U;
		st = client_wait_packet(c, &w, err);
		if (st != BR_OK && c->out_of_step)
			return st;
		if (st != BR_OK) {
			br_error_prefix(err, "pipelined request '%.24s'", requests[i]);
			return client_fail(c, err);
		}
		/* Each reply acknowledges its own request (and the lost '+'s before);
		 * the stop reply, none. */
		size_t answered = interrupt_first ? i : i + 1U;
		if (answered > 0)
			c->unacked = (unsigned)(count - answered);
		st = on_reply(ctx, i, c->reply, c->reply_len, err);
		if (st != BR_OK) {
			/* The replies still due would answer the next requests. */
			if (i + 1U < expect)
				client_fail(c, err);
			return st;
		}
		/* A monitor command's console text comes before its own reply. */
		size_t asked = interrupt_first ? i - 1U : i;
		if ((!interrupt_first || i > 0) && rsp_request_is_monitor(requests[asked]) &&
		    rsp_reply_is_console(c->reply, c->reply_len)) {
			if (++consoles > RSP_CLIENT_CONSOLE_MAX) {
				br_error_set(
				    err, BR_ERR_PROTOCOL,
				    "monitor request '%.24s': more than %u console packets",
				    requests[asked], RSP_CLIENT_CONSOLE_MAX);
				return client_fail(c, err);
			}
			i--;
		}
	}
	return BR_OK;
}

br_status_t rsp_client_pipeline_each(rsp_client_t *c, const char *const *requests, size_t count,
                                     bool last_resumes, rsp_reply_fn on_reply, void *ctx,
                                     br_error_t *err)
{
	return pipeline_run(c, false, requests, count, last_resumes, on_reply, ctx, err);
}

br_status_t rsp_client_interrupt_pipeline_each(rsp_client_t *c, const char *const *requests,
                                               size_t count, bool last_resumes,
                                               rsp_reply_fn on_reply, void *ctx, br_error_t *err)
{
	return pipeline_run(c, true, requests, count, last_resumes, on_reply, ctx, err);
}

br_status_t rsp_client_interrupt(rsp_client_t *c, br_error_t *err)
{
	br_status_t st = client_check(c, err);
	if (st != BR_OK)
		return st;
	/* A '+' after the resume would stop QEMU just as well; drop it. */
	c->ack_owed = false;
	return client_write_byte(c, (char)RSP_INTERRUPT, err);
}

/* A stop reply ("S05", "T02thread:p01.01;"): QEMU sends one unasked when a
 * client connects to a running machine (its gdbstub stops the VM and says so). */
static bool looks_like_stop_reply(const char *reply, size_t len)
{
	return len >= 3U && (reply[0] == 'S' || reply[0] == 'T') &&
	       rsp_hex_digit_value((unsigned char)reply[1]) >= 0 &&
	       rsp_hex_digit_value((unsigned char)reply[2]) >= 0;
}

/* How many unasked stop replies may come before the answer to qSupported. */
#define RSP_CLIENT_STALE_STOPS_MAX 2

br_status_t rsp_client_negotiate(rsp_client_t *c, br_error_t *err)
{
	const char *reply;
	size_t len;
	br_status_t st = rsp_client_transact(c, RSP_CLIENT_FEATURES, &reply, &len, err);
	/* A stop reply cannot answer qSupported: it was sent before we asked. */
	for (int i = 0;
	     st == BR_OK && i < RSP_CLIENT_STALE_STOPS_MAX && looks_like_stop_reply(reply, len);
	     i++)
		st = rsp_client_receive(c, c->timeout_ms, &reply, &len, err);
	if (st != BR_OK)
		return br_error_prefix(err, "qSupported");
	st = rsp_features_parse(reply, len, &c->features, err);
	if (st != BR_OK)
		return st;
	if (c->features.no_ack_mode) {
		st = rsp_client_transact(c, "QStartNoAckMode", &reply, &len, err);
		if (st != BR_OK)
			return st;
		if (strcmp(reply, "OK") == 0) {
			c->no_ack = true;
			c->unacked = 0;
		}
	}
	return BR_OK;
}
