/*
 * Edit distance (Levenshtein: insertions, deletions, substitutions) between
 * two short names, for "did you mean" hints: YAML keys (yaml/schema.c) and
 * symbols (elf/elf_symbols.c) share it.
 */
#ifndef BENCHRACK_COMMON_EDIT_DISTANCE_H
#define BENCHRACK_COMMON_EDIT_DISTANCE_H

#include <stddef.h>

/* Names this long or longer are not compared (SIZE_MAX: far apart). */
#define BR_EDIT_DISTANCE_MAX_LEN 128U

/* The edit distance between a and b, or SIZE_MAX when either is
 * BR_EDIT_DISTANCE_MAX_LEN bytes or longer. */
size_t br_edit_distance(const char *a, const char *b);

#endif
