#include "upload/item_json.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "yaml/schema.h"
#include "yaml/yaml_tree.h"
#include "results/json_doc.h"
#include "results/contract.h"
#include "results/json_writer.h"
#include "upload/timestamp.h"

#define ITEM_MAX_TIMEOUT_MS 3600000U
#define ITEM_MAX_ATTEMPTS 1000000U
#define ITEM_MIN_STATUS 100U
#define ITEM_MAX_STATUS 599U

/* --- writing ------------------------------------------------------------ */

static void string_or_null(br_json_t *j, const char *key, const char *value)
{
	br_json_key(j, key);
	br_json_string_or_null(j, value);
}

static void write_auth(br_json_t *j, const br_upload_item_t *item)
{
	br_json_key(j, "auth");
	if (item->auth == BR_UPLOAD_AUTH_NONE) {
		br_json_null(j);
		return;
	}
	br_json_object_begin(j);
	br_json_key(j, "scheme");
	br_json_string(j, br_upload_auth_name(item->auth));
	string_or_null(j, "header", item->auth_header);
	string_or_null(j, "username", item->username);
	string_or_null(j, "token_env", item->token_env);
	string_or_null(j, "token_file", item->token_file);
	br_json_object_end(j);
}

static void write_rejected(br_json_t *j, const br_upload_item_t *item)
{
	br_json_key(j, "rejected");
	if (item->rejected_at == NULL) {
		br_json_null(j);
		return;
	}
	br_json_object_begin(j);
	br_json_key(j, "status");
	br_json_uint(j, (uint64_t)item->rejected_status);
	string_or_null(j, "at", item->rejected_at);
	string_or_null(j, "message", item->rejected_message);
	br_json_object_end(j);
}

void br_upload_item_write(const br_upload_item_t *item, FILE *out)
{
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	br_json_key(&j, "kind");
	br_json_string(&j, BR_CONTRACT_UPLOAD_ITEM);
	br_json_key(&j, "schema_version");
	br_json_uint(&j, BR_CONTRACT_UPLOAD_ITEM_VERSION);
	string_or_null(&j, "id", item->id);
	string_or_null(&j, "sink", item->sink);
	string_or_null(&j, "sink_kind", item->kind);
	string_or_null(&j, "run_file", item->run_file);
	string_or_null(&j, "spooled", item->spooled);
	string_or_null(&j, "method", item->method);
	string_or_null(&j, "url", item->url);
	string_or_null(&j, "content_type", item->content_type);
	string_or_null(&j, "idempotency_key", item->idempotency_key);
	write_auth(&j, item);
	string_or_null(&j, "ca_file", item->ca_file);
	br_json_key(&j, "connect_timeout_ms");
	br_json_uint(&j, item->connect_timeout_ms);
	br_json_key(&j, "timeout_ms");
	br_json_uint(&j, item->timeout_ms);
	br_json_key(&j, "attempts");
	br_json_uint(&j, item->attempts);
	string_or_null(&j, "last_error", item->last_error);
	br_json_key(&j, "not_before");
	if (item->not_before_ms > 0) {
		char when[32];
		br_upload_time_format(item->not_before_ms, when, sizeof(when));
		br_json_string(&j, when);
	} else {
		br_json_null(&j);
	}
	write_rejected(&j, item);
	string_or_null(&j, "body", item->body);
	br_json_object_end(&j);
	br_json_finish(&j);
}

/* --- reading ------------------------------------------------------------ */

typedef struct ij_auth {
	br_cfg_section_t head;
	br_cfg_enum_t scheme;
	br_cfg_string_t header, username, token_env, token_file;
} ij_auth_t;

typedef struct ij_rejected {
	br_cfg_section_t head;
	br_cfg_uint_t status;
	br_cfg_string_t at, message;
} ij_rejected_t;

typedef struct ij_item {
	br_cfg_section_t head;
	br_cfg_enum_t kind;    /* version 2: "upload_item" */
	br_cfg_uint_t version; /* schema_version (2), or version 1's spool_version */
	br_cfg_string_t id, sink, sink_kind, run_file, spooled;
	br_cfg_enum_t method;
	br_cfg_string_t url, content_type, idempotency_key;
	ij_auth_t auth;
	br_cfg_string_t ca_file;
	br_cfg_uint_t connect_timeout_ms, timeout_ms, attempts;
	br_cfg_string_t last_error, not_before;
	ij_rejected_t rejected;
	br_cfg_string_t body;
} ij_item_t;

