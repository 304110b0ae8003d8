/*
 * Prometheus Pushgateway: PUT /metrics/job/<job>/<key>/<value>... of the
 * record's figures in the text format. PUT replaces the whole group, so a
 * resend leaves exactly what one send leaves. A grouping value that is not a
 * plain path segment (a '/', a space, non-ASCII, empty, "." or "..") goes
 * base64url-encoded as <key>@base64/<value>, the Pushgateway's own form.
 * With a username, the token is its password (basic authentication);
 * without one it goes as "Authorization: Bearer".
 */
#include <stdlib.h>
#include <string.h>

#include <nettle/base64.h>

#include "common/xalloc.h"
#include "upload/exposition.h"
#include "upload/render.h"

#define PUSHGATEWAY_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define PUSHGATEWAY_MAX_GROUPING 4U

/* Writes "/<key>/<value>" or "/<key>@base64/<base64url(value)>" (nettle's
 * RFC 4648 URL-safe alphabet, padded; "=" for an empty value). */
static void write_group(FILE *f, const char *key, const char *value)
{
	if (br_upload_is_plain_segment(value)) {
		fprintf(f, "/%s/%s", key, value);
		return;
	}
	size_t len = strlen(value);
	char *encoded = xmalloc(BASE64_ENCODE_LENGTH(len) + BASE64_ENCODE_FINAL_LENGTH + 1U);
	struct base64_encode_ctx ctx;
	base64url_encode_init(&ctx);
	size_t n = base64_encode_update(&ctx, encoded, len, (const uint8_t *)value);
	n += base64_encode_final(&ctx, encoded + n);
	encoded[n] = '\0';
	fprintf(f, "/%s@base64/%s", key, len == 0 ? "=" : encoded);
	free(encoded);
}

static const char *group_value(const br_run_record_t *run, br_upload_grouping_t key)
{
	switch (key) {
	case BR_UPLOAD_GROUP_BOARD:
		return run->board;
	case BR_UPLOAD_GROUP_SUITE:
		return run->suite;
	case BR_UPLOAD_GROUP_HOST:
		return run->host;
	case BR_UPLOAD_GROUP_COUNTER:
		return run->counter;
	}
	return "";
}

void br_upload_render_pushgateway(const br_upload_sink_t *sink, const br_upload_source_t *src,
                                  br_upload_item_t *item)
{
	item->method = xstrdup("PUT");
	item->content_type = xstrdup(PUSHGATEWAY_CONTENT_TYPE);
	br_upload_grouping_t keys[PUSHGATEWAY_MAX_GROUPING] = {BR_UPLOAD_GROUP_BOARD,
	                                                       BR_UPLOAD_GROUP_SUITE};
	size_t key_count = 2;
	const br_cfg_list_t *grouping = &sink->pushgateway.grouping;
	if (grouping->set) {
		key_count = grouping->count < PUSHGATEWAY_MAX_GROUPING ? grouping->count
		                                                       : PUSHGATEWAY_MAX_GROUPING;
		for (size_t i = 0; i < key_count; i++) {
			const br_cfg_enum_t *key = br_cfg_item(grouping, sizeof(*key), i);
			keys[i] = (br_upload_grouping_t)key->value;
		}
	}
	char *url = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&url, &len);
	br_upload_write_base_url(f, sink->url.value);
	fputs("/metrics", f);
	const br_cfg_string_t *job = &sink->pushgateway.job;
	write_group(f, "job", job->set ? job->value : BR_UPLOAD_DEFAULT_JOB);
	const char *omit[PUSHGATEWAY_MAX_GROUPING];
	for (size_t i = 0; i < key_count; i++) {
		omit[i] = br_upload_grouping_name(keys[i]);
		write_group(f, omit[i], group_value(src->run, keys[i]));
	}
	fclose(f);
	item->url = url;
	if (src->points->count == 0)
		return;
	const br_cfg_string_t *prefix = &sink->pushgateway.metric_prefix;
	char *body = NULL;
	size_t body_len = 0;
	f = br_upload_memstream(&body, &body_len);
	br_upload_labels_t labels;
	br_upload_render_labels(sink, &labels);
	br_prom_write_points(f, prefix->set ? prefix->value : BR_UPLOAD_DEFAULT_METRIC_PREFIX,
	                     src->points, omit, key_count, &labels);
	fclose(f);
	item->body = body;
	item->body_len = body_len;
}
