#include "yaml/schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/edit_distance.h"
#include "common/xalloc.h"
#include "yaml/scalar.h"

#define SCHEMA_PATH_BYTES 256U
#define SCHEMA_LIST_BYTES 512U
#define SCHEMA_SUGGEST_DISTANCE 2U

typedef struct decoder {
	const char *file;
	br_error_t *err;
} decoder_t;

/* The field at offset in the struct obj (every field type starts with
 * br_cfg_section_t's members, and offsetof keeps its alignment). */
static const void *field_at(const void *obj, size_t offset)
{
	return (const char *)obj + offset;
}

/* The bytes one value of type takes in a struct or a list. */
static size_t slot_size(br_cfg_type_t type, const br_cfg_map_t *map)
{
	switch (type) {
	case BR_CFG_STRING:
		return sizeof(br_cfg_string_t);
	case BR_CFG_UINT:
		return sizeof(br_cfg_uint_t);
	case BR_CFG_NUMBER:
		return sizeof(br_cfg_number_t);
	case BR_CFG_BOOL:
		return sizeof(br_cfg_bool_t);
	case BR_CFG_ENUM:
		return sizeof(br_cfg_enum_t);
	case BR_CFG_MAP:
		return map->size;
	case BR_CFG_LIST:
		return sizeof(br_cfg_list_t);
	}
	return 0;
}

/* Every slot type starts with `bool set; br_yaml_mark_t mark;`. */
static void mark_set(void *slot, const br_yaml_node_t *node)
{
	br_cfg_section_t *head = slot;
	head->set = true;
	head->mark = node->mark;
}

static void free_slot(br_cfg_type_t type, const br_cfg_field_t *field, void *slot);

static void free_fields(const br_cfg_field_t *fields, size_t count, void *obj)
{
	for (size_t i = 0; i < count; i++)
		free_slot(fields[i].type, &fields[i], (char *)obj + fields[i].offset);
}

static void free_slot(br_cfg_type_t type, const br_cfg_field_t *field, void *slot)
{
	if (type == BR_CFG_STRING) {
		br_cfg_string_t *s = slot;
		free(s->value);
		s->value = NULL;
	} else if (type == BR_CFG_MAP) {
		br_cfg_free(field->map, slot);
	} else if (type == BR_CFG_LIST) {
		br_cfg_list_t *list = slot;
		size_t size = slot_size(field->element, field->map);
		for (size_t i = 0; list->items != NULL && i < list->count; i++)
			free_slot(field->element, field, (char *)list->items + i * size);
		free(list->items);
		list->items = NULL;
		list->count = 0;
	}
}

void br_cfg_free(const br_cfg_map_t *map, void *obj)
{
	free_fields(map->fields, map->field_count, obj);
	for (size_t v = 0; v < map->variant_count; v++)
		free_fields(map->variants[v].fields, map->variants[v].field_count, obj);
	memset(obj, 0, map->size);
}

/* "where" a message talks about: the key path, or the map's own name at the top. */
static const char *where(const char *path, const br_cfg_map_t *map)
{
	return path[0] != '\0' ? path : map->what;
}

static br_status_t decode_map(const decoder_t *d, const br_cfg_map_t *map, const char *form,
                              const br_yaml_node_t *node, void *obj, const char *path);

static void join_names(const char *const *names, char *buf, size_t cap)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; names[i] != NULL && n < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", i > 0 ? ", " : "", names[i]);
}

/* The expected form a message names: the field's own words, or for an enum
 * without them "one of" its names (each closed set is listed once, where it
 * is declared) and its note. */
typedef struct form_text {
	char text[SCHEMA_LIST_BYTES + SCHEMA_PATH_BYTES];
} form_text_t;

static const br_cfg_field_t *find_field(const br_cfg_field_t *fields, size_t count,
                                        const char *key);

/* A map picked by its selector: "a mapping with kind: a|b|c and its keys". */
static const char *selected_map_form(const br_cfg_map_t *map, form_text_t *buf)
{
	const br_cfg_field_t *sel = find_field(map->fields, map->field_count, map->selector);
	if (sel == NULL || sel->names == NULL)
		return "";
	size_t n = (size_t)snprintf(buf->text, sizeof(buf->text), "a mapping with %s: ", sel->key);
	for (size_t i = 0; sel->names[i] != NULL && n < sizeof(buf->text); i++)
		n += (size_t)snprintf(buf->text + n, sizeof(buf->text) - n, "%s%s",
		                      i > 0 ? "|" : "", sel->names[i]);
	if (n < sizeof(buf->text))
		snprintf(buf->text + n, sizeof(buf->text) - n, " and its keys");
	return buf->text;
}

