/*
 * The RSP client: one connection to a gdbserver, framing, acknowledgement and
 * resend, capability negotiation. It owns its buffers (no shared static
 * packet buffer) and knows nothing about targets: target/ builds on it.
 *
 * Acknowledgements (GDB manual, "Overview"): a packet is framed once and kept
 * until its '+' arrives. A '-' sends it again (at most RSP_CLIENT_RESEND_LIMIT
 * times). A reply that arrives where the '+' was due is the acknowledgement
 * (the '+' was lost). When neither an acknowledgement nor any other byte
 * comes within RSP_CLIENT_ACK_WINDOW_MS, a request that is harmless to repeat
 * (rsp/request.h) is sent again; because the first copy may have arrived after
 * all, a second reply may follow, so the client then resynchronises before its
 * next request: it reads a marker (a memory read of 8 or 12 bytes, whichever
 * the resent request did not ask, at rsp_client_set_sync_address) and drops
 * every reply up to the marker's.
 *
 * Timeouts: every request has one (the client's default or the caller's).
 * A reply that does not come in time ends the session: every later call fails
 * at once with the first error, so a late reply can never be taken for the
 * answer to the next request (replies never shift by one). OpenOCD's empty
 * 'O' packets and '%' notifications (%oocd_keepalive) prove the server is
 * busy, not dead: each restarts the wait, up to RSP_CLIENT_BUSY_FACTOR times
 * the timeout in total.
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
/* How many times one packet is sent again after a NAK, a damaged reply (no-ack
 * mode) or a missing acknowledgement. */
#define RSP_CLIENT_RESEND_LIMIT 3
/* How long a request waits for its first answering byte before a repeatable
 * request is sent again. */
#define RSP_CLIENT_ACK_WINDOW_MS 1000
/* Keepalives stretch a wait to at most this many timeouts. */
#define RSP_CLIENT_BUSY_FACTOR 20
/* The largest reply this client accepts, whatever the server advertises. */
#define RSP_CLIENT_MAX_REPLY 65536U
/* The largest reply one pipelined request may have (a register, a counter). */
#define RSP_PIPELINE_REPLY_MAX 64U
/* The most unaccounted replies rsp_client_sync drops before its own. */
#define RSP_CLIENT_SYNC_DROP_MAX 16U
/* The most requests rsp_client_pipeline_each carries in one write. */
#define RSP_PIPELINE_EACH_MAX 16U

typedef struct rsp_client_counters {
	unsigned long packets_sent;
	unsigned long packets_received;
	unsigned long resends;       /* packets sent again after a NAK */
	unsigned long ack_resends;   /* requests sent again after no answer at all */
	unsigned long rerequests;    /* requests sent again after a damaged reply (no-ack) */
	unsigned long naks_sent;     /* replies refused for a bad checksum */
	unsigned long notifications; /* %... packets skipped (OpenOCD keepalives) */
	unsigned long keepalives;    /* empty 'O' packets skipped */
	unsigned long garbage_bytes; /* bytes between packets that started nothing */
	unsigned long implicit_acks; /* replies that arrived where an ack was due */
	unsigned long resyncs;       /* marker exchanges after an ambiguous resend */
	unsigned long stale_dropped; /* duplicate replies dropped by a resync */
	unsigned long write_calls;   /* write system calls (pipelining shows here) */
	unsigned long reread_rounds; /* bulk-read rounds read again after a resync */
} rsp_client_counters_t;

/* One connection's state: private to rsp/ (rsp/client_private.h); callers
 * hold a pointer from rsp_client_open and use the functions below. */
typedef struct rsp_client rsp_client_t;

/* One reply of a pipeline, copied out of the client. */
typedef struct rsp_pipeline_reply {
	char text[RSP_PIPELINE_REPLY_MAX + 1];
	size_t len;
} rsp_pipeline_reply_t;

/*
 * A new client that takes over an open transport (the client closes it),
 * with its buffers; the caller owns it and ends it with rsp_client_close.
 * Does not talk to the server: call rsp_client_negotiate next.
 */
rsp_client_t *rsp_client_open(const rsp_transport_t *transport);

/* Closes the connection and frees the client and its buffers; c may be
 * NULL. */
void rsp_client_close(rsp_client_t *c);

/* What the server offered in qSupported (after rsp_client_negotiate). */
const rsp_features_t *rsp_client_features(const rsp_client_t *c);

