#include "yaml/yaml_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "common/file_read.h"
#include "common/xalloc.h"
#include "yaml/cfg_error.h"

/* An open sequence or mapping while its events arrive. */
typedef struct yaml_frame {
	br_yaml_node_t *node;
	size_t entries;  /* children so far (keys and values both, for a mapping) */
	size_t capacity; /* room in node->children */
} yaml_frame_t;

typedef struct yaml_builder {
	const char *name;
	br_yaml_node_t *root;
	yaml_frame_t stack[BR_YAML_MAX_DEPTH];
	size_t depth;
	unsigned documents;
	br_error_t *err;
} yaml_builder_t;

static br_yaml_mark_t mark_of(const yaml_mark_t *m)
{
	br_yaml_mark_t out = {(unsigned)m->line + 1U, (unsigned)m->column + 1U};
	return out;
}

static br_status_t fail_at(yaml_builder_t *b, br_yaml_mark_t mark, const char *what)
{
	return br_cfg_error(b->err, b->name, mark, "%s", what);
}

static void node_free(br_yaml_node_t *node)
{
	if (node == NULL)
		return;
	size_t children = node->kind == BR_YAML_MAPPING ? node->count * 2U : node->count;
	for (size_t i = 0; i < children; i++)
		node_free(node->children[i]);
	free(node->children);
	free(node->text);
	free(node);
}

/* Adds child to the innermost open container, or makes it the root. Takes
 * ownership of child whatever happens. */
static br_status_t attach(yaml_builder_t *b, br_yaml_node_t *child)
{
	if (b->depth == 0) {
		b->root = child;
		return BR_OK;
	}
	yaml_frame_t *f = &b->stack[b->depth - 1U];
	br_yaml_node_t *parent = f->node;
	if (parent->kind == BR_YAML_MAPPING && f->entries % 2U == 0U) {
		if (child->kind != BR_YAML_SCALAR) {
			br_yaml_mark_t m = child->mark;
			node_free(child);
			return fail_at(b, m,
			               "a key must be a plain name, not a list or mapping; "
			               "expected key: value");
		}
		if (f->entries / 2U >= BR_YAML_MAX_PAIRS) {
			br_yaml_mark_t m = child->mark;
			node_free(child);
			return fail_at(b, m, "too many keys in one mapping (more than 4096)");
		}
		for (size_t i = 0; i < f->entries; i += 2U) {
			const br_yaml_node_t *key = parent->children[i];
			if (strcmp(key->text, child->text) == 0) {
				br_status_t st = br_cfg_error(
				    b->err, b->name, child->mark,
				    "key '%s' given twice (first at line %u); expected each key "
				    "once",
				    child->text, key->mark.line);
				node_free(child);
				return st;
			}
		}
	}
	if (f->entries == f->capacity) {
		size_t old = f->capacity;
		f->capacity = old == 0 ? 8U : old * 2U;
		parent->children =
		    xrealloc(parent->children, f->capacity * sizeof(parent->children[0]));
		/* Zeroed, so that freeing a mapping whose last value has not
		 * arrived yet (an error mid-way) frees a NULL there. */
		memset(parent->children + old, 0,
		       (f->capacity - old) * sizeof(parent->children[0]));
	}
	parent->children[f->entries++] = child;
	/* A mapping counts a key whose value is still to come as a pair. */
	parent->count = parent->kind == BR_YAML_MAPPING ? (f->entries + 1U) / 2U : f->entries;
	return BR_OK;
}

static br_yaml_node_t *node_new(br_yaml_kind_t kind, const yaml_mark_t *mark)
{
	br_yaml_node_t *n = xcalloc(1, sizeof(*n));
	n->kind = kind;
	n->mark = mark_of(mark);
	return n;
}

/* Anchors, aliases and tags make a document mean something other than what
 * it literally says; configs here stay literal. */
