#include "results/json_doc.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_read.h"
#include "common/xalloc.h"
#include "yaml/cfg_error.h"

#define JSON_DOUBLE_TEXT 32U

static br_yaml_node_t *scalar_node(const char *text, bool plain)
{
	br_yaml_node_t *n = xcalloc(1, sizeof(*n));
	n->kind = BR_YAML_SCALAR;
	n->text = xstrdup(text);
	n->plain = plain;
	return n;
}

/* The node tree for value; jansson bounds the nesting (JSON_PARSER_MAX_DEPTH). */
static br_yaml_node_t *node_of(json_t *value)
{
	char text[JSON_DOUBLE_TEXT];
	switch (json_typeof(value)) {
	case JSON_OBJECT: {
		br_yaml_node_t *n = xcalloc(1, sizeof(*n));
		n->kind = BR_YAML_MAPPING;
		n->count = json_object_size(value);
		n->children = xcalloc(2U * n->count + 1U, sizeof(n->children[0]));
		size_t i = 0;
		const char *key;
		json_t *item;
		json_object_foreach(value, key, item)
		{
			n->children[2U * i] = scalar_node(key, false);
			n->children[2U * i + 1U] = node_of(item);
			i++;
		}
		return n;
	}
	case JSON_ARRAY: {
		br_yaml_node_t *n = xcalloc(1, sizeof(*n));
		n->kind = BR_YAML_SEQUENCE;
		n->count = json_array_size(value);
		n->children = xcalloc(n->count + 1U, sizeof(n->children[0]));
		for (size_t i = 0; i < n->count; i++)
			n->children[i] = node_of(json_array_get(value, i));
		return n;
	}
	case JSON_STRING:
		return scalar_node(json_string_value(value), false);
	case JSON_INTEGER:
		snprintf(text, sizeof(text), "%" JSON_INTEGER_FORMAT, json_integer_value(value));
		return scalar_node(text, true);
	case JSON_REAL:
		snprintf(text, sizeof(text), "%.17g", json_real_value(value));
		return scalar_node(text, true);
	case JSON_TRUE:
		return scalar_node("true", true);
	case JSON_FALSE:
		return scalar_node("false", true);
	case JSON_NULL:
		break;
	}
	return scalar_node("null", true);
}

br_status_t br_json_doc_parse(const char *name, const unsigned char *data, size_t size,
                              br_yaml_doc_t *doc, br_error_t *err)
{
	memset(doc, 0, sizeof(*doc));
	json_error_t jerr;
	json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		br_yaml_mark_t mark = {jerr.line > 0 ? (unsigned)jerr.line : 1U,
		                       jerr.column > 0 ? (unsigned)jerr.column : 1U};
		return br_cfg_error(err, name, mark,
		                    "%s; expected a JSON document as benchrack "
		                    "writes it",
		                    jerr.text);
	}
	doc->name = xstrdup(name);
	doc->root = node_of(root);
	json_decref(root);
	return BR_OK;
}

br_status_t br_json_doc_load(const char *path, br_yaml_doc_t *doc, br_error_t *err)
{
	/* Records, baselines and spool items are benchrack's own files: a link
	 * planted among them is refused by name, never followed (issue 31). */
	memset(doc, 0, sizeof(*doc));
	unsigned char *data = NULL;
	size_t size = 0;
	br_status_t st =
	    br_file_read_regular(path, true, BR_YAML_MAX_FILE_BYTES, &data, &size, err);
	if (st != BR_OK)
		return st;
	st = br_json_doc_parse(path, data, size, doc, err);
	free(data);
	return st;
}
