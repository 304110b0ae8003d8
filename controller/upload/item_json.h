/*
 * A pending upload as a file (results/spool/<id>.json, results/rejected/
 * <id>.json): one JSON object, keys in a fixed order, the request body as a
 * JSON string. It holds no token, only where the token comes from. Read
 * back through config/'s YAML tree and schema tables (JSON is YAML's flow
 * style), strictly: an unknown key, a wrong type or another version is
 * refused with "file:line:col: ...; expected ...". The contract is
 * results/SCHEMA.md's upload_item (results/schema/upload_item.schema.json):
 *
 *   {"kind": "upload_item", "schema_version": 2, "id", "sink", "sink_kind",
 *    "run_file", "spooled",
 *    "method", "url", "content_type", "idempotency_key",
 *    "auth": null | {"scheme", "header", "username", "token_env", "token_file"},
 *    "ca_file", "connect_timeout_ms", "timeout_ms",
 *    "attempts", "last_error", "not_before",
 *    "rejected": null | {"status", "at", "message"},
 *    "body"}
 *
 * Version 1 (spooled before the contracts were versioned) is read too: it
 * opens with "spool_version": 1 and names the sink's kind "kind".
 */
#ifndef BENCHRACK_UPLOAD_ITEM_JSON_H
#define BENCHRACK_UPLOAD_ITEM_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "common/error.h"
#include "upload/item.h"

/* The version of a spool file marked "spool_version" (the first one). */
#define BR_UPLOAD_SPOOL_VERSION_1 1

/* Writes item as one JSON document to out (the current upload_item version). */
void br_upload_item_write(const br_upload_item_t *item, FILE *out);

/*
 * Parses size bytes (named name in messages) into *item (zeroed first; free
 * with br_upload_item_free). BR_ERR_INPUT "name:line:col: ..." on anything
 * but a well-formed item, *item then empty.
 */
br_status_t br_upload_item_parse(const char *name, const unsigned char *data, size_t size,
                                 br_upload_item_t *item, br_error_t *err);

/* The same from the file at path. */
br_status_t br_upload_item_read(const char *path, br_upload_item_t *item, br_error_t *err);

#endif
