/*
 * Hex encoding, the cursor parsers (good and bad inputs, bounds, the cursor
 * left alone on failure), payload quoting, and console packets (a monitor
 * command's text before its OK).
 */
#include "check.h"

#include "rsp/console.h"
#include "rsp/hex.h"
#include "rsp/quote.h"

#include <stdio.h>
#include <string.h>

typedef struct u32_case {
	const char *text;
	size_t limit; /* 0: the whole string; else parse only this many chars */
	bool ok;
	uint32_t value;
	size_t consumed;
} u32_case_t;

static const u32_case_t u32_cases[] = {
    {"0", 0, true, 0, 1},
    {"1f", 0, true, 0x1f, 2},
    {"1F", 0, true, 0x1f, 2},
    {"deadBEEF", 0, true, 0xdeadbeef, 8},
    {"ffffffff", 0, true, 0xffffffff, 8},
    {"00000002", 0, true, 2, 8},
    {"0000000000000000c", 0, true, 0xc, 17}, /* leading zeros are no overflow */
    {"12,34", 0, true, 0x12, 2},
    {"12g", 0, true, 0x12, 2},
    {"1234", 2, true, 0x12, 2}, /* never reads past end */
    {"100000000", 0, false, 0, 0},
    {"fffffffff", 0, false, 0, 0},
    {"", 0, false, 0, 0},
    {"g", 0, false, 0, 0},
    {",1", 0, false, 0, 0},
    {"-1", 0, false, 0, 0},
    {" 1", 0, false, 0, 0},
    {"0x10", 0, true, 0, 1},
    {"1", 1, true, 1, 1},
};

static void test_u32(void)
{
	for (size_t i = 0; i < sizeof(u32_cases) / sizeof(u32_cases[0]); i++) {
		const u32_case_t *c = &u32_cases[i];
		const char *p = c->text;
		const char *end = p + (c->limit != 0 ? c->limit : strlen(p));
		uint32_t v = 0x5a5a5a5a;
		bool ok = rsp_hex_u32(&p, end, &v);
		CHECK_MSG(ok == c->ok, "\"%s\"", c->text);
		CHECK_MSG((size_t)(p - c->text) == c->consumed, "\"%s\" consumed %zu", c->text,
		          (size_t)(p - c->text));
		if (c->ok)
			CHECK_MSG(v == c->value, "\"%s\" = 0x%x", c->text, v);
		else
			CHECK_MSG(v == 0x5a5a5a5a, "\"%s\" wrote on failure", c->text);
	}
	/* an empty range at end */
	const char *text = "12";
	const char *p = text + 2;
	uint32_t v;
	CHECK(!rsp_hex_u32(&p, text + 2, &v) && p == text + 2);
}

static void test_digits(void)
{
	for (int c = 0; c < 256; c++) {
		int want = -1;
		if (c >= '0' && c <= '9')
			want = c - '0';
		else if (c >= 'a' && c <= 'f')
			want = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			want = c - 'A' + 10;
		CHECK_MSG(rsp_hex_digit_value(c) == want, "0x%02x", c);
	}
	CHECK(rsp_hex_digit_value(-1) == -1);
	for (unsigned n = 0; n < 32; n++)
		CHECK(rsp_hex_digit_value(rsp_hex_digit(n)) == (int)(n & 0xf));
	CHECK(rsp_hex_digit(0xa) == 'a');
}

static void test_expect_char(void)
{
	const char *text = ",x";
	const char *p = text;
	const char *end = text + 2;
	CHECK(!rsp_expect_char(&p, end, 'x') && p == text);
	CHECK(rsp_expect_char(&p, end, ',') && p == text + 1);
	CHECK(rsp_expect_char(&p, end, 'x') && p == end);
	CHECK(!rsp_expect_char(&p, end, '\0') && p == end);
}

