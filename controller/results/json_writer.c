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

static void write_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
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
			if (*p < 0x20U)
				fprintf(out, "\\u%04x", (unsigned)*p);
			else
				fputc(*p, out);
		}
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

void br_json_finish(br_json_t *j)
{
	fputc('\n', j->out);
}
