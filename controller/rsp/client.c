#include "rsp/client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "rsp/packet.h"
#include "rsp/protocol.h"

/* What we tell the server we support in qSupported (GDB manual, "General Query Packets"). */
#define RSP_CLIENT_FEATURES "qSupported:swbreak+;hwbreak+"


static br_status_t client_fail(rsp_client_t *c, br_error_t *err)
{
	/* A session that lost a reply is over: remember why, refuse what follows. */
	c->broken = true;
	c->broken_reason = *err;
	return err->status;
}

static br_status_t client_check(const rsp_client_t *c, br_error_t *err)
{
	if (!c->broken)
		return BR_OK;
	return br_error_set(err, c->broken_reason.status, "session ended earlier: %s",
			    c->broken_reason.message);
}

void rsp_client_init(rsp_client_t *c, const rsp_transport_t *transport)
{
	memset(c, 0, sizeof(*c));
	c->transport = *transport;
	c->timeout_ms = RSP_CLIENT_DEFAULT_TIMEOUT_MS;
	rsp_decoder_init(&c->decoder, RSP_CLIENT_MAX_REPLY);
	rsp_features_init(&c->features);
	c->tx_cap = 2U * RSP_CLIENT_MAX_REPLY + RSP_FRAME_OVERHEAD;
	c->tx = xmalloc(c->tx_cap);
	c->reply = xmalloc(RSP_CLIENT_MAX_REPLY + 1U);
	c->reply[0] = '\0';
}

void rsp_client_close(rsp_client_t *c)
{
	rsp_transport_close(&c->transport);
	rsp_decoder_free(&c->decoder);
	free(c->tx);
	free(c->reply);
	c->tx = NULL;
	c->reply = NULL;
}

size_t rsp_client_max_payload(const rsp_client_t *c)
{
	size_t size = c->features.packet_size;
	if (size > RSP_CLIENT_MAX_REPLY)
		size = RSP_CLIENT_MAX_REPLY;
	return size > RSP_FRAME_OVERHEAD ? size - RSP_FRAME_OVERHEAD : 1U;
}

/* Next decoder event from buffered or fresh bytes, waiting until deadline. */
static br_status_t client_next_event(rsp_client_t *c, int timeout_ms, rsp_event_t *event,
				     br_error_t *err)
{
	for (;;) {
		while (c->rx_pos < c->rx_len) {
			rsp_event_t ev = rsp_decoder_feed(&c->decoder, c->rx[c->rx_pos++]);
			if (ev == RSP_EVENT_NONE)
				continue;
			if (ev == RSP_EVENT_GARBAGE) {
				c->counters.garbage_bytes++;
				continue;
			}
			*event = ev;
			return BR_OK;
		}
		size_t got = 0;
		br_status_t st = rsp_transport_read(&c->transport, c->rx, sizeof(c->rx), &got,
						    timeout_ms, err);
		if (st != BR_OK)
			return st;
		c->rx_len = got;
		c->rx_pos = 0;
	}
}

static br_status_t client_write_raw(rsp_client_t *c, const void *buf, size_t len, br_error_t *err)
{
	return rsp_transport_write(&c->transport, buf, len, c->timeout_ms, err);
}

/* Keeps the decoded payload of the packet just completed as the pending reply. */
static void client_keep_reply(rsp_client_t *c)
{
	size_t len = 0;
	const char *p = rsp_decoder_payload(&c->decoder, &len);
	memcpy(c->reply, p, len);
	c->reply[len] = '\0';
	c->reply_len = len;
	c->counters.packets_received++;
}