/* Whether no-ack mode is on (QStartNoAckMode accepted). */
bool rsp_client_no_ack(const rsp_client_t *c);

/* What the client has sent, received, resent and dropped so far. */
const rsp_client_counters_t *rsp_client_counters(const rsp_client_t *c);

/* Counts a round of bulk reads read again after a resync, and a reply
 * dropped as stale while looking for a stop reply (the target layer does
 * both; the counts go with the client's own). */
void rsp_client_count_reread_round(rsp_client_t *c);
void rsp_client_count_stale_dropped(rsp_client_t *c);

/* The reply timeout of a request that names none, in ms
 * (RSP_CLIENT_DEFAULT_TIMEOUT_MS until set). */
int rsp_client_timeout(const rsp_client_t *c);
void rsp_client_set_timeout(rsp_client_t *c, int ms);

/* Readable memory for the resync marker (a memory read the server answers
 * at any time: the CPUID register on a Cortex-M). */
void rsp_client_set_sync_address(rsp_client_t *c, uint32_t address);

/* Ack mode: acknowledge a packet with the next write instead of a write of
 * its own (the '+' then leads that write). Only for servers that do not
 * wait for acknowledgements (QEMU in system mode). Off until set. */
void rsp_client_set_defer_acks(rsp_client_t *c, bool on);

/* How many replies may still come for requests sent again (a resync is due
 * before the next request when not 0). */
unsigned rsp_client_stale(const rsp_client_t *c);

/* Whether a pipeline of reads lost a reply: only rsp_client_sync may be
 * called until it has put the replies back in step. */
bool rsp_client_out_of_step(const rsp_client_t *c);

/* Why a timeout or loss ended the session; NULL while it is usable that
 * far (rsp_client_usable may still be false after rsp_client_end). */
const br_error_t *rsp_client_broken_reason(const rsp_client_t *c);

/*
 * A pipeline that ends with a resume (last_resumes) waits up to ms for the
 * stop reply as well as for its replies, in the same read, so a prompt stop
 * costs no wake-up of its own; the stop stays buffered for the next receive.
 * A stop later than ms delays the replies by ms at most. 0 (the default)
 * turns it off. Callers that must answer something in time while the core
 * runs (guard halts) keep ms well below that time.
 */
void rsp_client_set_stop_linger(rsp_client_t *c, int ms);

/*
 * Sends qSupported, records the server's features (PacketSize caps every later
 * packet) and switches to no-ack mode when offered. Returns BR_OK or an error.
 */
br_status_t rsp_client_negotiate(rsp_client_t *c, br_error_t *err);

/*
 * Frames and writes one packet (payload may be binary: it is escaped). Does
 * not wait: the acknowledgement is taken by the next receive (a NAK then
 * sends the packet again). Used for packets whose answer comes later or never
 * (c, s, a File-I/O reply). Resynchronises first if an earlier resend left a
 * reply possibly pending.
 */
br_status_t rsp_client_send(rsp_client_t *c, const void *payload, size_t len, br_error_t *err);

/*
 * Waits up to timeout_ms for the next packet, acknowledges it (NAKs and waits
 * again on a damaged one), skips notifications and empty 'O' keepalives, and
 * returns its payload in *payload (owned by the client, valid until the next
 * call) and *len. A timeout ends the session.
 */
br_status_t rsp_client_receive(rsp_client_t *c, int timeout_ms, const char **payload, size_t *len,
                               br_error_t *err);

/*
 * rsp_client_receive for a wait that may rightly hear nothing (a target that
 * runs on): when not one byte arrives within timeout_ms, BR_ERR_TIMEOUT with
 * the session intact. Once a packet has begun, the client's own timeout
 * applies and its expiry ends the session as in rsp_client_receive.
 */
br_status_t rsp_client_poll(rsp_client_t *c, int timeout_ms, const char **payload, size_t *len,
                            br_error_t *err);

/*
 * Puts the reply stream back in step after replies the caller could not
 * account for (an extra one, a missing one, a pipeline a NAK broke): reads
 * 8 bytes at address, whose contents the caller knows (bytes, len >= 8: a
 * part of the loaded image), and drops every reply until that read's own,
 * at most RSP_CLIENT_SYNC_DROP_MAX of them (counted in stale_dropped). NAKs
 * and damaged packets meanwhile are ignored (they belong to what is dropped);
 * when no answer comes within RSP_CLIENT_ACK_WINDOW_MS, the read is asked
 * again with 12 and then 16 bytes (as len allows), so a late reply of an
 * earlier attempt can never pass for a later one's. A length no other
 * request uses makes the reply after it the next request's own. Failure
 * ends the session.
 */
