/*
 * Fuzz target: the RSP push decoder fed arbitrary bytes. The first byte picks
 * the payload cap (fuzz_caps); the whole input, that byte included, is then
 * the byte stream. Invariants:
 *
 * - events agree with the frame state: ACK, NAK, INTERRUPT and GARBAGE only
 *   between frames, frame events only inside one; a payload exactly after
 *   frame events, NUL-terminated, never longer than the cap;
 * - a PACKET or NOTIFICATION really had a good checksum: the raw bytes of the
 *   input between its start character and '#' sum to the two digits after it,
 *   and contain no '$' or '#';
 * - re-encoding a decoded packet and decoding that gives the same payload,
 *   with no event before the last byte;
 * - whatever came before, "$OK#9a" then yields PACKET "OK" (resync);
 * - the whole input, as a payload, survives encode -> decode.
 */
#include "fuzz_target.h"

#include "rsp/decoder.h"
#include "rsp/hex.h"
#include "rsp/packet.h"
#include "rsp/protocol.h"

#include <string.h>

/* Indexed by the first byte modulo 8, so captured streams get real caps:
 * '+' (43) -> 4096 (QEMU's PacketSize), '$' (36) -> 16384 (OpenOCD's),
 * '%' and '-' -> 399 (GDB's default), 0x07 -> 1020, 0x00/0x01/0x02 -> tiny. */
static const size_t fuzz_caps[] = {0, 1, 4, 4096, 16384, 399, 64, 1020};
#define FUZZ_CAP_COUNT (sizeof(fuzz_caps) / sizeof(fuzz_caps[0]))
#define FUZZ_DEFAULT_CAP 16U

static bool fuzz_is_frame_event(rsp_event_t ev)
{
	return ev == RSP_EVENT_PACKET || ev == RSP_EVENT_NOTIFICATION ||
	       ev == RSP_EVENT_BAD_CHECKSUM || ev == RSP_EVENT_OVERSIZE ||
	       ev == RSP_EVENT_BAD_RUNLENGTH || ev == RSP_EVENT_BAD_ESCAPE;
}

static bool fuzz_is_idle_event(rsp_event_t ev)
{
	return ev == RSP_EVENT_ACK || ev == RSP_EVENT_NAK || ev == RSP_EVENT_INTERRUPT ||
	       ev == RSP_EVENT_GARBAGE;
}

/* Encodes payload, decodes it with a fresh decoder and requires the same
 * bytes back from exactly one PACKET on the last byte. */
static void fuzz_round_trip(const void *payload, size_t len)
{
	size_t need = rsp_packet_encoded_len(payload, len);
	char *frame = malloc(need);
	fuzz_require(frame != NULL, "malloc");
	fuzz_require(rsp_packet_encode(payload, len, frame, need) == need, "encode length");
	fuzz_require(rsp_packet_encode(payload, len, frame, need - 1) == 0, "encode overflow");
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, len);
	for (size_t i = 0; i < need; i++) {
		rsp_event_t ev = rsp_decoder_feed(&dec, (uint8_t)frame[i]);
		if (i + 1 < need) {
			fuzz_require(ev == RSP_EVENT_NONE, "round trip: early event");
			continue;
		}
		fuzz_require(ev == RSP_EVENT_PACKET, "round trip: not a packet");
		size_t got_len;
		const char *got = rsp_decoder_payload(&dec, &got_len);
		fuzz_require(got != NULL && got_len == len && memcmp(got, payload, len) == 0,
		             "round trip: payload differs");
	}
	rsp_decoder_free(&dec);
	free(frame);
}

/* The raw frame data[start + 1 .. end - 3] ended by '#' and two checksum
 * digits at data[end - 2 .. end]: requires the checksum to really match. */
static void fuzz_check_raw_frame(const uint8_t *data, size_t start, size_t end)
{
	fuzz_require(end >= start + 3, "frame shorter than its framing");
	fuzz_require(data[end - 2] == '#', "frame not ended by '#'");
	uint8_t sum = rsp_checksum(data + start + 1, end - 2 - (start + 1));
	int high = rsp_hex_digit_value(data[end - 1]);
	int low = rsp_hex_digit_value(data[end]);
	fuzz_require(high >= 0 && low >= 0, "accepted a non-hex checksum");
	fuzz_require(sum == (uint8_t)(high * 16 + low), "accepted a wrong checksum");
	for (size_t i = start + 1; i < end - 2; i++)
		fuzz_require(data[i] != '$' && data[i] != '#', "framing byte inside a frame");
}

