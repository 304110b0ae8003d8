/*
 * Writing JSON: a builder over jansson (results/README.md says why jansson).
 * Callers say what to write — objects, arrays, keys, strings, numbers — in
 * order; jansson holds the document and writes it (escaping, numbers,
 * indentation) when the outermost object or array closes. No output format
 * builds JSON text itself. Keys come out in the order they were given, so a
 * caller that writes them in a fixed order gets stable, diffable files.
 *
 * Integers are exact up to INT64_MAX (jansson's json_int_t); a double is
 * written with 17 significant digits, so it reads back as the same double,
 * and a whole double below 2^53 is written as an integer ("7", not "7.0").
 * Strings that are not UTF-8 have their bad bytes replaced by U+FFFD.
 */
#ifndef BENCHRACK_RESULTS_JSON_WRITER_H
#define BENCHRACK_RESULTS_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BR_JSON_MAX_DEPTH 16

typedef struct json_t json_t;

typedef struct br_json {
	FILE *out;
	int depth;
	json_t *open[BR_JSON_MAX_DEPTH]; /* the containers being filled, outermost first */
	char *key;                       /* the key the next value belongs to (owned) */
} br_json_t;

/* Starts writing to out (which stays the caller's). */
void br_json_init(br_json_t *j, FILE *out);

void br_json_object_begin(br_json_t *j);
/* Closes the object; closing the outermost container writes the document. */
void br_json_object_end(br_json_t *j);
void br_json_array_begin(br_json_t *j);
void br_json_array_end(br_json_t *j);
/* Names the next value: "key": value. A key given twice keeps the last value. */
void br_json_key(br_json_t *j, const char *key);
/* A JSON string (control characters escaped by jansson, RFC 8259 7). */
void br_json_string(br_json_t *j, const char *s);
/* v above INT64_MAX cannot be an exact JSON integer here: it is written as a double. */
void br_json_uint(br_json_t *j, uint64_t v);
void br_json_int(br_json_t *j, int64_t v);
/* Non-finite values become null. */
void br_json_double(br_json_t *j, double v);
void br_json_bool(br_json_t *j, bool v);
void br_json_null(br_json_t *j);
/* Writes s as br_json_string does, or null when s is NULL. */
void br_json_string_or_null(br_json_t *j, const char *s);
/* Ends the document with a newline (and frees what is left of an unfinished one). */
void br_json_finish(br_json_t *j);

#endif
