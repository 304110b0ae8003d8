/*
 * The run record as JSON (schema version BR_RESULTS_SCHEMA_VERSION, described
 * in results/SCHEMA.md). Keys are always written in the same order.
 */
#ifndef BENCHRACK_RESULTS_RUN_JSON_H
#define BENCHRACK_RESULTS_RUN_JSON_H

#include <stdio.h>

#include "common/error.h"
#include "results/record.h"

/* Writes run as one JSON document to out. */
void br_run_json_write(const br_run_record_t *run, FILE *out);

/* Writes run as JSON to path atomically (temp file, fsync, rename). */
br_status_t br_run_json_save(const br_run_record_t *run, const char *path, br_error_t *err);

#endif
