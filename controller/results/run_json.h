/*
 * The run record as JSON (schema version BR_RESULTS_SCHEMA_VERSION, described
 * in results/SCHEMA.md and results/schema/benchrack.schema.json). Keys are
 * always written in the same order, so two records diff line by line. A
 * record of kind BR_RECORD_BASELINE leaves out raw samples and host times,
 * which would make every re-recorded baseline differ.
 */
#ifndef BENCHRACK_RESULTS_RUN_JSON_H
#define BENCHRACK_RESULTS_RUN_JSON_H

#include <stdio.h>

#include "common/error.h"
#include "results/json_writer.h"
#include "results/record.h"

/* Writes the record's keys into the object j has open (the caller opens and
 * closes it), so that a report can add its own keys after them. */
void br_run_json_write_fields(br_json_t *j, const br_run_record_t *run);

/* Writes run as one JSON document to out. */
void br_run_json_write(const br_run_record_t *run, FILE *out);

/* Writes run as JSON to path atomically (temp file, fsync, rename). */
br_status_t br_run_json_save(const br_run_record_t *run, const char *path, br_error_t *err);

#endif
