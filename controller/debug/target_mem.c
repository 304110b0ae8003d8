/*
 * Memory access in chunks the server accepts (GDB manual, "Packets": m, M, X,
 * and qCRC in "General Query Packets").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "rsp/hex.h"
#include "rsp/packet.h"
#include "rsp/quote.h"
#include "debug/target.h"
#include "debug/target_private.h"

/* Room for "M" or "X", 8 address digits, ',', 8 length digits and ':'. */
#define TARGET_MEM_HEADER_BYTES 20U

void br_target_read_packet(char *buf, size_t cap, uint32_t address, size_t len)
{
	const uint64_t values[] = {address, len};
	rsp_hex_request('m', values, 2, buf, cap);
}

br_status_t br_target_read_reply(const char *reply, size_t rlen, uint32_t address, size_t n,
                                 uint8_t *out, br_error_t *err)
{
	const char *cursor = reply;
	if (rlen == 2U * n && rsp_hex_bytes(&cursor, reply + rlen, out, n))
		return BR_OK;
	char q[RSP_QUOTE_BUFFER_BYTES];
	rsp_quote(reply, rlen, q, sizeof(q));
	if (rlen >= 1U && reply[0] == 'E')
		return br_error_set(err, BR_ERR_TARGET,
		                    "reading %zu bytes at 0x%08x failed: the server answered %s "
		                    "(no memory there, or the bus faulted)",
		                    n, address, q);
	return br_error_set(err, BR_ERR_PROTOCOL, "reading %zu bytes at 0x%08x: malformed reply %s",
	                    n, address, q);
}

br_status_t br_target_write_reply(const char *reply, size_t rlen, uint32_t address, size_t n,
                                  br_error_t *err)
{
	if (rlen == 2U && memcmp(reply, "OK", 2) == 0)
		return BR_OK;
	char q[RSP_QUOTE_BUFFER_BYTES];
	rsp_quote(reply, rlen, q, sizeof(q));
	if (rlen >= 1U && reply[0] == 'E')
		return br_error_set(err, BR_ERR_TARGET,
		                    "writing %zu bytes at 0x%08x failed: the server answered %s", n,
		                    address, q);
	return br_error_set(err, BR_ERR_PROTOCOL,
	                    "writing %zu bytes at 0x%08x: unexpected reply %s", n, address, q);
}

/* The most bytes one m may ask for here. */
static size_t read_chunk_bytes(const br_target_t *t)
{
	size_t chunk = rsp_client_max_payload(t->rsp) / RSP_HEX_PER_BYTE;
	if (t->flavour->max_read_bytes != 0 && chunk > t->flavour->max_read_bytes)
		chunk = t->flavour->max_read_bytes;
	return chunk > 0 ? chunk : 1U;
}

/* n, shortened by one when its reply would have the length the server breaks. */
static size_t avoid_broken_length(const br_target_t *t, size_t n)
{
	uint32_t broken = t->flavour->broken_reply_chars;
	if (broken != 0U && n * RSP_HEX_PER_BYTE == broken && n > 1U)
		return n - 1U;
	return n;
}

size_t br_target_read_chunk_len(const br_target_t *t, size_t left)
{
	size_t chunk = read_chunk_bytes(t);
	return avoid_broken_length(t, left < chunk ? left : chunk);
}

/* One round of a bulk read (or fill): up to TARGET_MEM_IN_FLIGHT chunks and the marker. */
typedef struct read_round {
	uint32_t address[RSP_PIPELINE_EACH_MAX];
	size_t n[RSP_PIPELINE_EACH_MAX];
	uint8_t *out[RSP_PIPELINE_EACH_MAX];
	size_t chunks;
	bool marker; /* the last request reads the marker word */
	uint8_t marker_word[BR_TARGET_MARKER_WORD];
	bool failed;        /* a reply did not decode: error holds the first */
	bool one_at_a_time; /* after a damaged pipeline: each request alone (NAKs repaired) */
	bool fill;          /* a fill: chunk i is an M of n[i] bytes of fill_value; out unused */
	uint8_t fill_value;
	br_error_t error;
} read_round_t;

/* Chunks of a bulk read in flight at once (one write), the marker read after them:
 * enough that the server never waits for the host between two of them. */