static void test_bytes(void)
{
	uint8_t out[4] = {0};
	const char *text = "0aFF7d";
	const char *p = text;
	CHECK(rsp_hex_bytes(&p, text + 6, out, 3) && p == text + 6);
	CHECK(out[0] == 0x0a && out[1] == 0xff && out[2] == 0x7d);

	p = text;
	CHECK(!rsp_hex_bytes(&p, text + 5, out, 3) && p == text); /* short */
	CHECK(!rsp_hex_bytes(&p, text + 6, out, 4) && p == text); /* short */
	const char *bad = "0aFg";
	p = bad;
	CHECK(!rsp_hex_bytes(&p, bad + 4, out, 2) && p == bad);
	const char *bad_first = "g0";
	p = bad_first;
	CHECK(!rsp_hex_bytes(&p, bad_first + 2, out, 1) && p == bad_first);
	p = text;
	CHECK(rsp_hex_bytes(&p, text, out, 0) && p == text); /* zero bytes is fine */
}

static void test_le(void)
{
	const char *text = "78563412";
	const char *p = text;
	uint32_t v32 = 0;
	CHECK(rsp_hex_le_u32(&p, text + 8, &v32) && v32 == 0x12345678 && p == text + 8);
	p = text;
	CHECK(!rsp_hex_le_u32(&p, text + 7, &v32) && p == text);
	const char *with_x = "785634xx";
	p = with_x;
	CHECK(!rsp_hex_le_u32(&p, with_x + 8, &v32) && p == with_x);

	const char *text64 = "efcdab8967452301;";
	uint64_t v64 = 0;
	p = text64;
	CHECK(rsp_hex_le(&p, text64 + 17, 8, &v64) && v64 == 0x0123456789abcdefULL &&
	      p == text64 + 16);
	p = text64;
	CHECK(rsp_hex_le(&p, text64 + 17, 1, &v64) && v64 == 0xef && p == text64 + 2);
	p = text64;
	CHECK(!rsp_hex_le(&p, text64 + 17, 0, &v64) && p == text64);
	CHECK(!rsp_hex_le(&p, text64 + 17, 9, &v64) && p == text64);
}

static void test_encode(void)
{
	char out[16];
	CHECK(rsp_hex_encode("\x00\x7d\xff", 3, out, sizeof(out)) == 6 &&
	      strcmp(out, "007dff") == 0);
	CHECK(rsp_hex_encode("", 0, out, 1) == 0 + 0 && out[0] == '\0');
	memset(out, 'z', sizeof(out));
	CHECK(rsp_hex_encode("ab", 2, out, 4) == 0 && out[0] == 'z'); /* no room for NUL */
	CHECK(rsp_hex_encode("ab", 2, out, 5) == 4 && strcmp(out, "6162") == 0);
	CHECK(rsp_hex_le_u32_encode(0x12345678, out, sizeof(out)) == 8 &&
	      strcmp(out, "78563412") == 0);
	CHECK(rsp_hex_le_u32_encode(0x12345678, out, 8) == 0);

	/* encode -> decode over all byte values */
	uint8_t all[256], back[256];
	char text[513];
	for (unsigned i = 0; i < 256; i++)
		all[i] = (uint8_t)i;
	CHECK(rsp_hex_encode(all, 256, text, sizeof(text)) == 512);
	const char *p = text;
	CHECK(rsp_hex_bytes(&p, text + 512, back, 256) && memcmp(all, back, 256) == 0);
}

/* rsp_hex_request writes what snprintf's "%x" would, or nothing. */
static void test_request(void)
{
	char out[48], want[48];
	const uint64_t read[] = {0x08000000U, 4};
	CHECK(rsp_hex_request('m', read, 2, out, sizeof(out)) == 10 &&
	      strcmp(out, "m8000000,4") == 0);
	const uint64_t bp[] = {0, 0x8000100U, 2};
	CHECK(rsp_hex_request('Z', bp, 3, out, sizeof(out)) == 12 &&
	      strcmp(out, "Z0,8000100,2") == 0);
	const uint64_t reg = 0x19;
	CHECK(rsp_hex_request('p', &reg, 1, out, sizeof(out)) == 3 && strcmp(out, "p19") == 0);
	CHECK(rsp_hex_request('c', NULL, 0, out, sizeof(out)) == 1 && strcmp(out, "c") == 0);
	const uint64_t edges[] = {0, 1, 0xf, 0x10, 0xabcdef, UINT32_MAX, UINT64_MAX};
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		const uint64_t two[] = {edges[i], edges[(i + 3U) % 7U]};
		snprintf(want, sizeof(want), "m%llx,%llx", (unsigned long long)two[0],
		         (unsigned long long)two[1]);
		CHECK(rsp_hex_request('m', two, 2, out, sizeof(out)) == strlen(want) &&
		      strcmp(out, want) == 0);
	}
	/* No room: nothing but an empty string. */
	CHECK(rsp_hex_request('m', read, 2, out, 10) == 0 && out[0] == '\0');
	CHECK(rsp_hex_request('m', read, 2, out, 11) == 10);
	CHECK(rsp_hex_request('p', &reg, 1, out, 1) == 0 && out[0] == '\0');
	CHECK(rsp_hex_request('p', &reg, 1, out, 0) == 0);
}