static br_status_t refuse_decorations(yaml_builder_t *b, const yaml_event_t *ev,
                                      const yaml_char_t *anchor, const yaml_char_t *tag)
{
	if (anchor != NULL)
		return fail_at(b, mark_of(&ev->start_mark),
		               "anchors (&name) are not supported; expected the value written out");
	if (tag != NULL)
		return fail_at(b, mark_of(&ev->start_mark),
		               "tags (!name) are not supported; expected a plain value");
	return BR_OK;
}

static br_status_t on_scalar(yaml_builder_t *b, const yaml_event_t *ev)
{
	br_status_t st = refuse_decorations(b, ev, ev->data.scalar.anchor, ev->data.scalar.tag);
	if (st != BR_OK)
		return st;
	size_t len = ev->data.scalar.length;
	if (memchr(ev->data.scalar.value, '\0', len) != NULL)
		return fail_at(b, mark_of(&ev->start_mark),
		               "a value holds a NUL character; expected text");
	br_yaml_node_t *n = node_new(BR_YAML_SCALAR, &ev->start_mark);
	n->text = xmalloc(len + 1U);
	memcpy(n->text, ev->data.scalar.value, len);
	n->text[len] = '\0';
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	return attach(b, n);
}

static br_status_t on_start(yaml_builder_t *b, const yaml_event_t *ev, br_yaml_kind_t kind)
{
	const yaml_char_t *anchor = kind == BR_YAML_MAPPING ? ev->data.mapping_start.anchor
	                                                    : ev->data.sequence_start.anchor;
	const yaml_char_t *tag =
	    kind == BR_YAML_MAPPING ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
	br_status_t st = refuse_decorations(b, ev, anchor, tag);
	if (st != BR_OK)
		return st;
	if (b->depth == BR_YAML_MAX_DEPTH)
		return fail_at(b, mark_of(&ev->start_mark),
		               "nested too deeply (more than 32 levels)");
	br_yaml_node_t *n = node_new(kind, &ev->start_mark);
	st = attach(b, n);
	if (st != BR_OK)
		return st;
	yaml_frame_t *f = &b->stack[b->depth++];
	f->node = n;
	f->entries = 0;
	f->capacity = 0;
	return BR_OK;
}

/* Handles one event; *done is set at the end of the stream. */
static br_status_t on_event(yaml_builder_t *b, const yaml_event_t *ev, bool *done)
{
	switch (ev->type) {
	case YAML_STREAM_START_EVENT:
	case YAML_DOCUMENT_END_EVENT:
	case YAML_NO_EVENT:
		return BR_OK;
	case YAML_STREAM_END_EVENT:
		*done = true;
		return BR_OK;
	case YAML_DOCUMENT_START_EVENT:
		if (++b->documents > 1U)
			return fail_at(b, mark_of(&ev->start_mark),
			               "a second YAML document; expected one document per file");
		return BR_OK;
	case YAML_ALIAS_EVENT:
		return fail_at(b, mark_of(&ev->start_mark),
		               "aliases (*name) are not supported; expected the value written out");
	case YAML_SCALAR_EVENT:
		return on_scalar(b, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_start(b, ev, BR_YAML_SEQUENCE);
	case YAML_MAPPING_START_EVENT:
		return on_start(b, ev, BR_YAML_MAPPING);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->depth > 0)
			b->depth--;
		return BR_OK;
	}
	return BR_OK;
}

/* Line and column (1-based, columns in bytes) of byte offset in data. */
static br_yaml_mark_t mark_at_offset(const unsigned char *data, size_t size, size_t offset)
{
	br_yaml_mark_t m = {1U, 1U};
	for (size_t i = 0; i < offset && i < size; i++) {
		if (data[i] == '\n') {
			m.line++;
			m.column = 1U;
		} else {
			m.column++;
		}
	}
	return m;
}

