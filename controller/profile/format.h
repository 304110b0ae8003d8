/*
 * The outputs of a profile (profile_data.h). Each writes to a FILE the CLI
 * owns; shapes are documented in controller/profile/README.md.
 *   table       functions by self count: self and total (count, percent and,
 *               for samples, the standard error of the share), the hottest
 *               source lines, and the figures around them (samples, outside
 *               the region, unwinding failures, lost).
 *   folded      one "root;...;leaf COUNT" line per distinct chain: the input
 *               of flamegraph.pl and inferno.
 *   speedscope  speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 *               one "sampled" profile, a sample per distinct chain weighted by its count.
 *   json        benchrack's own record: provenance, figures, functions, lines, chains.
 */
#ifndef BENCHRACK_PROFILE_FORMAT_H
#define BENCHRACK_PROFILE_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "profile/profile_data.h"

#define BR_PROFILE_SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"
/* Lines of the table's "hottest lines" list. */
#define BR_PROFILE_TABLE_LINES 10U

/* The formats, each declared once, here, as X(ID, name): --format NAME
 * picks one, and every list of them is made from this one
 * (tests/style/check_closed_sets.py fails on a name written elsewhere). */
#define BR_PROFILE_FORMAT_LIST(X)                                                                  \
	X(TABLE, "table")                                                                          \
	X(FOLDED, "folded")                                                                        \
	X(SPEEDSCOPE, "speedscope")                                                                \
	X(JSON, "json")

#define BR_PROFILE_FORMAT_ENUM_ROW(id, name) BR_PROFILE_FORMAT_##id,
typedef enum br_profile_format {
	BR_PROFILE_FORMAT_LIST(BR_PROFILE_FORMAT_ENUM_ROW) BR_PROFILE_FORMAT_COUNT
} br_profile_format_t;
#undef BR_PROFILE_FORMAT_ENUM_ROW

/* The format called name into *out; false when there is none. */
bool br_profile_format_find(const char *name, br_profile_format_t *out);

/* "table, folded, speedscope, json": the formats' names for help and errors. */
const char *br_profile_format_names(void);

/* Writes p to out in format f (version: benchrack's, for the formats that say it). */
void br_profile_write(FILE *out, br_profile_format_t f, const br_profile_t *p, const char *version);

void br_profile_write_table(FILE *out, const br_profile_t *p);
void br_profile_write_folded(FILE *out, const br_profile_t *p);
void br_profile_write_speedscope(FILE *out, const br_profile_t *p, const char *version);
void br_profile_write_json(FILE *out, const br_profile_t *p, const char *version);

#endif
