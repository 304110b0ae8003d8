/*
 * The one escaping utility for names that come from files or ELFs (suite,
 * bench and board names, symbol names, paths, a server's words) on their
 * way to a terminal, CSV, Markdown, JUnit, HTML or JSON. Text that is valid
 * UTF-8 and holds no control character passes unchanged; everything else is
 * made visible and harmless:
 *
 *   - C0 controls, DEL and the C1 controls (U+0080..U+009F) become \n, \r,
 *     \t or \xNN (for C1: the two bytes of their UTF-8 form, \xc2\xNN), so
 *     an ESC byte never reaches a terminal and a name stays on one line;
 *   - bytes that are not UTF-8 (RFC 3629: no overlong form, no surrogate,
 *     nothing past U+10FFFF) become \xNN too;
 *   - the code points that reorder or break a line of text — bidi embeddings,
 *     overrides, isolates and marks (U+202A..U+202E, U+2066..U+2069, U+200E,
 *     U+200F, U+061C) and the line and paragraph separators (U+2028, U+2029)
 *     — become \uNNNN (issue 31: a right-to-left override in a bench name
 *     made a table lie);
 *   - for markup (JUnit XML, HTML), the result also has & < > " ' as entities.
 *
 * For JSON, which can carry any code point as an escape, br_utf8_repair only
 * replaces what is not UTF-8 with U+FFFD: the JSON library escapes the rest.
 */
#ifndef BENCHRACK_COMMON_ESCAPE_H
#define BENCHRACK_COMMON_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Bytes br_escape_text may need for an input of n bytes (each byte becomes at
 * most four), the NUL included. */
#define BR_ESCAPE_BYTES(n) (4U * (n) + 1U)

/*
 * Writes s escaped as above into out (cap bytes, cap > 0), always
 * NUL-terminated; when out is too small the text is cut before an escape or
 * a character, never inside one. Returns out, so the call can be an argument
 * of printf.
 */
const char *br_escape_text(const char *s, char *out, size_t cap);

/* Writes s escaped as br_escape_text does to out. */
void br_escape_text_write(FILE *out, const char *s);

/* Writes s escaped as br_escape_text does, then with & < > " ' as XML/HTML
 * entities, to out: text and attribute values of XML 1.0 and HTML. */
void br_escape_markup_write(FILE *out, const char *s);

/* Writes s escaped as br_escape_text does, with '|' as "\|", to out: the
 * text of a cell of a Markdown (GitHub-flavoured) table. */
void br_escape_table_cell_write(FILE *out, const char *s);

/* True when s is valid UTF-8 without any control character: a name that
 * needs no escape. Configuration refuses names for which this is false. */
bool br_text_is_plain(const char *s);

/* A copy of s (malloc'd, the caller frees) in which every byte that is not
 * part of a valid UTF-8 sequence is replaced by U+FFFD. */
char *br_utf8_repair(const char *s);

#endif
