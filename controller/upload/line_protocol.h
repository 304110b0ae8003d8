/*
 * InfluxDB line protocol (the same for /write of 1.x and /api/v2/write of
 * 2.x): "measurement,tag=value,... field=value,... timestamp", one point a
 * line, timestamps in milliseconds (the request says precision=ms).
 *
 * Escaping, by the protocol's rules and what InfluxDB's parser does:
 * - measurement: ',' and ' ' get a backslash;
 * - tag keys, tag values, field keys: ',', '=' and ' ' get a backslash;
 * - a backslash stays as it is (the parser keeps one that does not precede
 *   one of those characters), except as the last character of a name: the
 *   parser would read it as escaping the separator after it, so it becomes
 *   U+FFFD;
 * - a line cannot hold a line break or any control character in a name:
 *   each becomes U+FFFD;
 * - UTF-8 text passes unchanged.
 * Integer fields end in 'i'; floats are the shortest text that reads back
 * the same double.
 */
#ifndef BENCHRACK_UPLOAD_LINE_PROTOCOL_H
#define BENCHRACK_UPLOAD_LINE_PROTOCOL_H

#include <stdio.h>

#include "upload/metrics.h"

/* Writes name escaped as a measurement. */
void br_lp_write_measurement(FILE *out, const char *name);

/* Writes name escaped as a tag key, tag value or field key. */
void br_lp_write_key(FILE *out, const char *name);

/*
 * Writes every series of points as one line each: bench series to
 * measurement, the firmware series to measurement + "_firmware"; the labels
 * choice keys by (metrics.h) as tags (sorted), the values as fields, then
 * the other labels (provenance) as string fields ('"' and '\\' escaped), the
 * run's time in milliseconds.
 */
void br_lp_write_points(FILE *out, const char *measurement, const br_upload_points_t *points,
                        const br_upload_labels_t *choice);

#endif
