/*
 * The RSP push decoder: tables of byte streams (good and bad) and the events
 * and payloads they must produce, each also fed split at every point.
 */
#include "check.h"

#include "rsp/decoder.h"
#include "rsp/protocol.h"

#include <stdlib.h>
#include <string.h>

#define MAX_EXPECT 8
#define DEFAULT_CAP 4096U

typedef struct expect {
	rsp_event_t event;
	const char *payload; /* NULL: not checked; else the exact bytes */
	size_t payload_len;  /* 0: strlen(payload) */
} expect_t;

typedef struct decoder_case {
	const char *name;
	const char *input;
	size_t input_len; /* 0: strlen(input) */
	size_t cap;       /* 0: DEFAULT_CAP */
	expect_t expect[MAX_EXPECT];
} decoder_case_t;

/* One event seen while feeding, with a copy of its payload. */
typedef struct seen {
	rsp_event_t event;
	char payload[8192];
	size_t payload_len;
	bool has_payload;
} seen_t;

typedef struct seen_list {
	seen_t items[MAX_EXPECT * 4];
	size_t count;
	bool overflow;
} seen_list_t;

static seen_list_t seen_a, seen_b;

/* Whether ev ends a frame (and so comes with a payload). */
static bool is_frame_event(rsp_event_t ev)
{
	switch (ev) {
	case RSP_EVENT_PACKET:
	case RSP_EVENT_NOTIFICATION:
	case RSP_EVENT_BAD_CHECKSUM:
	case RSP_EVENT_OVERSIZE:
	case RSP_EVENT_BAD_RUNLENGTH:
	case RSP_EVENT_BAD_ESCAPE:
		return true;
	case RSP_EVENT_NONE:
	case RSP_EVENT_ACK:
	case RSP_EVENT_NAK:
	case RSP_EVENT_INTERRUPT:
	case RSP_EVENT_GARBAGE:
		return false;
	}
	return false;
}

/* Feeds n bytes, recording every event other than NONE. */
static void feed(rsp_decoder_t *dec, const char *bytes, size_t n, seen_list_t *seen)
{
	for (size_t i = 0; i < n; i++) {
		rsp_event_t ev = rsp_decoder_feed(dec, (uint8_t)bytes[i]);
		size_t len;
		const char *payload = rsp_decoder_payload(dec, &len);
		if (ev == RSP_EVENT_NONE) {
			CHECK(payload == NULL && len == 0);
			continue;
		}
		if (seen->count == sizeof(seen->items) / sizeof(seen->items[0])) {
			seen->overflow = true;
			continue;
		}
		CHECK((payload != NULL) == is_frame_event(ev));
		seen_t *s = &seen->items[seen->count++];
		s->event = ev;
		s->has_payload = payload != NULL;
		s->payload_len = len;
		if (payload != NULL) {
			CHECK(payload[len] == '\0');
			CHECK(len <= rsp_decoder_max_payload(dec));
			memcpy(s->payload, payload,
			       len < sizeof(s->payload) ? len : sizeof(s->payload));
		}
	}
}

static size_t expect_count(const decoder_case_t *c)
{
	size_t n = 0;
	while (n < MAX_EXPECT && c->expect[n].event != RSP_EVENT_NONE)
		n++;
	return n;
}

static bool seen_equal(const seen_list_t *a, const seen_list_t *b)
{
	if (a->count != b->count)
		return false;
	for (size_t i = 0; i < a->count; i++) {
		if (a->items[i].event != b->items[i].event ||
		    a->items[i].payload_len != b->items[i].payload_len ||
		    memcmp(a->items[i].payload, b->items[i].payload, a->items[i].payload_len) != 0)
			return false;
	}
	return true;
}