static br_status_t parser_error(yaml_builder_t *b, const yaml_parser_t *p,
                                const unsigned char *data, size_t size)
{
	const char *problem = p->problem != NULL ? p->problem : "cannot be parsed";
	if (p->error == YAML_MEMORY_ERROR)
		return br_error_set(b->err, BR_ERR_INPUT, "%s: out of memory while parsing YAML",
		                    b->name);
	if (p->error == YAML_READER_ERROR) {
		br_yaml_mark_t m = mark_at_offset(data, size, p->problem_offset);
		return br_cfg_error(b->err, b->name, m, "%s (byte %zu); expected UTF-8 text",
		                    problem, p->problem_offset);
	}
	br_yaml_mark_t m = mark_of(&p->problem_mark);
	if (p->context != NULL) {
		br_yaml_mark_t c = mark_of(&p->context_mark);
		return br_cfg_error(b->err, b->name, m,
		                    "YAML syntax error: %s (%s at line %u, column %u)", problem,
		                    p->context, c.line, c.column);
	}
	return br_cfg_error(b->err, b->name, m, "YAML syntax error: %s", problem);
}

br_status_t br_yaml_parse(const char *name, const unsigned char *data, size_t size,
                          br_yaml_doc_t *doc, br_error_t *err)
{
	memset(doc, 0, sizeof(*doc));
	/* A UTF-8 byte order mark (as some editors write) is no content: skipped,
	 * as YAML 1.2 5.2 allows. libyaml would read it as text, the encoding
	 * being set. */
	static const unsigned char bom[] = {0xEFU, 0xBBU, 0xBFU};
	if (size >= sizeof(bom) && memcmp(data, bom, sizeof(bom)) == 0) {
		data += sizeof(bom);
		size -= sizeof(bom);
	}
	yaml_builder_t b;
	memset(&b, 0, sizeof(b));
	b.name = name;
	b.err = err;
	yaml_parser_t parser;
	if (yaml_parser_initialize(&parser) == 0)
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot start the YAML parser", name);
	yaml_parser_set_input_string(&parser, data, size);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	br_status_t st = BR_OK;
	bool done = false;
	while (st == BR_OK && !done) {
		yaml_event_t ev;
		if (yaml_parser_parse(&parser, &ev) == 0) {
			st = parser_error(&b, &parser, data, size);
			break;
		}
		st = on_event(&b, &ev, &done);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	if (st != BR_OK) {
		node_free(b.root);
		return st;
	}
	doc->name = xstrdup(name);
	doc->root = b.root;
	return BR_OK;
}

br_status_t br_yaml_load_as(const char *path, br_yaml_parse_fn parse, br_yaml_doc_t *doc,
                            br_error_t *err)
{
	memset(doc, 0, sizeof(*doc));
	unsigned char *data = NULL;
	size_t size = 0;
	br_status_t st = br_file_read_all(path, BR_YAML_MAX_FILE_BYTES, &data, &size, err);
	if (st != BR_OK)
		return st;
	st = parse(path, data, size, doc, err);
	free(data);
	return st;
}

br_status_t br_yaml_load(const char *path, br_yaml_doc_t *doc, br_error_t *err)
{
	return br_yaml_load_as(path, br_yaml_parse, doc, err);
}

void br_yaml_doc_free(br_yaml_doc_t *doc)
{
	node_free(doc->root);
	free(doc->name);
	doc->root = NULL;
	doc->name = NULL;
}

const br_yaml_node_t *br_yaml_map_get(const br_yaml_node_t *map, const char *key)
{
	if (map == NULL || map->kind != BR_YAML_MAPPING)
		return NULL;
	for (size_t i = 0; i < map->count; i++) {
		if (strcmp(map->children[2U * i]->text, key) == 0)
			return map->children[2U * i + 1U];
	}
	return NULL;
}

const char *br_yaml_kind_name(br_yaml_kind_t kind)
{
	switch (kind) {
	case BR_YAML_SCALAR:
		return "a single value";
	case BR_YAML_SEQUENCE:
		return "a list";
	case BR_YAML_MAPPING:
		return "a mapping";
	}
	return "a node";
}
