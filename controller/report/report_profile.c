#include "report/report_profile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "results/contract.h"
#include "yaml/scalar.h"
#include "yaml/yaml_tree.h"

/* ------------------------------------------------------------------ tree */

static size_t node_add(br_flame_t *p, size_t parent, const char *name, size_t len)
{
	size_t i = p->count++;
	p->parent = xrealloc(p->parent, p->count * sizeof(*p->parent));
	p->names = xrealloc(p->names, p->count * sizeof(*p->names));
	p->self = xrealloc(p->self, p->count * sizeof(*p->self));
	p->first_child = xrealloc(p->first_child, p->count * sizeof(*p->first_child));
	p->next_sibling = xrealloc(p->next_sibling, p->count * sizeof(*p->next_sibling));
	p->parent[i] = parent;
	p->names[i] = xmalloc(len + 1);
	memcpy(p->names[i], name, len);
	p->names[i][len] = '\0';
	p->self[i] = 0.0;
	p->first_child[i] = BR_FLAME_NO_PARENT;
	p->next_sibling[i] = BR_FLAME_NO_PARENT;
	if (parent != BR_FLAME_NO_PARENT) {
		p->next_sibling[i] = p->first_child[parent];
		p->first_child[parent] = i;
	}
	return i;
}

static void profile_start(br_flame_t *p, const char *path, const char *name, const char *unit)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", path);
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->unit, sizeof(p->unit), "%s", unit);
	node_add(p, BR_FLAME_NO_PARENT, p->name, strlen(p->name));
}

/* The child of parent called name, added when missing; BR_FLAME_NO_PARENT when full. */
static size_t child(br_flame_t *p, size_t parent, const char *name, size_t len)
{
	for (size_t c = p->first_child[parent]; c != BR_FLAME_NO_PARENT; c = p->next_sibling[c]) {
		if (strncmp(p->names[c], name, len) == 0 && p->names[c][len] == '\0')
			return c;
	}
	if (p->count >= BR_FLAME_MAX_NODES)
		return BR_FLAME_NO_PARENT;
	return node_add(p, parent, name, len);
}

/* One stack read, ending at node, of weight w. */
static void stack_done(br_flame_t *p, size_t node, double w)
{
	p->self[node] += w;
	p->total += w;
	p->stacks++;
}

static br_status_t too_big(const br_flame_t *p, br_error_t *err)
{
	return br_error_set(err, BR_ERR_INPUT,
	                    "%s: more than %u distinct call paths (or %u frames in one stack); "
	                    "fold the profile further (fewer frames, or a shorter region)",
	                    p->path, BR_FLAME_MAX_NODES, BR_FLAME_MAX_DEPTH);
}

void br_flame_free(br_flame_t *p)
{
	for (size_t i = 0; i < p->count; i++)
		free(p->names[i]);
	free(p->names);
	free(p->parent);
	free(p->self);
	free(p->first_child);
	free(p->next_sibling);
	for (size_t i = 0; i < p->line_count; i++) {
		free(p->lines[i].file);
		free(p->lines[i].function);
		free(p->lines[i].source);
	}
	free(p->lines);
	memset(p, 0, sizeof(*p));
}

static void append(br_flame_t **profiles, size_t *count, br_flame_t *p)
{
	*profiles = xrealloc(*profiles, (*count + 1) * sizeof(**profiles));
	(*profiles)[(*count)++] = *p;
}

/* ---------------------------------------------------------------- folded */

static br_status_t folded_line(br_flame_t *p, const char *line, size_t len, unsigned lineno,
                               br_error_t *err)
{
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		len--;
	if (len == 0)
		return BR_OK;
	size_t sp = len;
	while (sp > 0 && line[sp - 1] != ' ')
		sp--;
	char num[64];
	size_t nlen = len - sp;
	double weight = 0.0;
	if (sp > 1 && nlen > 0 && nlen < sizeof(num)) {
		memcpy(num, line + sp, nlen);
		num[nlen] = '\0';
		if (!br_scalar_number(num, &weight) || weight < 0.0)
			sp = 0;
	} else {
		sp = 0;
	}
	if (sp == 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s:%u: expected a folded stack: frames separated by ';', a "
		                    "space, and a count (e.g. `main;crc32_update 42`)",
		                    p->path, lineno);
	size_t node = 0, depth = 0;
	const char *f = line, *end = line + sp - 1; /* the stack, without the space */
	while (f <= end) {
		const char *semi = memchr(f, ';', (size_t)(end - f));
		size_t flen = semi != NULL ? (size_t)(semi - f) : (size_t)(end - f);
		if (++depth > BR_FLAME_MAX_DEPTH)
			return too_big(p, err);
		node = child(p, node, f, flen);
		if (node == BR_FLAME_NO_PARENT)
			return too_big(p, err);
		if (semi == NULL)
			break;
		f = semi + 1;
	}
	stack_done(p, node, weight);
	return BR_OK;
}

