/*
 * A profile for the report's flame graph: call stacks merged into a tree
 * whose nodes carry their own weight (self), read from
 *   - folded stacks: one `root;caller;leaf COUNT` line per stack (Brendan
 *     Gregg's stackcollapse output, `benchrack profile --format folded`);
 *   - speedscope's file format (its JSON names speedscope's
 *     file-format-schema.json as "$schema"): every profile of the file, sampled
 *     (samples: frame indices from the root to the leaf, with weights) or
 *     evented (frames opened and closed at values; the time between two
 *     events goes to the stack open then).
 * The tree is flat: node 0 is the root (the profile), every other node has
 * its parent's index, so the page rebuilds it however deep it is.
 */
#ifndef BENCHRACK_REPORT_REPORT_PROFILE_H
#define BENCHRACK_REPORT_REPORT_PROFILE_H

#include <stddef.h>

#include "common/error.h"

#define BR_FLAME_MAX_NODES 200000U
#define BR_FLAME_MAX_DEPTH 1024U
#define BR_FLAME_NO_PARENT ((size_t)-1)

#define BR_FLAME_MAX_LINES 200U  /* the hottest lines kept for the page */
#define BR_FLAME_MAX_SOURCE 240U /* characters of a source line kept */

/* One source line of a benchrack profile record: its count (self). */
typedef struct br_flame_line {
	char *file;     /* as the profile names it (owned) */
	char *function; /* the function it lies in (owned) */
	unsigned line;
	double self;
	char *source; /* the line's text (owned), NULL when the file was not read */
} br_flame_line_t;

typedef struct br_flame {
	char name[256];  /* the profile's name (speedscope), or the file's */
	char path[1024]; /* the file it came from */
	char unit[32];   /* "samples" (folded, speedscope "none"), "nanoseconds", "bytes", ... */
	size_t count;    /* nodes */
	size_t *parent;  /* BR_FLAME_NO_PARENT for node 0 */
	char **names;    /* each node's frame name (owned) */
	double *self;    /* weight of the stacks that end at the node */
	size_t *first_child, *next_sibling; /* the tree, for merging stacks */
	double total;                       /* sum of self */
	size_t stacks;          /* stacks (folded lines, samples, or event intervals) read */
	br_flame_line_t *lines; /* a benchrack record's hottest lines, highest first */
	size_t line_count;      /* 0 for folded and speedscope files */
} br_flame_t;

/*
 * Reads the profile file at path (folded, speedscope or a benchrack record,
 * told apart by the first character, '{' for JSON, then by "kind":
 * "profile") and appends each profile it holds to
 * *profiles (count in *count; free each with br_flame_free, then the
 * array). BR_ERR_INPUT naming path (and line:col) on anything malformed: a
 * folded line without a count, a frame index out of range, unbalanced
 * events, more than BR_FLAME_MAX_NODES nodes or BR_FLAME_MAX_DEPTH
 * frames in one stack, a record's chain or line of the wrong shape.
 */
br_status_t br_flame_read(const char *path, br_flame_t **profiles, size_t *count, br_error_t *err);

void br_flame_free(br_flame_t *p);

#endif
