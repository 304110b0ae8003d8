/*
 * Percent-encoding (RFC 3986 2.1) of one URL path segment or query value:
 * every byte but the unreserved characters (ALPHA, DIGIT, '-', '.', '_',
 * '~') becomes %XX, so a database called "a&b" or a project "x/y" stays one
 * value of the URL it is put in.
 */
#ifndef BENCHRACK_UPLOAD_PERCENT_H
#define BENCHRACK_UPLOAD_PERCENT_H

#include <stdbool.h>
#include <stdio.h>

/* Writes s percent-encoded to out. */
void br_percent_write(FILE *out, const char *s);

/* True when s is non-empty and every byte is unreserved (nothing to encode). */
bool br_percent_is_plain(const char *s);

#endif