/* In the order of br_upload_auth_t (none is written as "auth": null). */
static const char *const schemes[] = {"none", "bearer", "token", "basic", "header", NULL};
static const char *const methods[] = {"POST", "PUT", NULL};
static const char *const item_kinds[] = {BR_CONTRACT_UPLOAD_ITEM, NULL};

#define TEXT "text"

#define A(field) offsetof(ij_auth_t, field)
static const br_cfg_field_t auth_fields[] = {
    {.key = "scheme",
     .type = BR_CFG_ENUM,
     .offset = A(scheme),
     .required = true,
     .names = schemes,
     .form = "bearer, token, basic or header"},
    {.key = "header", .type = BR_CFG_STRING, .offset = A(header), .form = "a header name"},
    {.key = "username", .type = BR_CFG_STRING, .offset = A(username), .form = TEXT},
    {.key = "token_env",
     .type = BR_CFG_STRING,
     .offset = A(token_env),
     .form = "an environment variable's name"},
    {.key = "token_file", .type = BR_CFG_STRING, .offset = A(token_file), .form = "a path"},
};
static const br_cfg_map_t auth_map = {
    "auth", sizeof(ij_auth_t), auth_fields, BR_CFG_COUNT(auth_fields), NULL, NULL, NULL, 0};

#define R(field) offsetof(ij_rejected_t, field)
static const br_cfg_field_t rejected_fields[] = {
    {.key = "status",
     .type = BR_CFG_UINT,
     .offset = R(status),
     .required = true,
     .min = ITEM_MIN_STATUS,
     .max = ITEM_MAX_STATUS,
     .form = "an HTTP status"},
    {.key = "at",
     .type = BR_CFG_STRING,
     .offset = R(at),
     .required = true,
     .form = "an ISO 8601 time"},
    {.key = "message", .type = BR_CFG_STRING, .offset = R(message), .form = TEXT},
};
static const br_cfg_map_t rejected_map = {"rejected",
                                          sizeof(ij_rejected_t),
                                          rejected_fields,
                                          BR_CFG_COUNT(rejected_fields),
                                          NULL,
                                          NULL,
                                          NULL,
                                          0};

#define I(field) offsetof(ij_item_t, field)
#define REQUIRED_TEXT(name, what)                                                                  \
	{                                                                                          \
		.key = #name, .type = BR_CFG_STRING, .offset = I(name), .required = true,          \
		.form = what                                                                       \
	}
