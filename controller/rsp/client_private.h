/*
 * The RSP client's state, private to rsp/ (client.c, and the white-box unit
 * tests of tests/unit/rsp): everything else holds an rsp_client_t pointer
 * and uses rsp/client.h's functions.
 */
#ifndef BENCHRACK_RSP_CLIENT_PRIVATE_H
#define BENCHRACK_RSP_CLIENT_PRIVATE_H

#include "rsp/client.h"

struct rsp_client {
	rsp_transport_t transport;
	rsp_decoder_t decoder;
	rsp_features_t features;
	bool no_ack;      /* QStartNoAckMode accepted */
	bool broken;      /* a timeout or loss ended the session */
	bool out_of_step; /* a pipeline of reads lost a reply: only rsp_client_sync now */
	br_error_t broken_reason;
	int timeout_ms;        /* per reply, unless a call names its own */
	uint32_t sync_address; /* readable memory for the resync marker */
	unsigned stale;        /* replies that may still come for resent requests */
	size_t stale_read_len; /* bytes asked by the last resent m, or 0 */
	unsigned unacked;      /* packets written whose '+' has not come */
	unsigned nak_resends;  /* NAK resends of the packet in tx */
	/* Ack mode: acknowledge a packet with the next write instead of a write
	 * of its own (the '+' then leads that write). Only for servers that do
	 * not wait for acknowledgements (QEMU in system mode): one system call
	 * and one server wake-up less per halt. */
	bool defer_acks;
	bool ack_owed;
	int stop_linger_ms; /* rsp_client_set_stop_linger; 0: off */
	uint8_t rx[65536];  /* bytes read but not yet fed: a round of pipelined
	                     * bulk replies fits (rsp_transport_expect) */
	size_t rx_len, rx_pos;
	char *tx; /* tx[0] room for an owed '+'; from tx + 1 the last
	             framed packet(s), kept for a resend */
	size_t tx_len, tx_cap;
	char *reply; /* last reply payload, NUL-terminated */
	size_t reply_len;
	rsp_client_counters_t counters;
};

#endif
