#include "rsp/hex.h"

#include "rsp/protocol.h"

#define HEX_NIBBLE_BITS 4U
#define HEX_NIBBLE_MASK 0xfU
#define HEX_BYTE_BITS 8U
#define HEX_U64_BYTES 8U
#define HEX_U32_BYTES 4U

/* Each byte's digit value plus one (0: not a hex digit): one load per digit
 * for bulk replies' thousands of them. */
#define HEX_DIGIT_ENTRY(c, v) [c] = (v) + 1
static const uint8_t hex_digit_table[256] = {
    HEX_DIGIT_ENTRY('0', 0),  HEX_DIGIT_ENTRY('1', 1),  HEX_DIGIT_ENTRY('2', 2),
    HEX_DIGIT_ENTRY('3', 3),  HEX_DIGIT_ENTRY('4', 4),  HEX_DIGIT_ENTRY('5', 5),
    HEX_DIGIT_ENTRY('6', 6),  HEX_DIGIT_ENTRY('7', 7),  HEX_DIGIT_ENTRY('8', 8),
    HEX_DIGIT_ENTRY('9', 9),  HEX_DIGIT_ENTRY('a', 10), HEX_DIGIT_ENTRY('b', 11),
    HEX_DIGIT_ENTRY('c', 12), HEX_DIGIT_ENTRY('d', 13), HEX_DIGIT_ENTRY('e', 14),
    HEX_DIGIT_ENTRY('f', 15), HEX_DIGIT_ENTRY('A', 10), HEX_DIGIT_ENTRY('B', 11),
    HEX_DIGIT_ENTRY('C', 12), HEX_DIGIT_ENTRY('D', 13), HEX_DIGIT_ENTRY('E', 14),
    HEX_DIGIT_ENTRY('F', 15),
};

/* rsp_hex_digit_value, inlined in the loops below. */
static inline int digit_value(int c)
{
	if (c < 0 || c > 255)
		return -1;
	return (int)hex_digit_table[c] - 1;
}

int rsp_hex_digit_value(int c)
{
	return digit_value(c);
}

char rsp_hex_digit(unsigned nibble)
{
	static const char digits[] = "0123456789abcdef";
	return digits[nibble & HEX_NIBBLE_MASK];
}

bool rsp_hex_u32(const char **cursor, const char *end, uint32_t *out)
{
	const char *p = *cursor;
	uint32_t value = 0;
	while (p < end) {
		int digit = digit_value((unsigned char)*p);
		if (digit < 0)
			break;
		if (value > (UINT32_MAX >> HEX_NIBBLE_BITS))
			return false;
		value = (value << HEX_NIBBLE_BITS) | (uint32_t)digit;
		p++;
	}
	if (p == *cursor)
		return false;
	*out = value;
	*cursor = p;
	return true;
}

bool rsp_expect_char(const char **cursor, const char *end, char c)
{
	if (*cursor >= end || **cursor != c)
		return false;
	(*cursor)++;
	return true;
}

/* Decodes the two hex digits at p (p + 1 < end checked by the caller). */
static bool hex_pair(const char *p, uint8_t *out)
{
	int high = digit_value((unsigned char)p[0]);
	int low = digit_value((unsigned char)p[1]);
	if (high < 0 || low < 0)
		return false;
	*out = (uint8_t)(((unsigned)high << HEX_NIBBLE_BITS) | (unsigned)low);
	return true;
}

bool rsp_hex_bytes(const char **cursor, const char *end, uint8_t *out, size_t n)
{
	const char *p = *cursor;
	if ((size_t)(end - p) / RSP_HEX_PER_BYTE < n)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!hex_pair(p, &out[i]))
			return false;
		p += RSP_HEX_PER_BYTE;
	}
	*cursor = p;
	return true;
}

bool rsp_hex_le(const char **cursor, const char *end, size_t nbytes, uint64_t *out)
{
	uint8_t bytes[HEX_U64_BYTES];
	if (nbytes == 0 || nbytes > HEX_U64_BYTES)
		return false;
	const char *p = *cursor;
	if (!rsp_hex_bytes(&p, end, bytes, nbytes))
		return false;
	uint64_t value = 0;
	for (size_t i = nbytes; i > 0; i--)
		value = (value << HEX_BYTE_BITS) | bytes[i - 1];
	*out = value;
	*cursor = p;
	return true;
}

bool rsp_hex_le_u32(const char **cursor, const char *end, uint32_t *out)
{
	uint64_t value;
	if (!rsp_hex_le(cursor, end, HEX_U32_BYTES, &value))
		return false;
	*out = (uint32_t)value;
	return true;
}

size_t rsp_hex_encode(const void *data, size_t len, char *out, size_t out_cap)
{
	const uint8_t *bytes = data;
	if (len > (SIZE_MAX - 1) / RSP_HEX_PER_BYTE || out_cap < len * RSP_HEX_PER_BYTE + 1)
		return 0;
	for (size_t i = 0; i < len; i++) {
		out[RSP_HEX_PER_BYTE * i] = rsp_hex_digit(bytes[i] >> HEX_NIBBLE_BITS);
		out[RSP_HEX_PER_BYTE * i + 1] = rsp_hex_digit(bytes[i]);
	}
	out[len * RSP_HEX_PER_BYTE] = '\0';
	return len * RSP_HEX_PER_BYTE;
}

size_t rsp_hex_le_u32_encode(uint32_t value, char *out, size_t out_cap)
{
	uint8_t bytes[HEX_U32_BYTES];
	for (size_t i = 0; i < HEX_U32_BYTES; i++)
		bytes[i] = (uint8_t)(value >> (HEX_BYTE_BITS * i));
	return rsp_hex_encode(bytes, sizeof(bytes), out, out_cap);
}

size_t rsp_hex_request(char op, const uint64_t *values, size_t n, char *out, size_t out_cap)
{
	char digits[2U * sizeof(uint64_t)];
	size_t len = 0;
	if (out_cap == 0)
		return 0;
	out[0] = '\0';
	if (out_cap < 2U)
		return 0;
	out[len++] = op;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = values[i];
		size_t d = 0;
		do {
			digits[d++] = rsp_hex_digit((unsigned)v);
			v >>= HEX_NIBBLE_BITS;
		} while (v != 0);
		if (len + (i > 0 ? 1U : 0U) + d + 1U > out_cap) {
			out[0] = '\0';
			return 0;
		}
		if (i > 0)
			out[len++] = RSP_ARG_SEPARATOR;
		while (d > 0)
			out[len++] = digits[--d];
	}
	out[len] = '\0';
	return len;
}