static void run_case(const decoder_case_t *c)
{
	size_t n = c->input_len != 0 ? c->input_len : strlen(c->input);
	size_t cap = c->cap != 0 ? c->cap : DEFAULT_CAP;
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, cap);
	memset(&seen_a, 0, sizeof(seen_a));
	feed(&dec, c->input, n, &seen_a);
	size_t want = expect_count(c);
	CHECK_MSG(seen_a.count == want && !seen_a.overflow, "%s: %zu events, want %zu", c->name,
	          seen_a.count, want);
	for (size_t i = 0; i < want && i < seen_a.count; i++) {
		const expect_t *e = &c->expect[i];
		const seen_t *s = &seen_a.items[i];
		CHECK_MSG(s->event == e->event, "%s: event %zu is %d, want %d", c->name, i,
		          (int)s->event, (int)e->event);
		if (e->payload != NULL) {
			size_t len = e->payload_len != 0 ? e->payload_len : strlen(e->payload);
			CHECK_MSG(s->has_payload && s->payload_len == len &&
			              memcmp(s->payload, e->payload, len) == 0,
			          "%s: payload %zu differs (%zu bytes)", c->name, i,
			          s->payload_len);
		}
	}
	rsp_decoder_free(&dec);

	/* Every split point: a reset-free decoder fed the two halves as separate
	 * reads sees the same events, and mid-frame state survives the split. */
	for (size_t k = 0; k <= n; k++) {
		rsp_decoder_init(&dec, cap);
		memset(&seen_b, 0, sizeof(seen_b));
		feed(&dec, c->input, k, &seen_b);
		feed(&dec, c->input + k, n - k, &seen_b);
		CHECK_MSG(seen_equal(&seen_a, &seen_b), "%s: split at %zu differs", c->name, k);
		rsp_decoder_free(&dec);
	}
}

#define EV(e)                                                                                      \
	{                                                                                          \
		RSP_EVENT_##e, NULL, 0                                                             \
	}
#define PKT(p)                                                                                     \
	{                                                                                          \
		RSP_EVENT_PACKET, p, 0                                                             \
	}
#define PKT_N(p, n)                                                                                \
	{                                                                                          \
		RSP_EVENT_PACKET, p, n                                                             \
	}

