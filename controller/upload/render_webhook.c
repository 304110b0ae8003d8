/*
 * A generic webhook: POST of the result record itself (results/SCHEMA.md,
 * exactly as results/runs/ holds it) as application/json. The token, when
 * there is one, goes as "Authorization: Bearer TOKEN", or raw in the header
 * token_header names. Idempotency-Key lets the receiver drop a resend.
 */
#include <stdlib.h>

#include "common/xalloc.h"
#include "results/run_json.h"
#include "upload/render.h"

void br_upload_render_webhook(const br_upload_sink_t *sink, const br_upload_source_t *src,
                              br_upload_item_t *item)
{
	item->method = xstrdup("POST");
	item->content_type = xstrdup("application/json");
	item->url = xstrdup(sink->url.value);
	char *body = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&body, &len);
	br_run_json_write(src->run, f);
	fclose(f);
	item->body = body;
	item->body_len = len;
}