static br_status_t folded_read(const char *path, const char *text, size_t size,
                               br_flame_t **profiles, size_t *count, br_error_t *err)
{
	const char *base = strrchr(path, '/');
	br_flame_t p;
	profile_start(&p, path, base != NULL ? base + 1 : path, "samples");
	unsigned lineno = 0;
	for (size_t at = 0; at < size;) {
		const char *nl = memchr(text + at, '\n', size - at);
		size_t len = nl != NULL ? (size_t)(nl - (text + at)) : size - at;
		br_status_t st = folded_line(&p, text + at, len, ++lineno, err);
		if (st != BR_OK) {
			br_flame_free(&p);
			return st;
		}
		at += len + 1;
	}
	if (p.stacks == 0) {
		br_flame_free(&p);
		return br_error_set(err, BR_ERR_INPUT, "%s: no stack in the profile", path);
	}
	append(profiles, count, &p);
	return BR_OK;
}

/* ------------------------------------------------------------ speedscope */

typedef struct ss_reader {
	const char *path;
	br_error_t *err;
	const br_yaml_node_t *frames; /* shared.frames */
} ss_reader_t;

static br_status_t ss_bad(const ss_reader_t *r, const br_yaml_node_t *n, const char *what)
{
	if (n == NULL)
		return br_error_set(r->err, BR_ERR_INPUT,
		                    "%s: not a speedscope file: %s missing "
		                    "(speedscope's file format: shared.frames, profiles)",
		                    r->path, what);
	return br_error_set(r->err, BR_ERR_INPUT, "%s:%u:%u: expected %s", r->path, n->mark.line,
	                    n->mark.column, what);
}

static bool ss_number(const br_yaml_node_t *n, double *out)
{
	return n != NULL && n->kind == BR_YAML_SCALAR && n->plain && br_scalar_number(n->text, out);
}

/* The name of frame index node n. */
static br_status_t ss_frame(const ss_reader_t *r, const br_yaml_node_t *n, const char **name)
{
	double v;
	if (!ss_number(n, &v) || v < 0 || v != floor(v) || v >= (double)r->frames->count)
		return ss_bad(r, n, "a frame index into shared.frames");
	const br_yaml_node_t *f = r->frames->children[(size_t)v];
	const br_yaml_node_t *nm = br_yaml_map_get(f, "name");
	if (f->kind != BR_YAML_MAPPING || nm == NULL || nm->kind != BR_YAML_SCALAR)
		return ss_bad(r, f, "a frame with a \"name\"");
	*name = nm->text;
	return BR_OK;
}

static br_status_t ss_push(const ss_reader_t *r, br_flame_t *p, size_t *node, const char *name)
{
	size_t c = child(p, *node, name, strlen(name));
	if (c == BR_FLAME_NO_PARENT)
		return too_big(p, r->err);
	*node = c;
	return BR_OK;
}