static const decoder_case_t cases[] = {
    {"plain packet", "$OK#9a", 0, 0, {PKT("OK")}},
    {"upper-case checksum", "$OK#9A", 0, 0, {PKT("OK")}},
    {"empty payload", "$#00", 0, 0, {PKT("")}},
    {"ack then packet", "+$OK#9a", 0, 0, {EV(ACK), PKT("OK")}},
    {"nak", "-", 0, 0, {EV(NAK)}},
    {"interrupt", "\x03", 0, 0, {EV(INTERRUPT)}},
    {"acks interleaved",
     "+$OK#9a-+$S05#b8+",
     0,
     0,
     {EV(ACK), PKT("OK"), EV(NAK), EV(ACK), PKT("S05"), EV(ACK)}},
    {"several packets in one read",
     "$OK#9a$S05#b8%oocd_keepalive:00#54$O#4f",
     0,
     0,
     {PKT("OK"), PKT("S05"), {RSP_EVENT_NOTIFICATION, "oocd_keepalive:00", 0}, PKT("O")}},
    {"garbage before $",
     "xy\r\n$OK#9a",
     0,
     0,
     {EV(GARBAGE), EV(GARBAGE), EV(GARBAGE), EV(GARBAGE), PKT("OK")}},
    {"stray # and checksum between frames",
     "#9a$OK#9a",
     0,
     0,
     {EV(GARBAGE), EV(GARBAGE), EV(GARBAGE), PKT("OK")}},
    {"notification",
     "%oocd_keepalive:00#54",
     0,
     0,
     {{RSP_EVENT_NOTIFICATION, "oocd_keepalive:00", 0}}},
    {"notification then reply",
     "%oocd_keepalive:00#54+$OK#9a",
     0,
     0,
     {{RSP_EVENT_NOTIFICATION, "oocd_keepalive:00", 0}, EV(ACK), PKT("OK")}},
    {"bad checksum", "$OK#9b", 0, 0, {{RSP_EVENT_BAD_CHECKSUM, "OK", 0}}},
    {"bad checksum then resend", "$OK#00$OK#9a", 0, 0, {EV(BAD_CHECKSUM), PKT("OK")}},
    {"non-hex checksum", "$OK#zz", 0, 0, {EV(BAD_CHECKSUM)}},
    {"non-hex low checksum digit", "$OK#9g", 0, 0, {EV(BAD_CHECKSUM)}},
    {"non-hex high checksum digit", "$OK#g9", 0, 0, {EV(BAD_CHECKSUM)}},
    {"NUL as checksum digit (OpenOCD 0.12, 1020-char replies)",
     "$OK#9\0$OK#9a",
     12,
     0,
     {EV(BAD_CHECKSUM), PKT("OK")}},
    {"# as checksum digit", "$OK##9$OK#9a", 0, 0, {EV(BAD_CHECKSUM), PKT("OK")}},
    {"$ in checksum restarts", "$OK#9$OK#9a", 0, 0, {PKT("OK")}},
    {"$ in payload restarts", "$abc$OK#9a", 0, 0, {PKT("OK")}},
    {"$ right after $ restarts", "$$OK#9a", 0, 0, {PKT("OK")}},
    {"$ restarts a notification", "%oocd$OK#9a", 0, 0, {PKT("OK")}},
    {"% inside a packet is data", "$%#25", 0, 0, {PKT("%")}},
    {"+ inside a packet is data", "$+#2b", 0, 0, {PKT("+")}},
    {"0x03 inside a packet is data", "$\x03#03", 0, 0, {PKT("\x03")}},
    {"NUL inside a packet is data", "$a\0b#c3", 7, 0, {PKT_N("a\0b", 3)}},
    {"escaped }", "$}]#da", 0, 0, {PKT("}")}},
    {"escaped $", "$}\x04#81", 0, 0, {PKT("$")}},
    {"escaped #", "$}\x03#80", 0, 0, {PKT("#")}},
    {"escaped *", "$}\x0a#87", 0, 0, {PKT("*")}},
    {"escaped NUL byte from 0x20", "$} #9d", 0, 0, {PKT_N("\0", 1)}},
    {"escape at end of frame", "$a}#de", 0, 0, {EV(BAD_ESCAPE)}},
    {"escape then $ restarts", "$a}$OK#9a", 0, 0, {PKT("OK")}},
    {"run-length minimum (3 more)", "$0* #7a", 0, 0, {PKT("0000")}},
    {"run-length manual example", "$0*\"00#dc", 0, 0, {PKT("00000000")}},
    {"run-length maximum (97 more)",
     "$a*~#09",
     0,
     0,
     {PKT("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
          "aaaaaaaaaaaaaaaaaa")}},
    {"run-length twice", "$0* 0*!#f5", 0, 0, {PKT("000000000")}},
    {"run-length of an escaped byte", "$}]* #24", 0, 0, {PKT("}}}}")}},
    {"run-length count is }",
     "$a*}#08",
     0,
     0,
     {PKT("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
          "aaaaaaaaaaaaaaaaa")}},
    {"run-length first in payload", "$*  #6a", 0, 0, {EV(BAD_RUNLENGTH)}},
    {"run-length count below ' ' (n < 3)", "$0*\x1f#79", 0, 0, {EV(BAD_RUNLENGTH)}},
    {"run-length count above '~'", "$0*\x7f#d9", 0, 0, {EV(BAD_RUNLENGTH)}},
    {"run-length count is #", "$0*#5a", 0, 0, {EV(BAD_RUNLENGTH)}},
    {"run-length count is # then resend", "$0*#5a$0* #7a", 0, 0, {EV(BAD_RUNLENGTH), PKT("0000")}},
    {"run-length count is $ restarts", "$0*$OK#9a", 0, 0, {PKT("OK")}},
    {"bad checksum wins over bad run-length", "$*  #00", 0, 0, {EV(BAD_CHECKSUM)}},
    {"oversize", "$12345#ff", 0, 4, {EV(OVERSIZE)}},
    {"exactly the cap", "$1234#ca", 0, 4, {PKT("1234")}},
    {"run-length exactly the cap", "$0* #7a", 0, 4, {PKT("0000")}},
    {"run-length past the cap", "$0* 0#aa", 0, 4, {EV(OVERSIZE)}},
    {"oversize then a good packet", "$12345#ff$OK#9a", 0, 4, {EV(OVERSIZE), PKT("OK")}},
    {"bad checksum wins over oversize", "$12345#00", 0, 4, {EV(BAD_CHECKSUM)}},
    {"first fault wins", "$*  12#cd", 0, 1, {EV(BAD_RUNLENGTH)}},
    {"real QEMU stop reply", "+$T05thread:p01.01;#06", 0, 0, {EV(ACK), PKT("T05thread:p01.01;")}},
};