#define TARGET_MEM_IN_FLIGHT (RSP_PIPELINE_EACH_MAX - 1U)
/* Rounds read again after replies fell out of step. */
#define TARGET_MEM_ATTEMPTS 3

/* Decodes one reply of a round; never stops the pipeline (the replies still
 * due would answer later requests): a failure is noted for after it. */
static br_status_t read_round_reply(void *ctx, size_t i, const char *reply, size_t len,
                                    br_error_t *err)
{
	(void)err;
	read_round_t *r = ctx;
	if (i < r->chunks && r->fill) {
		br_error_t e;
		if (br_target_write_reply(reply, len, r->address[i], r->n[i], &e) == BR_OK)
			return BR_OK;
		if (!r->failed)
			r->error = e;
		r->failed = true;
		return BR_OK;
	}
	br_status_t st = i < r->chunks ? br_target_read_reply(reply, len, r->address[i], r->n[i],
	                                                      r->out[i], &r->error)
	                               : br_target_read_reply(reply, len, 0, BR_TARGET_MARKER_WORD,
	                                                      r->marker_word, &r->error);
	if (st != BR_OK)
		r->failed = true;
	return BR_OK;
}

/* Whether the round's marker read (if any) saw the marker: the stream is in step. */
static bool read_round_in_step(const br_target_t *t, const read_round_t *r)
{
	return !r->marker || memcmp(r->marker_word, t->marker, BR_TARGET_MARKER_WORD) == 0;
}

size_t br_target_fill_chunk(const br_target_t *t)
{
	size_t max_payload = rsp_client_max_payload(t->rsp);
	if (max_payload <= TARGET_MEM_HEADER_BYTES + RSP_HEX_PER_BYTE)
		return 0;
	return (max_payload - TARGET_MEM_HEADER_BYTES) / RSP_HEX_PER_BYTE;
}

char *br_target_fill_request(uint32_t address, uint8_t value, size_t n)
{
	size_t cap = TARGET_MEM_HEADER_BYTES + RSP_HEX_PER_BYTE * n + 1U;
	char *req = xmalloc(cap);
	size_t h = (size_t)snprintf(req, cap, "M%x,%zx:", address, n);
	const char pair[2] = {rsp_hex_digit(value >> 4), rsp_hex_digit(value)};
	for (size_t i = 0; i < n; i++)
		memcpy(req + h + RSP_HEX_PER_BYTE * i, pair, sizeof(pair));
	req[h + RSP_HEX_PER_BYTE * n] = '\0';
	return req;
}

static br_status_t read_round_send(br_target_t *t, read_round_t *r, const char *const *requests,
                                   size_t n, br_error_t *err);

/* One round: pipelined when the server allows, else one request at a time. */
static br_status_t read_round_run(br_target_t *t, read_round_t *r, br_error_t *err)
{
	char packets[RSP_PIPELINE_EACH_MAX][32];
	char *fills[RSP_PIPELINE_EACH_MAX] = {NULL};
	const char *requests[RSP_PIPELINE_EACH_MAX];
	size_t n = 0;
	for (size_t i = 0; i < r->chunks; i++, n++) {
		if (r->fill)
			fills[i] = br_target_fill_request(r->address[i], r->fill_value, r->n[i]);
		else
			br_target_read_packet(packets[n], sizeof(packets[0]), r->address[i],
			                      r->n[i]);
	}
	if (r->marker)
		br_target_read_packet(packets[n++], sizeof(packets[0]), t->marker_address,
		                      BR_TARGET_MARKER_WORD);
	for (size_t i = 0; i < n; i++)
		requests[i] = i < r->chunks && fills[i] != NULL ? fills[i] : packets[i];
	br_status_t st = read_round_send(t, r, requests, n, err);
	for (size_t i = 0; i < r->chunks; i++)
		free(fills[i]);
	return st;
}

/* read_round_run's requests, written and their replies taken. */
static br_status_t read_round_send(br_target_t *t, read_round_t *r, const char *const *requests,
                                   size_t n, br_error_t *err)
{
	r->failed = false;
	/* Several in flight only with a marker: it is what puts a damaged
	 * pipeline's replies back in step. */
	if (!r->one_at_a_time && r->marker &&
	    (rsp_client_no_ack(t->rsp) || t->flavour->pipelines_in_ack_mode))
		return rsp_client_pipeline_each(t->rsp, requests, n, false, read_round_reply, r,
		                                err);
	for (size_t i = 0; i < n; i++) {
		const char *reply;
		size_t rlen;
		br_status_t st = rsp_client_transact(t->rsp, requests[i], &reply, &rlen, err);
		if (st != BR_OK)
			return st;
		read_round_reply(r, i, reply, rlen, err);
	}
	return BR_OK;
}

