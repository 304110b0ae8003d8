/*
 * The RSP client: one connection to a gdbserver, framing, acknowledgement and
 * resend, capability negotiation. It owns its buffers (no shared static
 * packet buffer) and knows nothing about targets: target/ builds on it.
 *
 * A reply that does not come in time ends the session: every later call
 * fails at once with the first error, so a late reply can never be taken for
 * the answer to the next request (replies never shift by one).
 */
#ifndef BENCHRACK_RSP_CLIENT_H
#define BENCHRACK_RSP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "rsp/decoder.h"
#include "rsp/qsupported.h"
#include "rsp/transport.h"

/* Per-request reply timeout unless the caller gives one. */
#define RSP_CLIENT_DEFAULT_TIMEOUT_MS 5000
/* How many times one packet is sent again after a NAK or a bad-checksum reply. */
#define RSP_CLIENT_RESEND_LIMIT 3
/* The largest reply this client accepts, whatever the server advertises. */
#define RSP_CLIENT_MAX_REPLY 65536U

typedef struct rsp_client_counters {
	unsigned long packets_sent;
	unsigned long packets_received;
	unsigned long resends;        /* packets sent again after a NAK */
	unsigned long naks_sent;      /* replies refused for a bad checksum */
	unsigned long notifications;  /* %... packets skipped (OpenOCD keepalives) */
	unsigned long garbage_bytes;  /* bytes between packets that started nothing */
	unsigned long implicit_acks;  /* replies that arrived where an ack was due */
} rsp_client_counters_t;

typedef struct rsp_client {
	rsp_transport_t transport;
	rsp_decoder_t decoder;
	rsp_features_t features;
	bool no_ack;           /* QStartNoAckMode accepted */
	bool broken;           /* a timeout or loss ended the session */
	br_error_t broken_reason;
	int timeout_ms;        /* per reply */
	uint8_t rx[4096];      /* bytes read but not yet fed */
	size_t rx_len, rx_pos;
	char *tx;              /* framed outgoing packet */
	size_t tx_cap;
	char *reply;           /* last reply payload, NUL-terminated */
	size_t reply_len;
	bool reply_pending;    /* a reply arrived before the ack it implied */
	rsp_client_counters_t counters;
} rsp_client_t;

/*
 * Takes over an open transport (the client closes it) and prepares buffers.
 * Does not talk to the server: call rsp_client_negotiate next.
 */
void rsp_client_init(rsp_client_t *c, const rsp_transport_t *transport);

/* Closes the connection and frees the buffers. */
void rsp_client_close(rsp_client_t *c);

/*
 * Sends qSupported, records the server's features (PacketSize caps every later
 * packet) and switches to no-ack mode when offered. Returns BR_OK or an error.
 */
br_status_t rsp_client_negotiate(rsp_client_t *c, br_error_t *err);

/*
 * Frames and sends one packet (payload may be binary: it is escaped) and waits
 * for its acknowledgement, sending it again on a NAK up to
 * RSP_CLIENT_RESEND_LIMIT times. In no-ack mode returns once written.
 */
br_status_t rsp_client_send(rsp_client_t *c, const void *payload, size_t len, br_error_t *err);

/*
 * Waits up to timeout_ms for the next packet, acknowledges it (NAKs and waits
 * again on a bad checksum), skips notifications, and returns its payload in
 * *payload (owned by the client, valid until the next call) and *len.
 */
br_status_t rsp_client_receive(rsp_client_t *c, int timeout_ms, const char **payload, size_t *len,
			       br_error_t *err);

/*
 * rsp_client_send of a NUL-terminated request, then rsp_client_receive with
 * the client's timeout. The usual request/reply exchange.
 */
br_status_t rsp_client_transact(rsp_client_t *c, const char *request, const char **reply,
				size_t *reply_len, br_error_t *err);

/*
 * Sends the single interrupt byte 0x03 (no framing, no ack), asking a running
 * target to stop; the stop reply comes later through rsp_client_receive.
 */
br_status_t rsp_client_interrupt(rsp_client_t *c, br_error_t *err);

/* The largest payload a request may carry: PacketSize minus framing. */
size_t rsp_client_max_payload(const rsp_client_t *c);

#endif
