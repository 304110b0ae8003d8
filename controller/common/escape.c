#include "common/escape.h"

#include <string.h>

#include "common/xalloc.h"

#define UTF8_REPLACEMENT "\xEF\xBF\xBD"

/*
 * The code point of the UTF-8 sequence at p (RFC 3629), its length in *len;
 * -1 (and *len 1) when p does not start a valid sequence.
 */
static long utf8_next(const unsigned char *p, size_t *len)
{
	static const unsigned char lead_mask[] = {0, 0x7FU, 0x1FU, 0x0FU, 0x07U};
	static const long min_value[] = {0, 0, 0x80L, 0x800L, 0x10000L};
	size_t n = *p < 0x80U              ? 1U
	           : (*p & 0xE0U) == 0xC0U ? 2U
	           : (*p & 0xF0U) == 0xE0U ? 3U
	           : (*p & 0xF8U) == 0xF0U ? 4U
	                                   : 0U;
	*len = 1;
	if (n == 0)
		return -1;
	long cp = *p & lead_mask[n];
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0U) != 0x80U)
			return -1;
		cp = (cp << 6) | (p[i] & 0x3FL);
	}
	if (n > 1 && (cp < min_value[n] || cp > 0x10FFFFL || (cp >= 0xD800L && cp <= 0xDFFFL)))
		return -1;
	*len = n;
	return cp;
}

static bool is_control(long cp)
{
	return cp < 0x20L || (cp >= 0x7FL && cp <= 0x9FL);
}

/* Code points that reorder or break the text around them on a terminal or a
 * page (issue 31): the bidirectional embeddings, overrides and isolates
 * (U+202A..U+202E, U+2066..U+2069), the marks (U+200E, U+200F, U+061C) and
 * the line and paragraph separators (U+2028, U+2029). */
static bool is_format_control(long cp)
{
	return (cp >= 0x202AL && cp <= 0x202EL) || (cp >= 0x2066L && cp <= 0x2069L) ||
	       cp == 0x200EL || cp == 0x200FL || cp == 0x061CL || cp == 0x2028L || cp == 0x2029L;
}

/* The escape for one control byte: "\n", "\r", "\t" or "\xNN". */
static void control_escape(unsigned char c, char out[5])
{
	const char *named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
	if (named != NULL) {
		memcpy(out, named, 3);
		return;
	}
	static const char hex[] = "0123456789abcdef";
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 0x0FU];
	out[4] = '\0';
}

/*
 * Calls emit(ctx, piece, len) for each piece of the escaped form of s: runs
 * of plain text as they are, each escape on its own.
 */
typedef void (*emit_fn)(void *ctx, const char *piece, size_t len);

static void escape_walk(const char *s, emit_fn emit, void *ctx)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p != '\0') {
		size_t len = 1;
		long cp = utf8_next(p, &len);
		if (cp >= 0 && is_format_control(cp)) {
			static const char hex[] = "0123456789abcdef";
			char esc[7] = {'\\',
			               'u',
			               hex[(cp >> 12) & 0xF],
			               hex[(cp >> 8) & 0xF],
			               hex[(cp >> 4) & 0xF],
			               hex[cp & 0xF],
			               '\0'};
			emit(ctx, esc, 6U);
			p += len;
			continue;
		}
		if (cp >= 0 && !is_control(cp)) {
			emit(ctx, (const char *)p, len);
			p += len;
			continue;
		}
		/* invalid byte, or a control (C1 controls are two bytes: both escaped) */
		for (size_t i = 0; i < len; i++) {
			char esc[5];
			control_escape(p[i], esc);
			emit(ctx, esc, strlen(esc));
		}
		p += len;
	}
}

typedef struct buffer_sink {
	char *out;
	size_t cap, used;
	bool full;
} buffer_sink_t;

static void emit_buffer(void *ctx, const char *piece, size_t len)
{
	buffer_sink_t *b = ctx;
	if (b->full || b->used + len + 1U > b->cap) {
		b->full = true;
		return;
	}
	memcpy(b->out + b->used, piece, len);
	b->used += len;
}

const char *br_escape_text(const char *s, char *out, size_t cap)
{
	buffer_sink_t b = {out, cap, 0, false};
	escape_walk(s, emit_buffer, &b);
	out[b.used] = '\0';
	return out;
}

static void emit_stream(void *ctx, const char *piece, size_t len)
{
	fwrite(piece, 1, len, (FILE *)ctx);
}

void br_escape_text_write(FILE *out, const char *s)
{
	escape_walk(s, emit_stream, out);
}

static void emit_cell(void *ctx, const char *piece, size_t len)
{
	FILE *out = ctx;
	for (size_t i = 0; i < len; i++) {
		if (piece[i] == '|')
			fputs("\\|", out);
		else
			fputc(piece[i], out);
	}
}

void br_escape_table_cell_write(FILE *out, const char *s)
{
	escape_walk(s, emit_cell, out);
}

static void emit_markup(void *ctx, const char *piece, size_t len)
{
	FILE *out = ctx;
	for (size_t i = 0; i < len; i++) {
		switch (piece[i]) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(piece[i], out);
		}
	}
}

void br_escape_markup_write(FILE *out, const char *s)
{
	escape_walk(s, emit_markup, out);
}

bool br_text_is_plain(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
		size_t len = 1;
		long cp = utf8_next(p, &len);
		if (cp < 0 || is_control(cp) || is_format_control(cp))
			return false;
		p += len;
	}
	return true;
}

char *br_utf8_repair(const char *s)
{
	size_t n = strlen(s);
	char *out = xmalloc(3U * n + 1U);
	size_t used = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
		size_t len = 1;
		if (utf8_next(p, &len) < 0) {
			memcpy(out + used, UTF8_REPLACEMENT, 3);
			used += 3;
		} else {
			memcpy(out + used, p, len);
			used += len;
		}
		p += len;
	}
	out[used] = '\0';
	return out;
}
