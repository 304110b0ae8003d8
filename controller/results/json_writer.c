#include "results/json_writer.h"

#include <inttypes.h>
#include <math.h>

#define JSON_INDENT "  "

void br_json_init(br_json_t *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
}

static void indent(br_json_t *j)
{
	fputc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs(JSON_INDENT, j->out);
}

/* Separator and indentation before a value or key at the current depth. */
static void before_item(br_json_t *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	if (!j->first[j->depth])
		fputc(',', j->out);
	j->first[j->depth] = false;
	indent(j);
}

static void open_container(br_json_t *j, char c)
{
	before_item(j);
	fputc(c, j->out);
	if (j->depth + 1 < BR_JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_container(br_json_t *j, char c)
{
	bool empty = j->first[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->out);
}

void br_json_object_begin(br_json_t *j)
{
	open_container(j, '{');
}

void br_json_object_end(br_json_t *j)
{
	close_container(j, '}');
}

void br_json_array_begin(br_json_t *j)
{
	open_container(j, '[');
}

void br_json_array_end(br_json_t *j)
{
	close_container(j, ']');
}

/*
 * The code point of the UTF-8 sequence at p (RFC 3629: no overlong forms, no
 * surrogates, at most U+10FFFF), its length in *len; -1 when p does not
 * start a valid sequence.
 */
static long utf8_decode(const unsigned char *p, size_t *len)
{
	static const unsigned char lead_mask[] = {0, 0, 0x1FU, 0x0FU, 0x07U};
	static const long min_value[] = {0, 0, 0x80L, 0x800L, 0x10000L};
	size_t n = (*p & 0xE0U) == 0xC0U ? 2U : (*p & 0xF0U) == 0xE0U ? 3U
					 : (*p & 0xF8U) == 0xF0U ? 4U : 0U;
	if (n == 0)
		return -1;
	long cp = *p & lead_mask[n];
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0U) != 0x80U)
			return -1;
		cp = (cp << 6) | (p[i] & 0x3FL);
	}
	if (cp < min_value[n] || cp > 0x10FFFFL || (cp >= 0xD800L && cp <= 0xDFFFL))
		return -1;
	*len = n;
	return cp;
}

/*
 * A JSON string (RFC 8259 7): quotes, backslashes and control characters
 * escaped; so are DEL, the C1 controls and U+FFFE/U+FFFF, which are valid
 * JSON but not printable YAML, so that every file written here can be read
 * back by results/record_read.c; bytes that are not UTF-8 become U+FFFD.
 */
static void write_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20U || *p == 0x7FU) {
				fprintf(out, "\\u%04x", (unsigned)*p);
			} else if (*p < 0x80U) {
				fputc(*p, out);
			} else {
				size_t len = 1;
				long cp = utf8_decode(p, &len);
				if (cp < 0)
					fputs("\\ufffd", out);
				else if (cp <= 0x9FL || cp == 0xFFFEL || cp == 0xFFFFL)
					fprintf(out, "\\u%04lx", (unsigned long)cp);
				else
					fwrite(p, 1, len, out);
				p += len;
				continue;
			}
		}
		p++;
	}
	fputc('"', out);
}

void br_json_key(br_json_t *j, const char *key)
{
	before_item(j);
	write_escaped(j->out, key);
	fputs(": ", j->out);
	j->after_key = true;
}

void br_json_string(br_json_t *j, const char *s)
{
	before_item(j);
	write_escaped(j->out, s);
}

void br_json_uint(br_json_t *j, uint64_t v)
{
	before_item(j);
	fprintf(j->out, "%" PRIu64, v);
}

void br_json_int(br_json_t *j, int64_t v)
{
	before_item(j);
	fprintf(j->out, "%" PRId64, v);
}

void br_json_double(br_json_t *j, double v)
{
	before_item(j);
	if (!isfinite(v)) {
		fputs("null", j->out);
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(j->out, "%.0f", v);
	else
		fprintf(j->out, "%.17g", v);
}

void br_json_bool(br_json_t *j, bool v)
{
	before_item(j);
	fputs(v ? "true" : "false", j->out);
}

void br_json_null(br_json_t *j)
{
	before_item(j);
	fputs("null", j->out);
}

void br_json_string_or_null(br_json_t *j, const char *s)
{
	if (s != NULL)
		br_json_string(j, s);
	else
		br_json_null(j);
}

void br_json_finish(br_json_t *j)
{
	fputc('\n', j->out);
}