static const char *form_of(const br_cfg_field_t *f, form_text_t *buf)
{
	if (f->form != NULL)
		return f->form;
	if (f->type == BR_CFG_MAP && f->map != NULL && f->map->selector != NULL)
		return selected_map_form(f->map, buf);
	if (f->type != BR_CFG_ENUM || f->names == NULL)
		return "";
	char names[SCHEMA_LIST_BYTES];
	join_names(f->names, names, sizeof(names));
	snprintf(buf->text, sizeof(buf->text), "one of %s%s%s", names, f->note != NULL ? " " : "",
	         f->note != NULL ? f->note : "");
	return buf->text;
}

#define FORM(f) form_of((f), &(form_text_t){{0}})

/* How a node that should have been one value shows in a message. */
static br_status_t not_a_value(const decoder_t *d, const br_cfg_field_t *f,
                               const br_yaml_node_t *node, const char *path)
{
	return br_cfg_error(d->err, d->file, node->mark, "%s is %s; expected %s", path,
	                    br_yaml_kind_name(node->kind), FORM(f));
}

static br_status_t decode_uint(const decoder_t *d, const br_cfg_field_t *f,
                               const br_yaml_node_t *node, br_cfg_uint_t *slot, const char *path)
{
	uint64_t v = 0;
	if (!node->plain)
		return br_cfg_error(d->err, d->file, node->mark,
		                    "%s: \"%s\" is quoted text; expected %s", path, node->text,
		                    FORM(f));
	if (!br_scalar_uint(node->text, f->size_suffix, &v))
		return br_cfg_error(d->err, d->file, node->mark,
		                    "%s: '%s' is not a whole number; expected %s", path, node->text,
		                    FORM(f));
	bool ranged = f->min != 0 || f->max != 0;
	if (ranged && (v < f->min || v > f->max))
		return br_cfg_error(d->err, d->file, node->mark,
		                    "%s: %s is out of range; expected %s", path, node->text,
		                    FORM(f));
	slot->value = v;
	return BR_OK;
}

static br_status_t decode_number(const decoder_t *d, const br_cfg_field_t *f,
                                 const br_yaml_node_t *node, br_cfg_number_t *slot,
                                 const char *path)
{
	double v = 0.0;
	if (!node->plain)
		return br_cfg_error(d->err, d->file, node->mark,
		                    "%s: \"%s\" is quoted text; expected %s", path, node->text,
		                    FORM(f));
	if (!br_scalar_number(node->text, &v))
		return br_cfg_error(d->err, d->file, node->mark,
		                    "%s: '%s' is not a number; expected %s", path, node->text,
		                    FORM(f));
	bool ranged = f->min_number != 0.0 || f->max_number != 0.0;
	if (ranged && (v < f->min_number || v > f->max_number))
		return br_cfg_error(d->err, d->file, node->mark,
		                    "%s: %s is out of range; expected %s", path, node->text,
		                    FORM(f));
	slot->value = v;
	return BR_OK;
}

static br_status_t decode_enum(const decoder_t *d, const br_cfg_field_t *f,
                               const br_yaml_node_t *node, br_cfg_enum_t *slot, const char *path)
{
	for (unsigned i = 0; f->names[i] != NULL; i++) {
		if (strcmp(f->names[i], node->text) == 0) {
			slot->value = i;
			return BR_OK;
		}
	}
	char allowed[SCHEMA_LIST_BYTES];
	join_names(f->names, allowed, sizeof(allowed));
	return br_cfg_error(d->err, d->file, node->mark,
	                    "%s: '%s' is not allowed; expected one of: %s", path, node->text,
	                    allowed);
}

static br_status_t decode_value(const decoder_t *d, const br_cfg_field_t *f, br_cfg_type_t type,
                                const br_yaml_node_t *node, void *slot, const char *path);

static br_status_t decode_list(const decoder_t *d, const br_cfg_field_t *f,
                               const br_yaml_node_t *node, br_cfg_list_t *list, const char *path)
{
	if (node->kind != BR_YAML_SEQUENCE)
		return not_a_value(d, f, node, path);
	if (node->count < f->min_items || (f->max_items != 0 && node->count > f->max_items))
		return br_cfg_error(d->err, d->file, node->mark, "%s has %zu items; expected %s",
		                    path, node->count, FORM(f));
	size_t size = slot_size(f->element, f->map);
	list->items = xcalloc(node->count == 0 ? 1U : node->count, size);
	list->count = node->count;
	for (size_t i = 0; i < node->count; i++) {
		char item_path[SCHEMA_PATH_BYTES];
		snprintf(item_path, sizeof(item_path), "%s[%zu]", path, i);
		const br_yaml_node_t *item = node->children[i];
		if (br_scalar_is_null(item))
			return br_cfg_error(d->err, d->file, item->mark, "%s is empty; expected %s",
			                    item_path, FORM(f));
		br_status_t st =
		    decode_value(d, f, f->element, item, (char *)list->items + i * size, item_path);
		if (st != BR_OK)
			return st;
	}
	return BR_OK;
}

