/*
 * The instant a run started, as every dashboard point carries it: the
 * record's ISO 8601 UTC timestamp ("2026-11-29T15:10:05Z", a fraction of a
 * second and a +hh:mm offset accepted) in milliseconds since the Unix epoch.
 * A resend of the same run carries the same instant, so a time-series
 * server overwrites the point instead of adding a second one.
 */
#ifndef BENCHRACK_UPLOAD_TIMESTAMP_H
#define BENCHRACK_UPLOAD_TIMESTAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Parses YYYY-MM-DDTHH:MM:SS[.fraction](Z|+hh:mm|-hh:mm) into *ms (fraction
 * cut to milliseconds). Returns false on anything else, or a field out of
 * range (month 13, second 61, day 31 of a 30-day month), leaving *ms alone.
 */
bool br_upload_time_parse(const char *text, int64_t *ms);

/*
 * The instant of a run whose record (timestamp, whole seconds) is the file
 * run_file: when the file's name starts with the run-file stamp of
 * results/paths.h (YYYYMMDDTHHMMSS.mmmZ) in the same second as timestamp,
 * its milliseconds are added, so that two runs of a board within one second
 * are two points, not one overwriting the other. False when timestamp does
 * not parse (*ms untouched).
 */
bool br_upload_time_of_run(const char *timestamp, const char *run_file, int64_t *ms);

/* Writes ms as YYYY-MM-DDTHH:MM:SS.mmmZ (UTC) into buf (at least 25 bytes). */
void br_upload_time_format(int64_t ms, char *buf, size_t cap);

/* Milliseconds since the Unix epoch now (the wall clock). */
int64_t br_upload_time_now_ms(void);

#endif