/* A round until its replies are proven in step (br_target_recover between). */
static br_status_t read_round_proven(br_target_t *t, read_round_t *r, br_error_t *err)
{
	for (int attempt = 1;; attempt++) {
		br_status_t st = read_round_run(t, r, err);
		bool lost = st != BR_OK && rsp_client_out_of_step(t->rsp);
		if (st != BR_OK && !lost)
			return st;
		bool in_step = !lost && read_round_in_step(t, r);
		if (in_step && !r->failed)
			return BR_OK;
		if (in_step || !r->marker || attempt >= TARGET_MEM_ATTEMPTS) {
			if (lost)
				return st;
			if (r->failed)
				return br_error_copy(err, &r->error);
			return br_error_set(err, BR_ERR_PROTOCOL,
			                    "%s 0x%08x: the replies stayed out of step after %d "
			                    "attempts",
			                    r->fill ? "writing" : "reading", r->address[0],
			                    attempt);
		}
		st = br_target_recover(t, t->marker_address, t->marker, t->marker_len,
		                       rsp_client_timeout(t->rsp), err);
		if (st != BR_OK)
			return st;
		rsp_client_count_reread_round(t->rsp);
		r->one_at_a_time = lost;
	}
}

br_status_t br_target_mem_read(br_target_t *t, uint32_t address, void *buf, size_t len,
                               br_error_t *err)
{
	uint8_t *out = buf;
	while (len > 0) {
		read_round_t r;
		memset(&r, 0, sizeof(r));
		r.marker = t->marker_len > 0 && !t->running;
		while (len > 0 && r.chunks < TARGET_MEM_IN_FLIGHT) {
			size_t n = br_target_read_chunk_len(t, len);
			r.address[r.chunks] = address;
			r.n[r.chunks] = n;
			r.out[r.chunks] = out;
			r.chunks++;
			out += n;
			address += (uint32_t)n;
			len -= n;
		}
		br_status_t st = read_round_proven(t, &r, err);
		if (st != BR_OK)
			return st;
	}
	return BR_OK;
}

br_status_t br_target_mem_fill(br_target_t *t, uint32_t address, uint8_t value, size_t len,
                               br_error_t *err)
{
	size_t chunk = br_target_fill_chunk(t);
	bool pipelined = t->marker_len > 0 && !t->running &&
	                 (rsp_client_no_ack(t->rsp) || t->flavour->pipelines_in_ack_mode) &&
	                 chunk > 0;
	if (!pipelined) {
		uint8_t *buf = xmalloc(len > 0 ? len : 1U);
		memset(buf, value, len);
		br_status_t st = br_target_mem_write(t, address, buf, len, err);
		free(buf);
		return st;
	}
	br_status_t st = BR_OK;
	while (st == BR_OK && len > 0) {
		read_round_t r;
		memset(&r, 0, sizeof(r));
		r.marker = true;
		r.fill = true;
		r.fill_value = value;
		while (len > 0 && r.chunks < TARGET_MEM_IN_FLIGHT) {
			size_t n = len < chunk ? len : chunk;
			r.address[r.chunks] = address;
			r.n[r.chunks] = n;
			r.chunks++;
			address += (uint32_t)n;
			len -= n;
		}
		st = read_round_proven(t, &r, err);
	}
	return st;
}

void br_target_set_marker(br_target_t *t, uint32_t address, const uint8_t *bytes, size_t len)
{
	if (len > sizeof(t->marker))
		len = sizeof(t->marker);
	t->marker_address = address;
	memcpy(t->marker, bytes, len);
	t->marker_len = len < BR_TARGET_MARKER_WORD ? 0U : len;
}

/* Asks once whether the server takes binary writes: an empty X (GDB manual:
 * "X addr,0:" probes for support). */
