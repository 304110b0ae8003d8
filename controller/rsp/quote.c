#include "rsp/quote.h"

#include "rsp/hex.h"

#include <stdbool.h>
#include <stdint.h>

#define QUOTE_MARK '"'
#define QUOTE_BACKSLASH '\\'
#define QUOTE_PRINTABLE_FIRST ' '
#define QUOTE_PRINTABLE_LAST '~'
#define QUOTE_NIBBLE_BITS 4U
#define QUOTE_ELLIPSIS "..."

/* Appends the n characters at s to out at *pos, then a NUL, if both fit;
 * returns false (nothing written) when they do not. */
static bool quote_append(char *out, size_t out_cap, size_t *pos, const char *s, size_t n)
{
	if (n >= out_cap - *pos)
		return false;
	for (size_t i = 0; i < n; i++)
		out[*pos + i] = s[i];
	*pos += n;
	out[*pos] = '\0';
	return true;
}

const char *rsp_quote(const void *data, size_t len, char *out, size_t out_cap)
{
	const uint8_t *bytes = data;
	size_t pos = 0;
	if (out_cap == 0)
		return out;
	out[0] = '\0';
	const char mark[] = {QUOTE_MARK};
	if (!quote_append(out, out_cap, &pos, mark, sizeof(mark)))
		return out;
	size_t shown = len < RSP_QUOTE_MAX_BYTES ? len : RSP_QUOTE_MAX_BYTES;
	for (size_t i = 0; i < shown; i++) {
		uint8_t b = bytes[i];
		char piece[4];
		size_t n;
		if (b == QUOTE_MARK || b == QUOTE_BACKSLASH) {
			piece[0] = QUOTE_BACKSLASH;
			piece[1] = (char)b;
			n = 2;
		} else if (b >= QUOTE_PRINTABLE_FIRST && b <= QUOTE_PRINTABLE_LAST) {
			piece[0] = (char)b;
			n = 1;
		} else {
			piece[0] = QUOTE_BACKSLASH;
			piece[1] = 'x';
			piece[2] = rsp_hex_digit(b >> QUOTE_NIBBLE_BITS);
			piece[3] = rsp_hex_digit(b);
			n = sizeof(piece);
		}
		if (!quote_append(out, out_cap, &pos, piece, n))
			return out;
	}
	if (!quote_append(out, out_cap, &pos, mark, sizeof(mark)))
		return out;
	if (shown < len)
		quote_append(out, out_cap, &pos, QUOTE_ELLIPSIS, sizeof(QUOTE_ELLIPSIS) - 1);
	return out;
}