/* Decodes node (not null) as a value of type into slot. */
static br_status_t decode_value(const decoder_t *d, const br_cfg_field_t *f, br_cfg_type_t type,
                                const br_yaml_node_t *node, void *slot, const char *path)
{
	if (type == BR_CFG_MAP)
		return decode_map(d, f->map, FORM(f), node, slot, path);
	mark_set(slot, node);
	if (type == BR_CFG_LIST)
		return decode_list(d, f, node, slot, path);
	if (node->kind != BR_YAML_SCALAR)
		return not_a_value(d, f, node, path);
	switch (type) {
	case BR_CFG_STRING: {
		if (node->text[0] == '\0')
			return br_cfg_error(d->err, d->file, node->mark, "%s is empty; expected %s",
			                    path, FORM(f));
		br_cfg_string_t *s = slot;
		s->value = xstrdup(node->text);
		return BR_OK;
	}
	case BR_CFG_UINT:
		return decode_uint(d, f, node, slot, path);
	case BR_CFG_NUMBER:
		return decode_number(d, f, node, slot, path);
	case BR_CFG_BOOL: {
		br_cfg_bool_t *b = slot;
		if (!node->plain || !br_scalar_bool(node->text, &b->value))
			return br_cfg_error(d->err, d->file, node->mark,
			                    "%s: '%s' is not true or false; expected %s", path,
			                    node->text, FORM(f));
		return BR_OK;
	}
	case BR_CFG_ENUM:
		return decode_enum(d, f, node, slot, path);
	case BR_CFG_MAP:
	case BR_CFG_LIST:
		break;
	}
	return BR_OK;
}

static const br_cfg_field_t *find_field(const br_cfg_field_t *fields, size_t count, const char *key)
{
	for (size_t i = 0; i < count; i++) {
		if (strcmp(fields[i].key, key) == 0)
			return &fields[i];
	}
	return NULL;
}

/* Appends the keys of fields to buf (comma separated) and remembers the
 * closest one to key. */
static void list_keys(const br_cfg_field_t *fields, size_t count, const char *key, char *buf,
                      size_t cap, const char **closest, size_t *best)
{
	for (size_t i = 0; i < count; i++) {
		size_t n = strlen(buf);
		if (n < cap)
			snprintf(buf + n, cap - n, "%s%s", n > 0 ? ", " : "", fields[i].key);
		size_t dist = br_edit_distance(key, fields[i].key);
		if (dist < *best) {
			*best = dist;
			*closest = fields[i].key;
		}
	}
}

/* The selector's value a variant is for: its own, or (NULL) the selector's
 * name at the variant's index. */
static const char *variant_value(const br_cfg_map_t *map, const br_cfg_variant_t *variant)
{
	if (variant->value != NULL)
		return variant->value;
	const br_cfg_field_t *f = find_field(map->fields, map->field_count, map->selector);
	return f != NULL ? f->names[variant - map->variants] : "";
}

static br_status_t unknown_key(const decoder_t *d, const br_cfg_map_t *map,
                               const br_cfg_variant_t *variant, const br_yaml_node_t *key,
                               const char *path)
{
	char keys[SCHEMA_LIST_BYTES] = "";
	const char *closest = NULL;
	size_t best = SCHEMA_SUGGEST_DISTANCE + 1U;
	list_keys(map->fields, map->field_count, key->text, keys, sizeof(keys), &closest, &best);
	char qualifier[SCHEMA_PATH_BYTES] = "";
	if (variant != NULL) {
		list_keys(variant->fields, variant->field_count, key->text, keys, sizeof(keys),
		          &closest, &best);
		snprintf(qualifier, sizeof(qualifier), " (%s %s)", map->selector,
		         variant_value(map, variant));
	}
	char hint[SCHEMA_PATH_BYTES] = "";
	if (closest != NULL)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", closest);
	return br_cfg_error(d->err, d->file, key->mark,
	                    "unknown key '%s' in %s%s%s; expected one of: %s", key->text,
	                    where(path, map), qualifier, hint, keys);
}

static br_status_t check_required(const decoder_t *d, const br_cfg_map_t *map,
                                  const br_cfg_field_t *fields, size_t count,
                                  const br_yaml_node_t *node, const void *obj, const char *path)
{
	for (size_t i = 0; i < count; i++) {
		const br_cfg_section_t *head = field_at(obj, fields[i].offset);
		if (fields[i].required && !head->set)
			return br_cfg_error(d->err, d->file, node->mark,
			                    "%s lacks required key '%s'; expected %s: %s",
			                    where(path, map), fields[i].key, fields[i].key,
			                    FORM(&fields[i]));
	}
	return BR_OK;
}

