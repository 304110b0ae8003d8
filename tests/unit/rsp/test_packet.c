/*
 * Packet encoding and the checksum, and encode -> decode round trips over
 * seeded random binary payloads (plain, and run-length encoded the way a stub
 * would, as the manual describes).
 */
#include "check.h"

#include "rsp/decoder.h"
#include "rsp/packet.h"

#include <stdlib.h>
#include <string.h>

#define ROUND_TRIPS 3000U
#define MAX_PAYLOAD 700U
#define RLE_TRIPS 2000U

/* xorshift32: a fixed seed so every run checks the same payloads. */
static uint32_t prng_state = 0x2545f491U;

static uint32_t prng_next(void)
{
	uint32_t x = prng_state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	prng_state = x;
	return x;
}

/* A byte biased towards the ones framing treats specially. */
static uint8_t prng_byte(void)
{
	static const uint8_t special[] = {'$', '#', '}', '*', '%', '+', '-', 0x03, 0x00, 0xff};
	uint32_t r = prng_next();
	if (r % 4 == 0)
		return special[(r >> 8) % sizeof(special)];
	return (uint8_t)(r >> 16);
}

static void test_checksum(void)
{
	CHECK(rsp_checksum("OK", 2) == 0x9a);
	CHECK(rsp_checksum("", 0) == 0);
	CHECK(rsp_checksum("\xff\x02", 2) == 0x01);
	CHECK(rsp_checksum("qSupported", 10) == 0x37);
}

static void test_encode_table(void)
{
	static const struct {
		const char *payload;
		size_t len;
		const char *frame;
		size_t frame_len;
	} cases[] = {
	    {"OK", 2, "$OK#9a", 6},
	    {"", 0, "$#00", 4},
	    {"g", 1, "$g#67", 5},
	    {"m8000000,4", 10, "$m8000000,4#25", 14},
	    {"$", 1, "$}\x04#81", 6},
	    {"#", 1, "$}\x03#80", 6},
	    {"}", 1, "$}]#da", 6},
	    {"*", 1, "$}\x0a#87", 6},
	    {"X20000000,4:\x00\x24\x7d\x2a", 16, "X20000000,4:\x00}\x04}]}\x0a", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[64];
		size_t n = rsp_packet_encode(cases[i].payload, cases[i].len, out, sizeof(out));
		CHECK_MSG(n == rsp_packet_encoded_len(cases[i].payload, cases[i].len), "case %zu",
		          i);
		if (cases[i].frame_len == 0) {
			/* the binary X case: check the escaped body, then the checksum */
			size_t body = strlen("X20000000,4:") + 1 + 6;
			CHECK(n == body + 4);
			CHECK(memcmp(out + 1, cases[i].frame, body) == 0);
			continue;
		}
		CHECK_MSG(n == cases[i].frame_len && memcmp(out, cases[i].frame, n) == 0,
		          "case %zu", i);
	}
}

static void test_encode_capacity(void)
{
	char out[16];
	CHECK(rsp_packet_encode("OK", 2, out, 6) == 6);
	CHECK(rsp_packet_encode("OK", 2, out, 5) == 0);
	CHECK(rsp_packet_encode("$", 1, out, 5) == 0);
	CHECK(rsp_packet_encode("$", 1, out, 6) == 6);
	CHECK(rsp_packet_encode("", 0, out, 3) == 0);
	CHECK(rsp_packet_needs_escape('$') && rsp_packet_needs_escape('#') &&
	      rsp_packet_needs_escape('}') && rsp_packet_needs_escape('*'));
	CHECK(!rsp_packet_needs_escape('%') && !rsp_packet_needs_escape(0x03) &&
	      !rsp_packet_needs_escape(0));
}

/* Feeds a whole frame; returns the event of the last byte and whether all
 * earlier bytes returned NONE. */
static rsp_event_t decode_frame(rsp_decoder_t *dec, const char *frame, size_t n, bool *quiet)
{
	rsp_event_t ev = RSP_EVENT_NONE;
	*quiet = true;
	for (size_t i = 0; i < n; i++) {
		ev = rsp_decoder_feed(dec, (uint8_t)frame[i]);
		if (i + 1 < n && ev != RSP_EVENT_NONE)
			*quiet = false;
	}
	return ev;
}

static void test_round_trip(void)
{
	static uint8_t payload[MAX_PAYLOAD];
	static char frame[2 * MAX_PAYLOAD + 8];
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, MAX_PAYLOAD);
	for (unsigned t = 0; t < ROUND_TRIPS; t++) {
		size_t len = prng_next() % (MAX_PAYLOAD + 1);
		for (size_t i = 0; i < len; i++)
			payload[i] = prng_byte();
		size_t n = rsp_packet_encode(payload, len, frame, sizeof(frame));
		CHECK(n == rsp_packet_encoded_len(payload, len));
		bool quiet;
		rsp_event_t ev = decode_frame(&dec, frame, n, &quiet);
		size_t got_len;
		const char *got = rsp_decoder_payload(&dec, &got_len);
		CHECK_MSG(ev == RSP_EVENT_PACKET && quiet, "trip %u: event %d", t, (int)ev);
		CHECK_MSG(got != NULL && got_len == len && memcmp(got, payload, len) == 0,
		          "trip %u", t);
	}
	rsp_decoder_free(&dec);
}

