/*
 * InfluxDB: every series of the record as one line-protocol point at the
 * run's start, in milliseconds (precision=ms), so that a resend writes the
 * same points again (InfluxDB keeps one point per series and time) instead
 * of adding any.
 *   1.x: POST /write?db=DB[&rp=RP]&precision=ms; with a username the token
 *        is its password (basic authentication), without one it goes as
 *        "Authorization: Token" (1.8 and later take "user:password" there).
 *   2.x: POST /api/v2/write?org=ORG&bucket=BUCKET&precision=ms, with
 *        "Authorization: Token TOKEN".
 */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "upload/line_protocol.h"
#include "upload/render.h"

#define INFLUX_CONTENT_TYPE "text/plain; charset=utf-8"

static void write_url(const br_upload_sink_t *sink, br_upload_item_t *item)
{
	char *url = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&url, &len);
	br_upload_write_base_url(f, sink->url.value);
	if (sink->kind.value == BR_UPLOAD_SINK_INFLUXDB1) {
		fputs("/write?db=", f);
		br_upload_write_escaped(f, sink->influxdb1.database.value);
		if (sink->influxdb1.retention_policy.set) {
			fputs("&rp=", f);
			br_upload_write_escaped(f, sink->influxdb1.retention_policy.value);
		}
	} else {
		fputs("/api/v2/write?org=", f);
		br_upload_write_escaped(f, sink->influxdb2.org.value);
		fputs("&bucket=", f);
		br_upload_write_escaped(f, sink->influxdb2.bucket.value);
	}
	fputs("&precision=ms", f);
	fclose(f);
	item->url = url;
}

void br_upload_render_influxdb(const br_upload_sink_t *sink, const br_upload_source_t *src,
                               br_upload_item_t *item)
{
	bool v1 = sink->kind.value == BR_UPLOAD_SINK_INFLUXDB1;
	item->method = xstrdup("POST");
	item->content_type = xstrdup(INFLUX_CONTENT_TYPE);
	write_url(sink, item);
	const br_cfg_string_t *m = v1 ? &sink->influxdb1.measurement : &sink->influxdb2.measurement;
	const char *measurement = m->set ? m->value : BR_UPLOAD_DEFAULT_MEASUREMENT;
	char *body = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&body, &len);
	br_upload_labels_t labels;
	br_upload_render_labels(sink, &labels);
	br_lp_write_points(f, measurement, src->points, &labels);
	fclose(f);
	if (len == 0) {
		free(body);
		return;
	}
	item->body = body;
	item->body_len = len;
}