static br_status_t probe_x(br_target_t *t, uint32_t address, br_error_t *err)
{
	char req[32];
	snprintf(req, sizeof(req), "X%x,0:", address);
	const char *reply;
	size_t len;
	br_status_t st = rsp_client_transact(t->rsp, req, &reply, &len, err);
	if (st != BR_OK)
		return st;
	t->x_packet = (len == 2U && memcmp(reply, "OK", 2) == 0) ? 1 : 0;
	return BR_OK;
}

/* The most bytes of data that fit one X packet at the worst (every byte escaped). */
static size_t binary_chunk(size_t max_payload)
{
	return (max_payload - TARGET_MEM_HEADER_BYTES) / 2U;
}

br_status_t br_target_mem_write(br_target_t *t, uint32_t address, const void *buf, size_t len,
                                br_error_t *err)
{
	const uint8_t *in = buf;
	size_t max_payload = rsp_client_max_payload(t->rsp);
	if (max_payload <= TARGET_MEM_HEADER_BYTES + 2U)
		return br_error_set(err, BR_ERR_PROTOCOL, "packet size too small for a write");
	br_status_t st = BR_OK;
	if (t->x_packet < 0) {
		st = probe_x(t, address, err);
		if (st != BR_OK)
			return st;
	}
	bool binary = t->x_packet == 1;
	/* Binary data is escaped by rsp_packet_encode: at most twice its size. */
	size_t chunk = binary ? binary_chunk(max_payload)
	                      : (max_payload - TARGET_MEM_HEADER_BYTES) / RSP_HEX_PER_BYTE;
	char *packet = xmalloc(max_payload + 1U);
	while (len > 0) {
		size_t n = len < chunk ? len : chunk;
		int h =
		    snprintf(packet, max_payload + 1U, "%c%x,%zx:", binary ? 'X' : 'M', address, n);
		size_t plen;
		if (binary) {
			memcpy(packet + h, in, n);
			plen = (size_t)h + n;
		} else {
			rsp_hex_encode(in, n, packet + h, max_payload + 1U - (size_t)h);
			plen = (size_t)h + RSP_HEX_PER_BYTE * n;
		}
		const char *reply;
		size_t rlen;
		st = rsp_client_request(t->rsp, packet, plen, 0, &reply, &rlen, err);
		if (st != BR_OK)
			break;
		st = br_target_write_reply(reply, rlen, address, n, err);
		if (st != BR_OK)
			break;
		in += n;
		address += (uint32_t)n;
		len -= n;
	}
	free(packet);
	return st;
}

br_status_t br_target_read_u32(br_target_t *t, uint32_t address, uint32_t *value, br_error_t *err)
{
	uint8_t b[4];
	br_status_t st = br_target_mem_read(t, address, b, sizeof(b), err);
	if (st != BR_OK)
		return st;
	*value = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return BR_OK;
}

br_status_t br_target_write_u32(br_target_t *t, uint32_t address, uint32_t value, br_error_t *err)
{
	uint8_t b[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
	                (uint8_t)(value >> 24)};
	return br_target_mem_write(t, address, b, sizeof(b), err);
}

br_status_t br_target_mem_crc(br_target_t *t, uint32_t address, uint32_t len, uint32_t *crc,
                              br_error_t *err)
{
	if (t->qcrc_packet == 0)
		return br_error_set(err, BR_ERR_PROTOCOL, "the server does not offer qCRC");
	char req[40];
	snprintf(req, sizeof(req), "qCRC:%x,%x", address, len);
	const char *reply;
	size_t rlen;
	br_status_t st = rsp_client_transact(t->rsp, req, &reply, &rlen, err);
	if (st != BR_OK)
		return st;
	const char *cursor = reply + 1;
	if (rlen >= 2U && reply[0] == 'C' && rsp_hex_u32(&cursor, reply + rlen, crc) &&
	    cursor == reply + rlen) {
		t->qcrc_packet = 1;
		return BR_OK;
	}
	if (rlen == 0U) {
		t->qcrc_packet = 0;
		return br_error_set(err, BR_ERR_PROTOCOL, "the server does not offer qCRC");
	}
	char q[RSP_QUOTE_BUFFER_BYTES];
	return br_error_set(err, BR_ERR_TARGET, "qCRC of 0x%x bytes at 0x%08x: %s", len, address,
	                    rsp_quote(reply, rlen, q, sizeof(q)));
}
