#include "results/json_writer.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "common/escape.h"
#include "common/xalloc.h"

#define JSON_INDENT_SPACES 2
#define JSON_DOUBLE_DIGITS 17
#define JSON_EXACT_DOUBLE_LIMIT 9007199254740992.0 /* 2^53 */

void br_json_init(br_json_t *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->key = NULL;
}

static void write_document(br_json_t *j, json_t *doc)
{
	/* ASCII only (issue 31): every code point past U+007F is a \uNNNN
	 * escape, so a bidi override or a line separator in a name reaches no
	 * terminal or page raw; a reader gets the same text back. */
	json_dumpf(doc, j->out,
	           JSON_INDENT(JSON_INDENT_SPACES) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY |
	               JSON_ENSURE_ASCII | JSON_REAL_PRECISION(JSON_DOUBLE_DIGITS));
}

/* Puts value (a new reference, taken here) where the writer stands: under
 * the pending key, at the end of the open array, or as the whole document. */
static void place(br_json_t *j, json_t *value)
{
	if (value == NULL)
		value = json_null();
	if (j->depth == 0) {
		write_document(j, value);
		json_decref(value);
	} else if (json_is_object(j->open[j->depth - 1])) {
		json_object_set_new(j->open[j->depth - 1], j->key != NULL ? j->key : "", value);
	} else {
		json_array_append_new(j->open[j->depth - 1], value);
	}
	free(j->key);
	j->key = NULL;
}

static void open_container(br_json_t *j, json_t *c)
{
	if (j->depth == BR_JSON_MAX_DEPTH) { /* deeper than any document here: dropped */
		json_decref(c);
		return;
	}
	if (j->depth > 0) {
		place(j, json_incref(c));
		json_decref(c);
	}
	j->open[j->depth++] = c;
}

static void close_container(br_json_t *j)
{
	if (j->depth == 0)
		return;
	j->depth--;
	if (j->depth == 0) {
		write_document(j, j->open[0]);
		json_decref(j->open[0]);
	}
	j->open[j->depth] = NULL;
}

void br_json_object_begin(br_json_t *j)
{
	open_container(j, json_object());
}

void br_json_object_end(br_json_t *j)
{
	close_container(j);
}

void br_json_array_begin(br_json_t *j)
{
	open_container(j, json_array());
}

void br_json_array_end(br_json_t *j)
{
	close_container(j);
}

void br_json_key(br_json_t *j, const char *key)
{
	free(j->key);
	j->key = br_utf8_repair(key);
}

void br_json_string(br_json_t *j, const char *s)
{
	char *text = br_utf8_repair(s);
	place(j, json_string(text));
	free(text);
}

void br_json_uint(br_json_t *j, uint64_t v)
{
	if (v > (uint64_t)INT64_MAX)
		place(j, json_real((double)v));
	else
		place(j, json_integer((json_int_t)v));
}

void br_json_int(br_json_t *j, int64_t v)
{
	place(j, json_integer((json_int_t)v));
}

void br_json_double(br_json_t *j, double v)
{
	if (!isfinite(v))
		place(j, json_null());
	else if (v == floor(v) && fabs(v) < JSON_EXACT_DOUBLE_LIMIT)
		place(j, json_integer((json_int_t)v));
	else
		place(j, json_real(v));
}

void br_json_bool(br_json_t *j, bool v)
{
	place(j, json_boolean(v));
}

void br_json_null(br_json_t *j)
{
	place(j, json_null());
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
	while (j->depth > 1)
		close_container(j);
	if (j->depth == 1) { /* an unfinished document: dropped, never half-written */
		json_decref(j->open[0]);
		j->depth = 0;
	}
	free(j->key);
	j->key = NULL;
	fputc('\n', j->out);
}
