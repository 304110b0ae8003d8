/*
 * YAML documents as a small tree of nodes, each with the line and column it
 * started at, so that everything checking a configuration can point at the
 * exact place in the file. Built with libyaml's event (parse) API; no YAML
 * type resolution happens here: scalars stay text, and yaml/scalar.h
 * decides what they mean.
 *
 * Deliberately refused, each with file:line:col: more than one document,
 * aliases (*name) and tags (!name) (configs stay literal, and a billion
 * laughs cannot happen), keys that are not scalars, a key given twice,
 * nesting deeper than BR_YAML_MAX_DEPTH, a mapping of more than
 * BR_YAML_MAX_PAIRS keys, scalars holding a NUL character. JSON written by
 * benchrack is YAML too (flow style): results/ reads it through this tree.
 */
#ifndef BENCHRACK_YAML_YAML_TREE_H
#define BENCHRACK_YAML_YAML_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

#define BR_YAML_MAX_DEPTH 32U
#define BR_YAML_MAX_PAIRS 4096U
#define BR_YAML_MAX_FILE_BYTES (16U * 1024U * 1024U)

/* Where a node starts: 1-based line and column, as editors count them. */
typedef struct br_yaml_mark {
	unsigned line;
	unsigned column;
} br_yaml_mark_t;

typedef enum br_yaml_kind {
	BR_YAML_SCALAR,
	BR_YAML_SEQUENCE,
	BR_YAML_MAPPING,
} br_yaml_kind_t;

typedef struct br_yaml_node br_yaml_node_t;

struct br_yaml_node {
	br_yaml_kind_t kind;
	br_yaml_mark_t mark;
	char *text; /* SCALAR: the value, NUL-terminated (never holds a NUL) */
	bool plain; /* SCALAR: written without quotes or | > (so 12 may be a number) */
	br_yaml_node_t **children; /* SEQUENCE: the items; MAPPING: key, value, key, value, ... */
	size_t count;              /* SEQUENCE: items; MAPPING: key/value pairs */
};

typedef struct br_yaml_doc {
	char *name;           /* the file name messages start with */
	br_yaml_node_t *root; /* NULL for an empty document */
} br_yaml_doc_t;

/*
 * Parses size bytes of YAML (UTF-8) into doc; name is what messages call the
 * input. Returns BR_OK with doc filled (free it with br_yaml_doc_free), or
 * BR_ERR_INPUT with "name:line:col: what is wrong" in err and doc empty.
 */
br_status_t br_yaml_parse(const char *name, const unsigned char *data, size_t size,
                          br_yaml_doc_t *doc, br_error_t *err);

/*
 * Reads the file at path (at most BR_YAML_MAX_FILE_BYTES) and parses it as
 * br_yaml_parse does, naming it path. A file that cannot be read is
 * BR_ERR_INPUT naming path and the reason.
 */
br_status_t br_yaml_load(const char *path, br_yaml_doc_t *doc, br_error_t *err);

/* A parser of a whole document into the tree: br_yaml_parse, or another
 * format's (results/json_doc.h). */
typedef br_status_t (*br_yaml_parse_fn)(const char *name, const unsigned char *data, size_t size,
                                        br_yaml_doc_t *doc, br_error_t *err);

/* Reads the file at path as br_yaml_load does and parses it with parse. */
br_status_t br_yaml_load_as(const char *path, br_yaml_parse_fn parse, br_yaml_doc_t *doc,
                            br_error_t *err);

/* Frees everything doc holds and leaves it empty. Safe on an empty doc. */
void br_yaml_doc_free(br_yaml_doc_t *doc);

/* The value of key in a MAPPING node, or NULL when map has no such key or is
 * not a mapping. */
const br_yaml_node_t *br_yaml_map_get(const br_yaml_node_t *map, const char *key);

/* "a mapping", "a list", "a scalar": what a node is, for messages. */
const char *br_yaml_kind_name(br_yaml_kind_t kind);

#endif