/* A cap of 0 accepts only empty payloads (in the table, 0 means the default). */
static void test_zero_cap(void)
{
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, 0);
	const char *in = "$#00$a#61";
	rsp_event_t events[16];
	size_t n = 0;
	for (const char *p = in; *p != '\0'; p++) {
		rsp_event_t ev = rsp_decoder_feed(&dec, (uint8_t)*p);
		if (ev != RSP_EVENT_NONE && n < 16)
			events[n++] = ev;
	}
	CHECK(n == 2);
	CHECK(n >= 1 && events[0] == RSP_EVENT_PACKET);
	CHECK(n >= 2 && events[1] == RSP_EVENT_OVERSIZE);
	rsp_decoder_free(&dec);
}

static void test_in_frame(void)
{
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, DEFAULT_CAP);
	const char *in = "$OK#9a";
	CHECK(!rsp_decoder_in_frame(&dec));
	for (size_t i = 0; i < strlen(in); i++) {
		rsp_decoder_feed(&dec, (uint8_t)in[i]);
		CHECK_MSG(rsp_decoder_in_frame(&dec) == (i + 1 < strlen(in)), "after byte %zu", i);
	}
	/* reset drops a partial frame: the rest of it is then garbage */
	rsp_decoder_feed(&dec, '$');
	rsp_decoder_feed(&dec, 'O');
	CHECK(rsp_decoder_in_frame(&dec));
	rsp_decoder_reset(&dec);
	CHECK(!rsp_decoder_in_frame(&dec));
	CHECK(rsp_decoder_feed(&dec, 'K') == RSP_EVENT_GARBAGE);
	CHECK(rsp_decoder_payload(&dec, NULL) == NULL);
	rsp_decoder_free(&dec);
}

static void test_cap_clamped(void)
{
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, SIZE_MAX);
	CHECK(rsp_decoder_max_payload(&dec) == RSP_PAYLOAD_LIMIT);
	rsp_decoder_free(&dec);
	rsp_decoder_free(NULL);
}

/* OpenOCD 0.12 breaks the checksum of exactly-1020-character replies: the
 * decoder must take a good one and NAK-report a broken one. */