br_status_t rsp_client_send(rsp_client_t *c, const void *payload, size_t len, br_error_t *err)
{
	br_status_t st = client_check(c, err);
	if (st != BR_OK)
		return st;
	size_t framed = rsp_packet_encode(payload, len, c->tx, c->tx_cap);
	if (framed == 0)
		return br_error_set(err, BR_ERR_PROTOCOL, "request of %zu bytes does not fit a packet",
				    len);
	for (int attempt = 0; attempt <= RSP_CLIENT_RESEND_LIMIT; attempt++) {
		if (attempt > 0)
			c->counters.resends++;
		st = client_write_raw(c, c->tx, framed, err);
		if (st != BR_OK)
			return client_fail(c, err);
		c->counters.packets_sent++;
		if (c->no_ack)
			return BR_OK;
		for (;;) {
			rsp_event_t ev;
			st = client_next_event(c, c->timeout_ms, &ev, err);
			if (st != BR_OK) {
				br_error_prefix(err, "waiting for the acknowledgement of '%.16s'",
						(const char *)payload);
				return client_fail(c, err);
			}
			if (ev == RSP_EVENT_ACK)
				return BR_OK;
			if (ev == RSP_EVENT_NAK)
				break; /* send again */
			if (ev == RSP_EVENT_PACKET) {
				/* The ack was lost but the reply came: the server got the request. */
				client_keep_reply(c);
				c->reply_pending = true;
				c->counters.implicit_acks++;
				static const char ack = RSP_ACK;
				st = client_write_raw(c, &ack, 1, err);
				if (st != BR_OK)
					return client_fail(c, err);
				return BR_OK;
			}
			if (ev == RSP_EVENT_NOTIFICATION)
				c->counters.notifications++;
			/* other events while waiting for an ack carry nothing for us */
		}
	}
	br_error_set(err, BR_ERR_PROTOCOL, "the server refused '%.16s' %d times (NAK)",
		     (const char *)payload, RSP_CLIENT_RESEND_LIMIT + 1);
	return client_fail(c, err);
}

br_status_t rsp_client_receive(rsp_client_t *c, int timeout_ms, const char **payload, size_t *len,
			       br_error_t *err)
{
	br_status_t st = client_check(c, err);
	if (st != BR_OK)
		return st;
	if (c->reply_pending) {
		c->reply_pending = false;
		*payload = c->reply;
		*len = c->reply_len;
		return BR_OK;
	}
	int bad = 0;
	for (;;) {
		rsp_event_t ev;
		st = client_next_event(c, timeout_ms, &ev, err);
		if (st != BR_OK)
			return client_fail(c, err);
		switch (ev) {
		case RSP_EVENT_PACKET: {
			client_keep_reply(c);
			if (!c->no_ack) {
				static const char ack = RSP_ACK;
				st = client_write_raw(c, &ack, 1, err);
				if (st != BR_OK)
					return client_fail(c, err);
			}
			*payload = c->reply;
			*len = c->reply_len;
			return BR_OK;
		}
		case RSP_EVENT_BAD_CHECKSUM:
		case RSP_EVENT_OVERSIZE:
		case RSP_EVENT_BAD_RUNLENGTH:
		case RSP_EVENT_BAD_ESCAPE: {
			if (c->no_ack || ++bad > RSP_CLIENT_RESEND_LIMIT) {
				br_error_set(err, BR_ERR_PROTOCOL,
					     "%s: reply damaged %d times (bad checksum or framing)",
					     c->transport.peer, bad);
				return client_fail(c, err);
			}
			static const char nak = RSP_NAK;
			c->counters.naks_sent++;
			st = client_write_raw(c, &nak, 1, err);
			if (st != BR_OK)
				return client_fail(c, err);
			break;
		}
		case RSP_EVENT_NOTIFICATION:
			c->counters.notifications++;
			break;
		default:
			break; /* stray acks, interrupts: nothing to answer */
		}
	}
}

br_status_t rsp_client_transact(rsp_client_t *c, const char *request, const char **reply,
				size_t *reply_len, br_error_t *err)
{
	br_status_t st = rsp_client_send(c, request, strlen(request), err);
	if (st != BR_OK)
		return st;
	return rsp_client_receive(c, c->timeout_ms, reply, reply_len, err);
}

br_status_t rsp_client_interrupt(rsp_client_t *c, br_error_t *err)
{
	br_status_t st = client_check(c, err);
	if (st != BR_OK)
		return st;
	static const char intr = RSP_INTERRUPT;
	st = client_write_raw(c, &intr, 1, err);
	if (st != BR_OK)
		return client_fail(c, err);
	return BR_OK;
}

br_status_t rsp_client_negotiate(rsp_client_t *c, br_error_t *err)
{
	const char *reply;
	size_t len;
	br_status_t st = rsp_client_transact(c, RSP_CLIENT_FEATURES, &reply, &len, err);
	if (st != BR_OK)
		return br_error_prefix(err, "qSupported");
	st = rsp_features_parse(reply, len, &c->features, err);
	if (st != BR_OK)
		return st;
	if (c->features.no_ack_mode) {
		st = rsp_client_transact(c, "QStartNoAckMode", &reply, &len, err);
		if (st != BR_OK)
			return st;
		if (strcmp(reply, "OK") == 0)
			c->no_ack = true;
	}
	return BR_OK;
}
