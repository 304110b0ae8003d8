/*
 * Reading JSON that benchrack wrote (run records, baselines, spool items):
 * parsed by jansson, strictly — one document, duplicate keys refused,
 * integers exact up to INT64_MAX and refused beyond, every number a finite
 * double — then handed over as config/'s node tree, so that the same schema
 * tables (yaml/schema.h) check keys, types and ranges for JSON and YAML.
 *
 * A syntax error names "file:line:col" as jansson found it. The tree's nodes
 * carry no position (jansson keeps none), so a schema error names the file
 * and the key path ("benches[2].median") instead. Scalars keep their exact
 * JSON text: an integer as its digits, a double with 17 significant digits.
 */
#ifndef BENCHRACK_RESULTS_JSON_DOC_H
#define BENCHRACK_RESULTS_JSON_DOC_H

#include <stddef.h>

#include "common/error.h"
#include "yaml/yaml_tree.h"

/* Parses size bytes of JSON (named name in messages) into doc (free it with
 * br_yaml_doc_free). BR_ERR_INPUT "name:line:col: ..." on bad JSON, doc
 * then empty. */
br_status_t br_json_doc_parse(const char *name, const unsigned char *data, size_t size,
                              br_yaml_doc_t *doc, br_error_t *err);

/* The same from the file at path (at most BR_YAML_MAX_FILE_BYTES). */
br_status_t br_json_doc_load(const char *path, br_yaml_doc_t *doc, br_error_t *err);

#endif
