/*
 * Reading a run record or a baseline back (the JSON of run_json.h), strictly:
 * the schema version must be BR_RESULTS_SCHEMA_VERSION, every key must be
 * known and of its type, a measured bench must carry its figures. JSON is
 * YAML's flow style, so this goes through config/'s tree and schema tables
 * and a broken file gets the same "file:line:col: ...; expected ..." error
 * as a broken config.
 */
#ifndef BENCHRACK_RESULTS_RECORD_READ_H
#define BENCHRACK_RESULTS_RECORD_READ_H

#include <stddef.h>

#include "common/error.h"
#include "results/record.h"

/* Reads the record at path into *out (zeroed first; free with
 * br_run_record_free). BR_ERR_INPUT with file:line:col on any problem, *out
 * then empty. */
br_status_t br_record_read(const char *path, br_run_record_t *out, br_error_t *err);

/* The same from size bytes in memory, named name in messages. */
br_status_t br_record_parse(const char *name, const unsigned char *data, size_t size,
                            br_run_record_t *out, br_error_t *err);

#endif