/*
 * A stub's run-length encoder, written from the manual: a run of k >= 4
 * identical characters becomes the character, '*' and the count k - 1 + 29,
 * at most 97 more per sequence; counts 6 and 7 ('#', '$') are sent as 5.
 * Returns the frame length.
 */
static size_t rle_frame(const uint8_t *raw, size_t len, char *out)
{
	size_t n = 0;
	unsigned sum = 0;
	out[n++] = '$';
	for (size_t i = 0; i < len;) {
		size_t run = 1;
		while (i + run < len && raw[i + run] == raw[i])
			run++;
		size_t done = 0;
		while (done < run) {
			out[n++] = (char)raw[i];
			sum += raw[i];
			done++;
			size_t more = run - done;
			if (more > 97)
				more = 97;
			if (more == 6 || more == 7)
				more = 5;
			if (more >= 3) {
				out[n++] = '*';
				out[n++] = (char)(more + 29);
				sum += (unsigned)('*' + more + 29);
				done += more;
			}
		}
		i += run;
	}
	out[n++] = '#';
	out[n++] = "0123456789abcdef"[(sum >> 4) & 0xf];
	out[n++] = "0123456789abcdef"[sum & 0xf];
	return n;
}

static void test_run_length_round_trip(void)
{
	static uint8_t payload[MAX_PAYLOAD];
	static char frame[2 * MAX_PAYLOAD + 8];
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, MAX_PAYLOAD);
	for (unsigned t = 0; t < RLE_TRIPS; t++) {
		size_t len = prng_next() % (MAX_PAYLOAD + 1);
		/* hex-like text with long runs, as an 'm' reply of mostly zeros */
		for (size_t i = 0; i < len;) {
			char c = "0f3a"[prng_next() % 4];
			size_t run = 1 + prng_next() % 120;
			for (size_t k = 0; k < run && i < len; k++)
				payload[i++] = (uint8_t)c;
		}
		size_t n = rle_frame(payload, len, frame);
		bool quiet;
		rsp_event_t ev = decode_frame(&dec, frame, n, &quiet);
		size_t got_len;
		const char *got = rsp_decoder_payload(&dec, &got_len);
		CHECK_MSG(ev == RSP_EVENT_PACKET && quiet, "rle trip %u: event %d", t, (int)ev);
		CHECK_MSG(got != NULL && got_len == len && memcmp(got, payload, len) == 0,
		          "rle trip %u", t);
		for (size_t i = 1; i < n - 3; i++)
			CHECK(frame[i] != '$' && frame[i] != '#');
	}
	rsp_decoder_free(&dec);
}

int main(void)
{
	test_checksum();
	test_encode_table();
	test_encode_capacity();
	test_round_trip();
	test_run_length_round_trip();
	return check_finish();
}