/* The keys both versions have, after the version and the names. */
#define ITEM_REQUEST_FIELDS                                                                        \
	REQUIRED_TEXT(id, "the item's name"), REQUIRED_TEXT(sink, "the sink's name"),              \
	    REQUIRED_TEXT(run_file, "the result record's path"),                                   \
	    REQUIRED_TEXT(spooled, "an ISO 8601 time"),                                            \
	    {.key = "method",                                                                      \
	     .type = BR_CFG_ENUM,                                                                  \
	     .offset = I(method),                                                                  \
	     .required = true,                                                                     \
	     .names = methods,                                                                     \
	     .form = "POST or PUT"},                                                               \
	    REQUIRED_TEXT(url, "an http(s) URL"), REQUIRED_TEXT(content_type, "a media type"),     \
	    REQUIRED_TEXT(idempotency_key, TEXT),                                                  \
	    {.key = "auth",                                                                        \
	     .type = BR_CFG_MAP,                                                                   \
	     .offset = I(auth),                                                                    \
	     .map = &auth_map,                                                                     \
	     .form = "{scheme, header, username, token_env, token_file}, or null"},                \
	    {.key = "ca_file",                                                                     \
	     .type = BR_CFG_STRING,                                                                \
	     .offset = I(ca_file),                                                                 \
	     .form = "a path, or null"},                                                           \
	    {.key = "connect_timeout_ms",                                                          \
	     .type = BR_CFG_UINT,                                                                  \
	     .offset = I(connect_timeout_ms),                                                      \
	     .required = true,                                                                     \
	     .min = 1,                                                                             \
	     .max = ITEM_MAX_TIMEOUT_MS,                                                           \
	     .form = "milliseconds"},                                                              \
	    {.key = "timeout_ms",                                                                  \
	     .type = BR_CFG_UINT,                                                                  \
	     .offset = I(timeout_ms),                                                              \
	     .required = true,                                                                     \
	     .min = 1,                                                                             \
	     .max = ITEM_MAX_TIMEOUT_MS,                                                           \
	     .form = "milliseconds"},                                                              \
	    {.key = "attempts",                                                                    \
	     .type = BR_CFG_UINT,                                                                  \
	     .offset = I(attempts),                                                                \
	     .required = true,                                                                     \
	     .max = ITEM_MAX_ATTEMPTS,                                                             \
	     .form = "a whole number"},                                                            \
	    {.key = "last_error",                                                                  \
	     .type = BR_CFG_STRING,                                                                \
	     .offset = I(last_error),                                                              \
	     .form = "text, or null"},                                                             \
	    {.key = "not_before",                                                                  \
	     .type = BR_CFG_STRING,                                                                \
	     .offset = I(not_before),                                                              \
	     .form = "an ISO 8601 time, or null"},                                                 \
	    {.key = "rejected",                                                                    \
	     .type = BR_CFG_MAP,                                                                   \
	     .offset = I(rejected),                                                                \
	     .map = &rejected_map,                                                                 \
	     .form = "{status, at, message}, or null"},                                            \
	    REQUIRED_TEXT(body, "the request body")

/* Version 2 (what this benchrack writes): "kind": "upload_item", the sink's
 * kind in sink_kind. */
static const br_cfg_field_t item_fields[] = {
    {.key = "kind",
     .type = BR_CFG_ENUM,
     .offset = I(kind),
     .required = true,
     .names = item_kinds,
     .form = BR_CONTRACT_UPLOAD_ITEM},
    {.key = "schema_version",
     .type = BR_CFG_UINT,
     .offset = I(version),
     .required = true,
     .min = BR_CONTRACT_UPLOAD_ITEM_VERSION,
     .max = BR_CONTRACT_UPLOAD_ITEM_VERSION,
     .form = "2 (the upload item version this benchrack writes; version 1 was marked "
             "spool_version: 1)"},
    REQUIRED_TEXT(sink_kind, "the sink's kind"),
    ITEM_REQUEST_FIELDS,
};
static const br_cfg_map_t item_map = {
    "spool item", sizeof(ij_item_t), item_fields, BR_CFG_COUNT(item_fields), NULL, NULL, NULL, 0};

/* Version 1, spooled by a benchrack before versioned contracts: marked
 * spool_version: 1, the sink's kind in "kind". Still read, so nothing
 * waiting in a spool is lost by an upgrade. */
static const br_cfg_field_t item_v1_fields[] = {
    {.key = "spool_version",
     .type = BR_CFG_UINT,
     .offset = I(version),
     .required = true,
     .min = BR_UPLOAD_SPOOL_VERSION_1,
     .max = BR_UPLOAD_SPOOL_VERSION_1,
     .form = "1 (the spool version before upload_item 2)"},
    {.key = "kind",
     .type = BR_CFG_STRING,
     .offset = I(sink_kind),
     .required = true,
     .form = "the sink's kind"},
    ITEM_REQUEST_FIELDS,
};
static const br_cfg_map_t item_v1_map = {"spool item",   sizeof(ij_item_t),
                                         item_v1_fields, BR_CFG_COUNT(item_v1_fields),
                                         NULL,           NULL,
                                         NULL,           0};

static char *take(br_cfg_string_t *s)
{
	char *v = s->value;
	s->value = NULL;
	return v;
}