static br_status_t ss_sampled(const ss_reader_t *r, const br_yaml_node_t *prof, br_flame_t *p)
{
	const br_yaml_node_t *samples = br_yaml_map_get(prof, "samples");
	const br_yaml_node_t *weights = br_yaml_map_get(prof, "weights");
	if (samples == NULL || samples->kind != BR_YAML_SEQUENCE)
		return ss_bad(r, samples != NULL ? samples : NULL, "\"samples\": a list of stacks");
	if (weights == NULL || weights->kind != BR_YAML_SEQUENCE ||
	    weights->count != samples->count)
		return ss_bad(r, weights != NULL ? weights : prof,
		              "\"weights\": a list as long as \"samples\"");
	for (size_t i = 0; i < samples->count; i++) {
		const br_yaml_node_t *stack = samples->children[i];
		double w;
		if (stack->kind != BR_YAML_SEQUENCE)
			return ss_bad(r, stack, "a stack: a list of frame indices");
		if (!ss_number(weights->children[i], &w) || w < 0)
			return ss_bad(r, weights->children[i], "a weight: a number, not negative");
		if (stack->count > BR_FLAME_MAX_DEPTH)
			return too_big(p, r->err);
		size_t node = 0;
		for (size_t k = 0; k < stack->count; k++) {
			const char *name;
			br_status_t st = ss_frame(r, stack->children[k], &name);
			if (st == BR_OK)
				st = ss_push(r, p, &node, name);
			if (st != BR_OK)
				return st;
		}
		stack_done(p, node, w);
	}
	return BR_OK;
}

static br_status_t ss_evented(const ss_reader_t *r, const br_yaml_node_t *prof, br_flame_t *p)
{
	const br_yaml_node_t *events = br_yaml_map_get(prof, "events");
	if (events == NULL || events->kind != BR_YAML_SEQUENCE)
		return ss_bad(r, events != NULL ? events : prof, "\"events\": a list");
	size_t *stack = xcalloc(BR_FLAME_MAX_DEPTH + 1, sizeof(*stack)); /* nodes open */
	size_t depth = 0;
	double last = 0.0;
	br_status_t st = BR_OK;
	for (size_t i = 0; i < events->count && st == BR_OK; i++) {
		const br_yaml_node_t *e = events->children[i];
		const br_yaml_node_t *type = br_yaml_map_get(e, "type");
		double at;
		const char *name = NULL;
		if (e->kind != BR_YAML_MAPPING || type == NULL || type->kind != BR_YAML_SCALAR ||
		    (strcmp(type->text, "O") != 0 && strcmp(type->text, "C") != 0)) {
			st = ss_bad(r, e, "an event with \"type\" \"O\" or \"C\"");
			break;
		}
		if (!ss_number(br_yaml_map_get(e, "at"), &at) || (i > 0 && at < last)) {
			st = ss_bad(r, e, "an event \"at\" a value not before the one before it");
			break;
		}
		st = ss_frame(r, br_yaml_map_get(e, "frame"), &name);
		if (st != BR_OK)
			break;
		if (depth > 0 && at > last) {
			stack_done(p, stack[depth], at - last);
		}
		last = at;
		if (type->text[0] == 'O') {
			size_t node = depth > 0 ? stack[depth] : 0;
			if (depth == BR_FLAME_MAX_DEPTH) {
				st = too_big(p, r->err);
				break;
			}
			st = ss_push(r, p, &node, name);
			stack[++depth] = node;
		} else if (depth == 0 || strcmp(p->names[stack[depth]], name) != 0) {
			st = ss_bad(r, e, "a close event of the frame open last (events balanced)");
		} else {
			depth--;
		}
	}
	if (st == BR_OK && depth != 0)
		st = ss_bad(r, events, "every opened frame closed (events balanced)");
	free(stack);
	return st;
}

static br_status_t speedscope_read(const char *path, const br_yaml_node_t *root,
                                   br_flame_t **profiles, size_t *count, br_error_t *err)
{
	br_status_t st = BR_OK;
	ss_reader_t r = {path, err, NULL};
	const br_yaml_node_t *shared = br_yaml_map_get(root, "shared");
	const br_yaml_node_t *profs = br_yaml_map_get(root, "profiles");
	r.frames = br_yaml_map_get(shared, "frames");
	if (r.frames == NULL || r.frames->kind != BR_YAML_SEQUENCE)
		st = ss_bad(&r, r.frames, "shared.frames, a list");
	else if (profs == NULL || profs->kind != BR_YAML_SEQUENCE || profs->count == 0)
		st = ss_bad(&r, profs, "\"profiles\", a list of at least one profile");
	for (size_t i = 0; st == BR_OK && i < profs->count; i++) {
		const br_yaml_node_t *prof = profs->children[i];
		const br_yaml_node_t *type = br_yaml_map_get(prof, "type");
		const br_yaml_node_t *name = br_yaml_map_get(prof, "name");
		const br_yaml_node_t *unit = br_yaml_map_get(prof, "unit");
		if (prof->kind != BR_YAML_MAPPING || type == NULL || type->kind != BR_YAML_SCALAR) {
			st = ss_bad(&r, prof, "a profile with \"type\" \"sampled\" or \"evented\"");
			break;
		}
		const char *u = unit != NULL && unit->kind == BR_YAML_SCALAR ? unit->text : "none";
		br_flame_t p;
		profile_start(&p, path,
		              name != NULL && name->kind == BR_YAML_SCALAR ? name->text : path,
		              strcmp(u, "none") == 0 ? "samples" : u);
		if (strcmp(type->text, "sampled") == 0)
			st = ss_sampled(&r, prof, &p);
		else if (strcmp(type->text, "evented") == 0)
			st = ss_evented(&r, prof, &p);
		else
			st = ss_bad(&r, type, "\"sampled\" or \"evented\"");
		if (st == BR_OK)
			append(profiles, count, &p);
		else
			br_flame_free(&p);
	}
	return st;
}

