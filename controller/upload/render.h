/*
 * One result record, one sink: the pending upload (item.h) that carries the
 * record to that sink. render.c fills what every kind shares — the item's
 * name, the sink, the token's source (never the token), TLS and timeouts —
 * and a function per kind (one file each) writes the request itself:
 *   render_influxdb.c     InfluxDB 1.x /write and 2.x /api/v2/write
 *   render_pushgateway.c  Pushgateway PUT /metrics/job/J/<label>/<value>...
 *   render_bencher.c      Bencher POST /v0/projects/P/reports
 *   render_webhook.c      POST of the record itself
 */
#ifndef BENCHRACK_UPLOAD_RENDER_H
#define BENCHRACK_UPLOAD_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"
#include "config/upload_config.h"
#include "results/record.h"
#include "upload/item.h"
#include "upload/metrics.h"

/* The record being uploaded, and what metrics.h made of it. */
typedef struct br_upload_source {
	const br_run_record_t *run;
	const char *run_file; /* where the record is on disk */
	const br_upload_points_t *points;
} br_upload_source_t;

/* The labels sink keys series by (its `labels:` beyond the bounded default). */
void br_upload_render_labels(const br_upload_sink_t *sink, br_upload_labels_t *out);

/*
 * Fills item's method, url, content_type and body for sink. Leaves body NULL when the record holds
 * nothing this sink takes (no bench measured and no sizes).
 */
typedef void (*br_upload_render_fn)(const br_upload_sink_t *sink, const br_upload_source_t *src,
                                    br_upload_item_t *item);

/* The render function of each kind (influxdb serves influxdb1 and influxdb2). */
void br_upload_render_influxdb(const br_upload_sink_t *sink, const br_upload_source_t *src,
                               br_upload_item_t *item);
void br_upload_render_pushgateway(const br_upload_sink_t *sink, const br_upload_source_t *src,
                                  br_upload_item_t *item);
void br_upload_render_bencher(const br_upload_sink_t *sink, const br_upload_source_t *src,
                              br_upload_item_t *item);
void br_upload_render_webhook(const br_upload_sink_t *sink, const br_upload_source_t *src,
                              br_upload_item_t *item);

/*
 * The pending upload of src to sink (a sink of section, whose relative
 * token_file and ca_file are relative to config_dir) into *item (zeroed
 * first; free with br_upload_item_free). item->body is NULL when there is
 * nothing to send.
 */
void br_upload_render(const br_upload_section_t *section, const br_upload_sink_t *sink,
                      const char *config_dir, const br_upload_source_t *src,
                      br_upload_item_t *item);

/*
 * Sets what item takes from the configuration alone, replacing what it had:
 * where its token comes from (token_env, or token_file against config_dir),
 * how it is sent (auth scheme, username, header), the CA file and the
 * timeouts of sink (a sink of section). A spooled upload gets these again
 * from the current configuration before each pass, never from its file.
 */
void br_upload_render_auth(const br_upload_section_t *section, const br_upload_sink_t *sink,
                           const char *config_dir, br_upload_item_t *item);

/* A stream writing into a growing buffer (*data, *len valid after fclose);
 * aborts when memory runs out, like xalloc.h (the caller frees *data). */
FILE *br_upload_memstream(char **data, size_t *len);

/* Writes s percent-encoded (RFC 3986: every byte but ALPHA, DIGIT, '-', '.',
 * '_', '~' as %XX, by libcurl's curl_easy_escape), so that a database "a&b"
 * or a project "x/y" stays one value of the URL it is put in. */
void br_upload_write_escaped(FILE *out, const char *s);

/* True when s is a URL path segment as it is: non-empty, nothing to
 * percent-encode, and neither "." nor "..". */
bool br_upload_is_plain_segment(const char *s);

/* Writes the sink's URL without trailing slashes (the base paths are added to). */
void br_upload_write_base_url(FILE *out, const char *url);

#endif
