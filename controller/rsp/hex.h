/*
 * Hexadecimal encoding and bounded, cursor-advancing parsers for RSP payloads
 * (curl's STRPARSE habit): every parser takes `const char **cursor` and the end
 * of the text, never reads at or past `end`, advances the cursor past what it
 * consumed on success and leaves it untouched on failure, so calls chain:
 *
 *	if (!rsp_hex_u32(&p, end, &addr) || !rsp_expect_char(&p, end, ',') ...)
 *
 * The text need not be NUL-terminated. Digits are accepted in either case;
 * the encoders write lower case, as GDB does.
 */
#ifndef BENCHRACK_RSP_HEX_H
#define BENCHRACK_RSP_HEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hex digits per byte. */
#define RSP_HEX_PER_BYTE 2U

/* The value 0..15 of the hex digit c, or -1 when c is not a hex digit. */
int rsp_hex_digit_value(int c);

/* The lower-case hex digit for nibble & 0xf. */
char rsp_hex_digit(unsigned nibble);

/*
 * Parses a big-endian hex number (as addresses and lengths are written):
 * one or more hex digits, stopping at the first non-hex character or at end.
 * Leading zeros are allowed. Returns false (cursor unchanged) when there is no
 * digit or the value exceeds UINT32_MAX.
 */
bool rsp_hex_u32(const char **cursor, const char *end, uint32_t *out);

/*
 * Consumes the single character c. Returns false (cursor unchanged) when the
 * text is exhausted or the next character is not c.
 */
bool rsp_expect_char(const char **cursor, const char *end, char c);

/*
 * Decodes exactly n bytes from 2n hex digits into out (which holds n bytes).
 * Returns false (cursor unchanged, out possibly partly written) when fewer
 * than 2n characters remain or one of them is not a hex digit.
 */
bool rsp_hex_bytes(const char **cursor, const char *end, uint8_t *out, size_t n);

/*
 * Decodes a register value sent in target byte order (little endian on
 * Cortex-M): exactly 2 * nbytes hex digits, the first pair being the least
 * significant byte, so "78563412" with nbytes 4 is 0x12345678. nbytes is
 * 1..8. Returns false (cursor unchanged) on a short or non-hex text or a bad
 * nbytes.
 */
bool rsp_hex_le(const char **cursor, const char *end, size_t nbytes, uint64_t *out);

/* rsp_hex_le for a 32-bit register: exactly 8 hex digits. */
bool rsp_hex_le_u32(const char **cursor, const char *end, uint32_t *out);

/*
 * Writes len bytes of data as 2 * len lower-case hex digits plus a NUL into
 * out (out_cap bytes). Returns the number of digits written (2 * len), or 0
 * when out_cap < 2 * len + 1 (out untouched then).
 */
size_t rsp_hex_encode(const void *data, size_t len, char *out, size_t out_cap);

/*
 * Writes value as 8 hex digits in little-endian byte order (what a 'P' packet
 * sends for a 32-bit Cortex-M register) plus a NUL. Returns 8, or 0 when
 * out_cap < 9.
 */
size_t rsp_hex_le_u32_encode(uint32_t value, char *out, size_t out_cap);

/*
 * Writes a request of the form op followed by the n values in lower-case hex
 * without leading zeros, separated by ',' ("m8000000,4", "Z0,8000100,2",
 * "p19"), plus a NUL, into out (out_cap bytes): what snprintf with "%x" would
 * write, without its cost on the per-halt path. Returns the length, or 0 when
 * it does not fit (out is then "" if out_cap > 0).
 */
size_t rsp_hex_request(char op, const uint64_t *values, size_t n, char *out, size_t out_cap);

#endif
