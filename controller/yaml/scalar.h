/*
 * What a YAML scalar means, decided in one place and strictly: a whole number
 * is decimal or 0x hex digits (optionally with a K/M/G binary suffix where a
 * size is asked for), a number is decimal with an optional fraction and
 * exponent, a boolean is true or false, and null is ~, null or nothing. YAML
 * 1.1's other spellings (yes/no/on/off, octal 0o, sexagesimal 1:30) are not
 * accepted: a config either says what it means or is refused.
 */
#ifndef BENCHRACK_YAML_SCALAR_H
#define BENCHRACK_YAML_SCALAR_H

#include <stdbool.h>
#include <stdint.h>

#include "yaml/yaml_tree.h"

/* True when node is a plain (unquoted) empty value, ~, null, Null or NULL. */
bool br_scalar_is_null(const br_yaml_node_t *node);

/*
 * Parses text as a whole number: decimal digits, or 0x followed by hex
 * digits; with with_suffix, one of K, M, G may follow (times 1024, 1024^2,
 * 1024^3). No sign, no spaces. Returns false on anything else or when the
 * value does not fit in 64 bits.
 */
bool br_scalar_uint(const char *text, bool with_suffix, uint64_t *out);

/* Parses text as a finite decimal number ("5", "-2.5", "1e3"). Returns false
 * on anything else (hex, inf, nan, trailing text, overflow). */
bool br_scalar_number(const char *text, double *out);

/* Parses "true" or "false". Returns false on anything else. */
bool br_scalar_bool(const char *text, bool *out);

#endif