/* The checks between keys: what each auth scheme needs, a readable time. */
static br_status_t check_item(const char *file, const ij_item_t *r, br_error_t *err)
{
	if (strncmp(r->url.value, "http://", 7) != 0 && strncmp(r->url.value, "https://", 8) != 0)
		return br_cfg_error(err, file, r->url.mark,
		                    "url '%s' is not http(s); expected an "
		                    "http:// or https:// URL",
		                    r->url.value);
	const ij_auth_t *a = &r->auth;
	if (a->head.set) {
		if (a->scheme.value == BR_UPLOAD_AUTH_NONE || a->token_env.set == a->token_file.set)
			return br_cfg_error(err, file, a->head.mark,
			                    "auth names no token source; expected a scheme and "
			                    "exactly one of token_env, token_file");
		if (a->scheme.value == BR_UPLOAD_AUTH_BASIC && !a->username.set)
			return br_cfg_error(err, file, a->head.mark,
			                    "basic auth without a username; expected username");
		if (a->scheme.value == BR_UPLOAD_AUTH_HEADER && !a->header.set)
			return br_cfg_error(err, file, a->head.mark,
			                    "header auth without a header; expected header");
	}
	int64_t ms = 0;
	if (r->not_before.set && !br_upload_time_parse(r->not_before.value, &ms))
		return br_cfg_error(err, file, r->not_before.mark,
		                    "not_before '%s' is not a time; expected an ISO 8601 time",
		                    r->not_before.value);
	return BR_OK;
}

static void fill_item(ij_item_t *r, br_upload_item_t *item)
{
	item->id = take(&r->id);
	item->sink = take(&r->sink);
	item->kind = take(&r->sink_kind);
	item->run_file = take(&r->run_file);
	item->spooled = take(&r->spooled);
	item->method = xstrdup(methods[r->method.value]);
	item->url = take(&r->url);
	item->content_type = take(&r->content_type);
	item->idempotency_key = take(&r->idempotency_key);
	if (r->auth.head.set) {
		item->auth = (br_upload_auth_t)r->auth.scheme.value;
		item->auth_header = take(&r->auth.header);
		item->username = take(&r->auth.username);
		item->token_env = take(&r->auth.token_env);
		item->token_file = take(&r->auth.token_file);
	}
	item->ca_file = take(&r->ca_file);
	item->connect_timeout_ms = (unsigned)r->connect_timeout_ms.value;
	item->timeout_ms = (unsigned)r->timeout_ms.value;
	item->attempts = (unsigned)r->attempts.value;
	item->last_error = take(&r->last_error);
	if (r->not_before.set)
		br_upload_time_parse(r->not_before.value, &item->not_before_ms);
	if (r->rejected.head.set) {
		item->rejected_status = (long)r->rejected.status.value;
		item->rejected_at = take(&r->rejected.at);
		item->rejected_message = take(&r->rejected.message);
	}
	item->body = take(&r->body);
	item->body_len = strlen(item->body);
}

static br_status_t item_from_doc(const br_yaml_doc_t *doc, br_upload_item_t *item, br_error_t *err)
{
	/* a file with spool_version is version 1; anything else is read (and
	 * refused) as the current version */
	const br_cfg_map_t *map =
	    br_yaml_map_get(doc->root, "spool_version") != NULL ? &item_v1_map : &item_map;
	ij_item_t r;
	br_status_t st = br_cfg_decode(doc, map, &r, err);
	if (st != BR_OK)
		return st;
	st = check_item(doc->name, &r, err);
	if (st == BR_OK)
		fill_item(&r, item);
	br_cfg_free(map, &r);
	return st;
}

br_status_t br_upload_item_parse(const char *name, const unsigned char *data, size_t size,
                                 br_upload_item_t *item, br_error_t *err)
{
	memset(item, 0, sizeof(*item));
	br_yaml_doc_t doc;
	br_status_t st = br_json_doc_parse(name, data, size, &doc, err);
	if (st != BR_OK)
		return st;
	st = item_from_doc(&doc, item, err);
	br_yaml_doc_free(&doc);
	return st;
}

br_status_t br_upload_item_read(const char *path, br_upload_item_t *item, br_error_t *err)
{
	memset(item, 0, sizeof(*item));
	br_yaml_doc_t doc;
	br_status_t st = br_json_doc_load(path, &doc, err);
	if (st != BR_OK)
		return st;
	st = item_from_doc(&doc, item, err);
	br_yaml_doc_free(&doc);
	return st;
}