br_status_t rsp_client_sync(rsp_client_t *c, uint32_t address, const uint8_t *bytes, size_t len,
                            br_error_t *err);

/*
 * One request and its reply: sends len bytes of payload, waits up to
 * timeout_ms (0: the client's timeout) for the reply, with every resend rule
 * at the top of this file. *reply is owned by the client until the next call.
 */
br_status_t rsp_client_request(rsp_client_t *c, const void *payload, size_t len, int timeout_ms,
                               const char **reply, size_t *reply_len, br_error_t *err);

/* rsp_client_request of a NUL-terminated request with the client's timeout. */
br_status_t rsp_client_transact(rsp_client_t *c, const char *request, const char **reply,
                                size_t *reply_len, br_error_t *err);

/* Receives one pipelined reply (payload owned by the client until the next
 * call); a status other than BR_OK stops the pipeline. */
typedef br_status_t (*rsp_reply_fn)(void *ctx, size_t index, const char *reply, size_t len,
                                    br_error_t *err);

/*
 * Writes count (at most RSP_PIPELINE_EACH_MAX) NUL-terminated requests back
 * to back in a single write, then receives the replies of the first count -
 * (last_resumes ? 1 : 0) of them, in order, each handed to on_reply as it
 * comes (any length up to the client's limit). With last_resumes the final
 * request is a resume (c, s) whose stop reply the caller awaits with
 * rsp_client_receive or rsp_client_poll; replies that arrive after it was
 * sent are not acknowledged (a byte sent to a running QEMU stops it), so the
 * caller uses this in ack mode only with a server that does not wait for
 * acknowledgements. A monitor request's (qRcmd) console packets (O + hex)
 * come before its own reply: each is handed to on_reply under the
 * request's index, then the final one (OK, E nn). When on_reply refuses a reply before the last,
 * the replies still due would answer later requests: the session ends. In a pipeline of two or more
 * requests without a resume, a NAK or a damaged reply is not repaired (a NAK makes a server resend
 * its last reply, not the damaged one): BR_ERR_PROTOCOL with out_of_step set, and every call but
 * rsp_client_sync is refused until the caller has put the stream back in
 * step with it.
 */
br_status_t rsp_client_pipeline_each(rsp_client_t *c, const char *const *requests, size_t count,
                                     bool last_resumes, rsp_reply_fn on_reply, void *ctx,
                                     br_error_t *err);

/*
 * rsp_client_pipeline_each led by the interrupt byte 0x03, all in the one
 * write, to a running target: for a server that stops the target on the
 * interrupt before it reads the next byte, and that drops an interrupt which
 * finds the target already stopped (QEMU's gdbstub; debug/flavour.h,
 * packets_follow_interrupt). Exactly one stop reply then comes first (the
 * interrupt's, or the one the target sent when it stopped by itself): it is
 * on_reply's index 0, the requests' replies are 1, 2, ... Not for a server
 * that waits for a stop before it reads packets: the GDB manual allows only
 * the interrupt while the target runs. Refused (BR_ERR_USAGE, nothing sent)
 * while a resent request may still be answered: the resync that puts the
 * replies back in step needs a stopped target.
 */
br_status_t rsp_client_interrupt_pipeline_each(rsp_client_t *c, const char *const *requests,
                                               size_t count, bool last_resumes,
                                               rsp_reply_fn on_reply, void *ctx, br_error_t *err);

/*
 * Sends the single interrupt byte 0x03 (no framing, no ack), asking a running
 * target to stop; the stop reply comes later through rsp_client_receive.
 */
br_status_t rsp_client_interrupt(rsp_client_t *c, br_error_t *err);

/* The largest payload a request may carry: PacketSize minus framing. */
size_t rsp_client_max_payload(const rsp_client_t *c);

/*
 * Records that the server ended the session (a W or X stop reply: the
 * program it debugged is gone): every later call fails with "session ended
 * earlier: " and why's message, nothing more is sent, and
 * rsp_client_usable answers false. The transport stays open until
 * rsp_client_close. why is copied.
 */
void rsp_client_end(rsp_client_t *c, const br_error_t *why);

/* Whether the session is still usable (no timeout or loss has ended it);
 * false for NULL. */
bool rsp_client_usable(const rsp_client_t *c);

#endif