/* ------------------------------------------------ benchrack's own record */

static const char *scalar(const br_yaml_node_t *map, const char *key)
{
	const br_yaml_node_t *n = br_yaml_map_get(map, key);
	return n != NULL && n->kind == BR_YAML_SCALAR ? n->text : NULL;
}

/* The text of line `line` of file, opened as written or from the folder of
 * the profile at path; NULL when neither opens or the file is shorter. */
static char *source_line(const char *path, const char *file, unsigned line)
{
	FILE *f = fopen(file, "r");
	const char *slash = strrchr(path, '/');
	if (f == NULL && file[0] != '/' && slash != NULL) {
		char joined[2048];
		snprintf(joined, sizeof(joined), "%.*s/%s", (int)(slash - path), path, file);
		f = fopen(joined, "r");
	}
	if (f == NULL)
		return NULL;
	char buf[BR_FLAME_MAX_SOURCE + 2];
	char *text = NULL;
	unsigned at = 1;
	while (text == NULL && fgets(buf, sizeof(buf), f) != NULL) {
		size_t len = strlen(buf);
		bool whole = len > 0 && buf[len - 1] == '\n';
		if (at == line) {
			while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
				buf[--len] = '\0';
			text = xstrdup(buf);
		}
		int c;
		while (!whole && text == NULL && (c = fgetc(f)) != EOF && c != '\n')
			; /* the rest of a line longer than kept */
		at++;
	}
	fclose(f);
	return text;
}

/* A record's key that is missing or not a list. */
static br_status_t record_not_list(const ss_reader_t *r, const br_yaml_node_t *n, const char *key)
{
	char what[96];
	snprintf(what, sizeof(what), "\"%s\", a list (benchrack's profile record)", key);
	return ss_bad(r, n, what);
}

static br_status_t record_chains(const char *path, const br_yaml_node_t *chains, br_flame_t *p,
                                 br_error_t *err)
{
	ss_reader_t r = {path, err, NULL};
	if (chains == NULL || chains->kind != BR_YAML_SEQUENCE)
		return record_not_list(&r, chains, "chains");
	for (size_t i = 0; i < chains->count; i++) {
		const br_yaml_node_t *ch = chains->children[i];
		const br_yaml_node_t *frames = br_yaml_map_get(ch, "frames");
		double w;
		if (frames == NULL || frames->kind != BR_YAML_SEQUENCE ||
		    !ss_number(br_yaml_map_get(ch, "count"), &w) || w < 0)
			return ss_bad(&r, ch,
			              "a chain with \"frames\" (a list of names) and a "
			              "\"count\"");
		if (frames->count > BR_FLAME_MAX_DEPTH)
			return too_big(p, err);
		size_t node = 0;
		for (size_t k = 0; k < frames->count; k++) {
			const br_yaml_node_t *f = frames->children[k];
			if (f->kind != BR_YAML_SCALAR)
				return ss_bad(&r, f, "a frame's name");
			br_status_t st = ss_push(&r, p, &node, f->text);
			if (st != BR_OK)
				return st;
		}
		stack_done(p, node, w);
	}
	return BR_OK;
}