static void test_quote(void)
{
	char out[RSP_QUOTE_BUFFER_BYTES];
	CHECK(strcmp(rsp_quote("OK", 2, out, sizeof(out)), "\"OK\"") == 0);
	CHECK(strcmp(rsp_quote("a\"b\\c\x01\xff", 7, out, sizeof(out)),
	             "\"a\\\"b\\\\c\\x01\\xff\"") == 0);
	CHECK(strcmp(rsp_quote("", 0, out, sizeof(out)), "\"\"") == 0);

	char longer[200];
	memset(longer, 'q', sizeof(longer));
	rsp_quote(longer, sizeof(longer), out, sizeof(out));
	CHECK(strlen(out) == 2 + RSP_QUOTE_MAX_BYTES + 3);
	CHECK(strcmp(out + strlen(out) - 4, "\"...") == 0);

	/* the worst case fits the documented buffer */
	char binary[RSP_QUOTE_MAX_BYTES + 1];
	memset(binary, 0x80, sizeof(binary));
	rsp_quote(binary, sizeof(binary), out, sizeof(out));
	CHECK(strlen(out) == 2 + 4 * RSP_QUOTE_MAX_BYTES + 3);

	/* small buffers truncate, always NUL-terminated */
	char tiny[5];
	memset(tiny, 'z', sizeof(tiny));
	rsp_quote("abcdef", 6, tiny, sizeof(tiny));
	CHECK(strcmp(tiny, "\"abc") == 0);
	rsp_quote("\x01", 1, tiny, sizeof(tiny));
	CHECK(strcmp(tiny, "\"") == 0);
	rsp_quote("abc", 3, tiny, 0); /* writes nothing */
}

static void test_console(void)
{
	CHECK(rsp_reply_is_console("O4869", 5));
	CHECK(!rsp_reply_is_console("OK", 2));   /* the final reply, not text */
	CHECK(!rsp_reply_is_console("O", 1));    /* a keepalive, no text */
	CHECK(!rsp_reply_is_console("O486", 4)); /* half a byte */
	CHECK(!rsp_reply_is_console("O48zz", 5));
	CHECK(!rsp_reply_is_console("E01", 3));
	char out[8];
	size_t used = 0;
	out[0] = '\0';
	CHECK(rsp_console_append("O4869", 5, out, sizeof(out), &used) && strcmp(out, "Hi") == 0);
	CHECK(rsp_console_append("O2074686572650a", 15, out, sizeof(out), &used));
	CHECK(strcmp(out, "Hi ther") == 0 && used == 7); /* truncated to fit, NUL kept */
	CHECK(!rsp_console_append("OK", 2, out, sizeof(out), &used));
	CHECK(!rsp_hex_text_append("4", 1, out, sizeof(out), &used));
	used = 0;
	CHECK(rsp_hex_text_append("4142", 4, NULL, 0, &used) && used == 0);
	CHECK(rsp_request_is_monitor("qRcmd,696e666f") && !rsp_request_is_monitor("qRcm"));
	CHECK(!rsp_request_is_monitor("m20000000,4"));
	CHECK(rsp_all_hex("09afAF", 6) && !rsp_all_hex("0g", 2));
}

int main(void)
{
	test_console();
	test_u32();
	test_digits();
	test_expect_char();
	test_bytes();
	test_le();
	test_encode();
	test_request();
	test_quote();
	return check_finish();
}