/* Decodes one key of a mapping into obj; a null value leaves the field unset. */
static br_status_t decode_key(const decoder_t *d, const br_cfg_field_t *f,
                              const br_yaml_node_t *value, void *obj, const char *path)
{
	char child[SCHEMA_PATH_BYTES];
	snprintf(child, sizeof(child), "%s%s%s", path, path[0] != '\0' ? "." : "", f->key);
	if (br_scalar_is_null(value)) {
		if (f->required)
			return br_cfg_error(d->err, d->file, value->mark,
			                    "%s is empty; expected %s", child, FORM(f));
		return BR_OK;
	}
	return decode_value(d, f, f->type, value, (char *)obj + f->offset, child);
}

/* Finds the variant the selector picks (NULL when the map has none or the
 * selector is missing). The selector itself is decoded with the other keys. */
static br_status_t pick_variant(const decoder_t *d, const br_cfg_map_t *map,
                                const br_yaml_node_t *node, void *obj, const char *path,
                                const br_cfg_variant_t **out)
{
	*out = NULL;
	if (map->selector == NULL)
		return BR_OK;
	const br_yaml_node_t *value = br_yaml_map_get(node, map->selector);
	const br_cfg_field_t *f = find_field(map->fields, map->field_count, map->selector);
	if (f == NULL)
		return BR_OK;
	if (value == NULL && f->required) /* before any key it would have allowed */
		return br_cfg_error(d->err, d->file, node->mark,
		                    "%s lacks required key '%s'; expected %s: %s", where(path, map),
		                    f->key, f->key, FORM(f));
	if (value == NULL)
		return BR_OK;
	br_status_t st = decode_key(d, f, value, obj, path);
	if (st != BR_OK)
		return st;
	const br_cfg_enum_t *sel = field_at(obj, f->offset);
	if (!sel->set)
		return BR_OK;
	for (size_t v = 0; v < map->variant_count; v++) {
		if (strcmp(variant_value(map, &map->variants[v]), f->names[sel->value]) == 0)
			*out = &map->variants[v];
	}
	return BR_OK;
}

static br_status_t decode_map(const decoder_t *d, const br_cfg_map_t *map, const char *form,
                              const br_yaml_node_t *node, void *obj, const char *path)
{
	mark_set(obj, node);
	if (node->kind == BR_YAML_SCALAR && map->shorthand != NULL) {
		const br_cfg_field_t *f = find_field(map->fields, map->field_count, map->shorthand);
		if (f != NULL)
			return decode_key(d, f, node, obj, path);
	}
	if (node->kind != BR_YAML_MAPPING)
		return br_cfg_error(d->err, d->file, node->mark, "%s is %s; expected %s",
		                    where(path, map), br_yaml_kind_name(node->kind), form);
	const br_cfg_variant_t *variant = NULL;
	br_status_t st = pick_variant(d, map, node, obj, path, &variant);
	if (st != BR_OK)
		return st;
	for (size_t i = 0; i < node->count; i++) {
		const br_yaml_node_t *key = node->children[2U * i];
		const br_yaml_node_t *value = node->children[2U * i + 1U];
		if (map->selector != NULL && strcmp(key->text, map->selector) == 0)
			continue; /* decoded by pick_variant */
		const br_cfg_field_t *f = find_field(map->fields, map->field_count, key->text);
		if (f == NULL && variant != NULL)
			f = find_field(variant->fields, variant->field_count, key->text);
		if (f == NULL)
			return unknown_key(d, map, variant, key, path);
		st = decode_key(d, f, value, obj, path);
		if (st != BR_OK)
			return st;
	}
	st = check_required(d, map, map->fields, map->field_count, node, obj, path);
	if (st == BR_OK && variant != NULL)
		st = check_required(d, map, variant->fields, variant->field_count, node, obj, path);
	return st;
}

br_status_t br_cfg_decode(const br_yaml_doc_t *doc, const br_cfg_map_t *map, void *out,
                          br_error_t *err)
{
	memset(out, 0, map->size);
	decoder_t d = {doc->name, err};
	if (doc->root == NULL || br_scalar_is_null(doc->root)) {
		br_yaml_mark_t first = {1U, 1U};
		return br_cfg_error(err, doc->name, first,
		                    "the file is empty; expected a %s mapping (key: value lines)",
		                    map->what);
	}
	if (doc->root->kind != BR_YAML_MAPPING)
		return br_cfg_error(err, doc->name, doc->root->mark,
		                    "the file holds %s; expected a %s mapping (key: value lines)",
		                    br_yaml_kind_name(doc->root->kind), map->what);
	br_status_t st = decode_map(&d, map, "", doc->root, out, "");
	if (st != BR_OK)
		br_cfg_free(map, out);
	return st;
}
