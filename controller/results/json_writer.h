/*
 * A small streaming JSON writer: objects, arrays, keys, escaped strings and
 * numbers, with commas and indentation handled here so that no output format
 * builds JSON by hand. Keys come out in the order they are written, so a
 * caller that writes them in a fixed order gets stable, diffable files.
 */
#ifndef BENCHRACK_RESULTS_JSON_WRITER_H
#define BENCHRACK_RESULTS_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BR_JSON_MAX_DEPTH 16

typedef struct br_json {
	FILE *out;
	int depth;
	bool first[BR_JSON_MAX_DEPTH]; /* nothing written yet at this depth */
	bool after_key;
} br_json_t;

/* Starts writing to out (which stays the caller's). */
void br_json_init(br_json_t *j, FILE *out);

void br_json_object_begin(br_json_t *j);
void br_json_object_end(br_json_t *j);
void br_json_array_begin(br_json_t *j);
void br_json_array_end(br_json_t *j);
/* Writes "key": — the next value belongs to it. */
void br_json_key(br_json_t *j, const char *key);
/* Writes s as a JSON string, escaping quotes, backslashes and control characters (RFC 8259). */
void br_json_string(br_json_t *j, const char *s);
void br_json_uint(br_json_t *j, uint64_t v);
void br_json_int(br_json_t *j, int64_t v);
/* Writes v with enough digits to read back the same double; non-finite values become null. */
void br_json_double(br_json_t *j, double v);
void br_json_bool(br_json_t *j, bool v);
void br_json_null(br_json_t *j);
/* Writes s as br_json_string does, or null when s is NULL. */
void br_json_string_or_null(br_json_t *j, const char *s);
/* Ends the document with a newline. */
void br_json_finish(br_json_t *j);

#endif