static void test_1020_characters(void)
{
	char frame[1100];
	size_t n = 0;
	unsigned sum = 0;
	frame[n++] = '$';
	for (size_t i = 0; i < 1020; i++) {
		char c = "0123456789abcdef"[(i * 7) % 16];
		frame[n++] = c;
		sum += (unsigned char)c;
	}
	frame[n++] = '#';
	frame[n++] = "0123456789abcdef"[(sum >> 4) & 0xf];
	frame[n++] = "0123456789abcdef"[sum & 0xf];

	for (size_t cap = 1019; cap <= 1021; cap++) {
		rsp_decoder_t dec;
		rsp_decoder_init(&dec, cap);
		rsp_event_t last = RSP_EVENT_NONE;
		for (size_t i = 0; i < n; i++) {
			rsp_event_t ev = rsp_decoder_feed(&dec, (uint8_t)frame[i]);
			CHECK(i + 1 == n || ev == RSP_EVENT_NONE);
			last = ev;
		}
		CHECK_MSG(last == (cap < 1020 ? RSP_EVENT_OVERSIZE : RSP_EVENT_PACKET), "cap %zu",
		          cap);
		size_t len;
		const char *p = rsp_decoder_payload(&dec, &len);
		CHECK(p != NULL && len == (cap < 1020 ? cap : 1020));
		CHECK(p != NULL && memcmp(p, frame + 1, len) == 0);
		rsp_decoder_free(&dec);
	}

	frame[n - 1] = frame[n - 1] == '0' ? '1' : '0'; /* the OpenOCD off-by-one */
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, 1020);
	rsp_event_t last = RSP_EVENT_NONE;
	for (size_t i = 0; i < n; i++)
		last = rsp_decoder_feed(&dec, (uint8_t)frame[i]);
	CHECK(last == RSP_EVENT_BAD_CHECKSUM);
	rsp_decoder_free(&dec);
}

/* Every byte value between frames: exactly the four framing starts and the
 * three single-byte events are anything but GARBAGE. */
static void test_idle_bytes(void)
{
	rsp_decoder_t dec;
	rsp_decoder_init(&dec, DEFAULT_CAP);
	for (unsigned b = 0; b < 256; b++) {
		rsp_decoder_reset(&dec);
		rsp_event_t ev = rsp_decoder_feed(&dec, (uint8_t)b);
		rsp_event_t want = RSP_EVENT_GARBAGE;
		if (b == '+')
			want = RSP_EVENT_ACK;
		else if (b == '-')
			want = RSP_EVENT_NAK;
		else if (b == 0x03)
			want = RSP_EVENT_INTERRUPT;
		else if (b == '$' || b == '%')
			want = RSP_EVENT_NONE;
		CHECK_MSG(ev == want, "byte 0x%02x", b);
		CHECK(rsp_decoder_in_frame(&dec) == (b == '$' || b == '%'));
	}
	rsp_decoder_free(&dec);
}

/* Every count character after "0*": valid exactly for ' '..'~' except '#'
 * (which ends the frame) and '$' (which restarts it). */
static void test_every_count_char(void)
{
	for (unsigned c = 0; c < 256; c++) {
		if (c == '$' || c == '#')
			continue;
		rsp_decoder_t dec;
		rsp_decoder_init(&dec, DEFAULT_CAP);
		unsigned char frame[8] = {'$', '0', '*', (unsigned char)c, '#', 0, 0};
		unsigned sum = '0' + '*' + c;
		frame[5] = (unsigned char)"0123456789abcdef"[(sum >> 4) & 0xf];
		frame[6] = (unsigned char)"0123456789abcdef"[sum & 0xf];
		rsp_event_t last = RSP_EVENT_NONE;
		for (size_t i = 0; i < 7; i++)
			last = rsp_decoder_feed(&dec, frame[i]);
		bool valid = c >= ' ' && c <= '~';
		CHECK_MSG(last == (valid ? RSP_EVENT_PACKET : RSP_EVENT_BAD_RUNLENGTH),
		          "count 0x%02x", c);
		if (valid) {
			size_t len;
			const char *p = rsp_decoder_payload(&dec, &len);
			CHECK_MSG(len == 1 + c - 29, "count 0x%02x", c);
			for (size_t i = 0; p != NULL && i < len; i++)
				CHECK(p[i] == '0');
		}
		rsp_decoder_free(&dec);
	}
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_case(&cases[i]);
	}
	test_zero_cap();
	test_in_frame();
	test_cap_clamped();
	test_1020_characters();
	test_idle_bytes();
	test_every_count_char();
	return check_finish();
}
