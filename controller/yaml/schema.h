/*
 * Schema-driven decoding of a YAML tree into C structs. A schema is a table
 * of keys (name, type, required, allowed values or range, the expected form
 * in words) with the offset of the field each fills, so adding a section to
 * a config file is adding a table and a struct, not parsing code.
 *
 * Every value lands in a br_cfg_* field that says whether it was given and
 * where (line, column), so later checks that involve several keys can point
 * at the right place. Every struct a mapping fills starts with a
 * br_cfg_section_t.
 *
 * Every error is BR_ERR_INPUT with one line of the form
 *   file:line:col: <what is wrong>; expected <form>
 * e.g. "board.yaml:7:3: unknown key 'machin' in server (kind qemu); expected
 * one of: kind, program, machine, args".
 */
#ifndef BENCHRACK_YAML_SCHEMA_H
#define BENCHRACK_YAML_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "yaml/cfg_error.h"
#include "yaml/yaml_tree.h"

typedef struct br_cfg_section {
	bool set;
	br_yaml_mark_t mark;
} br_cfg_section_t;

typedef struct br_cfg_string {
	bool set;
	br_yaml_mark_t mark;
	char *value; /* owned */
} br_cfg_string_t;

typedef struct br_cfg_uint {
	bool set;
	br_yaml_mark_t mark;
	uint64_t value;
} br_cfg_uint_t;

typedef struct br_cfg_number {
	bool set;
	br_yaml_mark_t mark;
	double value;
} br_cfg_number_t;

typedef struct br_cfg_bool {
	bool set;
	br_yaml_mark_t mark;
	bool value;
} br_cfg_bool_t;

typedef struct br_cfg_enum {
	bool set;
	br_yaml_mark_t mark;
	unsigned value; /* index into the field's names */
} br_cfg_enum_t;

typedef struct br_cfg_list {
	bool set;
	br_yaml_mark_t mark;
	void *items; /* count elements of the element's struct (owned) */
	size_t count;
} br_cfg_list_t;

typedef enum br_cfg_type {
	BR_CFG_STRING, /* br_cfg_string_t: any single value, kept as text */
	BR_CFG_UINT,   /* br_cfg_uint_t: whole number in [min, max] */
	BR_CFG_NUMBER, /* br_cfg_number_t: finite number in [min_number, max_number] */
	BR_CFG_BOOL,   /* br_cfg_bool_t: true or false */
	BR_CFG_ENUM,   /* br_cfg_enum_t: one of names */
	BR_CFG_MAP,    /* an embedded struct described by map */
	BR_CFG_LIST,   /* br_cfg_list_t of element (a scalar type, or MAP with map) */
} br_cfg_type_t;

typedef struct br_cfg_map br_cfg_map_t;

typedef struct br_cfg_field {
	const char *key;
	br_cfg_type_t type;
	size_t offset; /* of the br_cfg_* field (or embedded struct) in the parent */
	bool required;
	const char *form;              /* the expected form, in words, for messages;
	                                  ENUM: NULL for "one of" its names and note;
	                                  MAP with a selector: NULL for "a mapping
	                                  with KEY: a|b|c and its keys" */
	const char *note;              /* ENUM without form: words after the names */
	uint64_t min, max;             /* UINT: inclusive range (both 0: any) */
	bool size_suffix;              /* UINT: K, M, G accepted */
	double min_number, max_number; /* NUMBER: inclusive range (both 0: any) */
	const char *const *names;      /* ENUM: allowed values, NULL-terminated */
	const br_cfg_map_t *map;       /* MAP, or LIST of MAP */
	br_cfg_type_t element;         /* LIST: the type of each item */
	size_t min_items, max_items;   /* LIST: bounds (max 0: any) */
} br_cfg_field_t;

/* Keys allowed only when the map's selector key has a given value. */
typedef struct br_cfg_variant {
	const char *value; /* NULL: the selector's names[i] for variants[i] */
	const br_cfg_field_t *fields;
	size_t field_count;
} br_cfg_variant_t;

struct br_cfg_map {
	const char *what;             /* how messages name it: "suite", "budgets" */
	size_t size;                  /* sizeof the struct it fills */
	const br_cfg_field_t *fields; /* keys allowed always */
	size_t field_count;
	const char *shorthand; /* a bare value in its place sets this key (or NULL) */
	const char *selector;  /* an ENUM key among fields that picks a variant */
	const br_cfg_variant_t *variants;
	size_t variant_count;
};

#define BR_CFG_COUNT(array) (sizeof(array) / sizeof((array)[0]))

/*
 * Decodes doc's root, which must be a mapping, into out (a struct of
 * map->size bytes, zeroed here first). On error everything decoded so far is
 * freed, out is left zeroed, and err holds "file:line:col: ..." for the first
 * problem. An empty document is an error ("the file is empty").
 */
br_status_t br_cfg_decode(const br_yaml_doc_t *doc, const br_cfg_map_t *map, void *out,
                          br_error_t *err);

/* Frees every string and list that br_cfg_decode put in obj (a struct
 * described by map) and zeroes it. */
void br_cfg_free(const br_cfg_map_t *map, void *obj);

/* The i-th item of a list of structs of item_size bytes. */
static inline void *br_cfg_item(const br_cfg_list_t *list, size_t item_size, size_t i)
{
	return (char *)list->items + i * item_size;
}

#endif