static br_status_t record_lines(const char *path, const br_yaml_node_t *lines, br_flame_t *p,
                                br_error_t *err)
{
	ss_reader_t r = {path, err, NULL};
	if (lines == NULL || lines->kind != BR_YAML_SEQUENCE)
		return record_not_list(&r, lines, "lines");
	size_t n = lines->count < BR_FLAME_MAX_LINES ? lines->count : BR_FLAME_MAX_LINES;
	p->lines = xcalloc(n + 1U, sizeof(*p->lines));
	for (size_t i = 0; i < n; i++) {
		const br_yaml_node_t *l = lines->children[i];
		const char *file = scalar(l, "file"), *function = scalar(l, "function");
		double line, self;
		if (file == NULL || function == NULL ||
		    !ss_number(br_yaml_map_get(l, "line"), &line) || line < 1 || line > 1e9 ||
		    line != floor(line) || !ss_number(br_yaml_map_get(l, "self"), &self) ||
		    self < 0)
			return ss_bad(&r, l,
			              "a line with \"file\", \"line\" (from 1), "
			              "\"function\" and \"self\"");
		br_flame_line_t *out = &p->lines[p->line_count++];
		out->file = xstrdup(file);
		out->function = xstrdup(function);
		out->line = (unsigned)line;
		out->self = self;
		out->source = source_line(path, file, out->line);
	}
	return BR_OK;
}

static br_status_t record_read(const char *path, const br_yaml_node_t *root, br_flame_t **profiles,
                               size_t *count, br_error_t *err)
{
	const char *base = strrchr(path, '/');
	const char *unit = scalar(root, "unit");
	double version = 0;
	if (!ss_number(br_yaml_map_get(root, "schema_version"), &version) ||
	    version != BR_CONTRACT_PROFILE_VERSION)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: a profile record of schema_version %s; this benchrack "
		                    "reads version %u: profile again with this benchrack",
		                    path,
		                    scalar(root, "schema_version") != NULL
		                        ? scalar(root, "schema_version")
		                        : "(none)",
		                    BR_CONTRACT_PROFILE_VERSION);
	br_flame_t p;
	profile_start(&p, path, base != NULL ? base + 1 : path, unit != NULL ? unit : "samples");
	br_status_t st = record_chains(path, br_yaml_map_get(root, "chains"), &p, err);
	if (st == BR_OK)
		st = record_lines(path, br_yaml_map_get(root, "lines"), &p, err);
	if (st == BR_OK && p.stacks == 0)
		st = br_error_set(err, BR_ERR_INPUT, "%s: no chain in the profile record", path);
	if (st != BR_OK) {
		br_flame_free(&p);
		return st;
	}
	append(profiles, count, &p);
	return BR_OK;
}

static br_status_t json_read(const char *path, const char *text, size_t size, br_flame_t **profiles,
                             size_t *count, br_error_t *err)
{
	br_yaml_doc_t doc;
	br_status_t st = br_yaml_parse(path, (const unsigned char *)text, size, &doc, err);
	if (st != BR_OK)
		return st;
	const char *kind = scalar(doc.root, "kind");
	st = kind != NULL && strcmp(kind, BR_CONTRACT_PROFILE) == 0
	         ? record_read(path, doc.root, profiles, count, err)
	         : speedscope_read(path, doc.root, profiles, count, err);
	br_yaml_doc_free(&doc);
	return st;
}

br_status_t br_flame_read(const char *path, br_flame_t **profiles, size_t *count, br_error_t *err)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot open the profile: %s", path,
		                    strerror(errno));
	char *text = NULL;
	size_t size = 0, cap = 0;
	for (;;) {
		if (size + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			text = xrealloc(text, cap);
		}
		size_t n = fread(text + size, 1, cap - size, f);
		size += n;
		if (n == 0)
			break;
		if (size > BR_YAML_MAX_FILE_BYTES) {
			fclose(f);
			free(text);
			return br_error_set(err, BR_ERR_INPUT, "%s: larger than %u bytes", path,
			                    BR_YAML_MAX_FILE_BYTES);
		}
	}
	bool failed = ferror(f) != 0;
	fclose(f);
	if (failed) {
		free(text);
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot read the profile", path);
	}
	size_t i = 0;
	while (i < size && isspace((unsigned char)text[i]))
		i++;
	br_status_t st = i < size && text[i] == '{'
	                     ? json_read(path, text, size, profiles, count, err)
	                     : folded_read(path, text, size, profiles, count, err);
	free(text);
	return st;
}