/* The same input fed with rsp_decoder_feed_plain wherever it takes bytes
 * (as the client feeds) gives the same events, payloads and end state as
 * feeding it one byte at a time. */
static void fuzz_plain_runs_agree(const uint8_t *data, size_t size, size_t cap)
{
	rsp_decoder_t one, runs;
	rsp_decoder_init(&one, cap);
	rsp_decoder_init(&runs, cap);
	size_t j = 0; /* how far `runs` has consumed */
	for (size_t i = 0; i < size; i++) {
		rsp_event_t ev = rsp_decoder_feed(&one, data[i]);
		if (j > i) {
			fuzz_require(ev == RSP_EVENT_NONE, "a plain run skipped an event");
			continue;
		}
		size_t took = rsp_decoder_feed_plain(&runs, data + i, size - i);
		if (took > 0) {
			fuzz_require(ev == RSP_EVENT_NONE, "a plain run took an event's byte");
			j = i + took;
			continue;
		}
		rsp_event_t ev2 = rsp_decoder_feed(&runs, data[i]);
		j = i + 1;
		fuzz_require(ev == ev2, "plain runs change an event");
		size_t l1, l2;
		const char *p1 = rsp_decoder_payload(&one, &l1);
		const char *p2 = rsp_decoder_payload(&runs, &l2);
		fuzz_require((p1 == NULL) == (p2 == NULL) && l1 == l2 &&
		                 (p1 == NULL || memcmp(p1, p2, l1) == 0),
		             "plain runs change a payload");
	}
	fuzz_require(rsp_decoder_in_frame(&one) == rsp_decoder_in_frame(&runs),
	             "plain runs change the end state");
	rsp_decoder_free(&one);
	rsp_decoder_free(&runs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cap = size > 0 ? fuzz_caps[data[0] % FUZZ_CAP_COUNT] : FUZZ_DEFAULT_CAP;
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, cap);
	size_t frame_start = 0;
	for (size_t i = 0; i < size; i++) {
		bool was_in_frame = rsp_decoder_in_frame(&dec);
		if (data[i] == '$' || (!was_in_frame && data[i] == '%'))
			frame_start = i;
		rsp_event_t ev = rsp_decoder_feed(&dec, data[i]);
		size_t len;
		const char *payload = rsp_decoder_payload(&dec, &len);
		if (fuzz_is_idle_event(ev))
			fuzz_require(!was_in_frame && !rsp_decoder_in_frame(&dec),
			             "idle event inside a frame");
		if (!fuzz_is_frame_event(ev)) {
			fuzz_require(payload == NULL && len == 0, "payload without a frame event");
			continue;
		}
		fuzz_require(was_in_frame && !rsp_decoder_in_frame(&dec), "frame event state");
		fuzz_require(payload != NULL, "frame event without payload");
		fuzz_require(len <= cap && len <= rsp_decoder_max_payload(&dec),
		             "payload over cap");
		fuzz_require(payload[len] == '\0', "payload not NUL-terminated");
		if (ev == RSP_EVENT_PACKET || ev == RSP_EVENT_NOTIFICATION) {
			fuzz_require(data[frame_start] == (ev == RSP_EVENT_PACKET ? '$' : '%'),
			             "frame kind differs from its start character");
			fuzz_check_raw_frame(data, frame_start, i);
			fuzz_round_trip(payload, len);
		}
	}

	static const char resync[] = "$OK#9a";
	rsp_event_t ev = RSP_EVENT_NONE;
	for (size_t i = 0; i < sizeof(resync) - 1; i++)
		ev = rsp_decoder_feed(&dec, (uint8_t)resync[i]);
	size_t len;
	const char *payload = rsp_decoder_payload(&dec, &len);
	fuzz_require(cap < 2 ||
	                 (ev == RSP_EVENT_PACKET && len == 2 && memcmp(payload, "OK", 2) == 0),
	             "no resync after arbitrary input");
	rsp_decoder_free(&dec);

	fuzz_plain_runs_agree(data, size, cap);
	if (size <= RSP_PAYLOAD_LIMIT)
		fuzz_round_trip(data, size);
	return 0;
}
