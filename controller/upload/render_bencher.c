/*
 * Bencher: POST /v0/projects/<project>/reports with "Authorization: Bearer
 * TOKEN" and a new report:
 *   {"branch", "hash" (the firmware's git commit, when it is a full 40-hex
 *    hash), "testbed" (the board), "start_time", "end_time" (the run's start
 *    and start plus the benches' host time), "results": [BMF as a string],
 *    "settings": {"adapter": "json"}}
 * The BMF is results/format_bmf.c's, the same as `--format bmf`. Bencher has
 * no idempotent write: a resend after a lost answer can add a second report
 * with the same start_time (Idempotency-Key is sent for proxies that honour
 * it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "results/format.h"
#include "results/json_writer.h"
#include "upload/render.h"
#include "upload/timestamp.h"

#define BENCHER_HASH_LEN 40U
#define BENCHER_MS_PER_S 1000.0

static bool is_full_hash(const char *s)
{
	if (strlen(s) != BENCHER_HASH_LEN)
		return false;
	for (const char *p = s; *p != '\0'; p++) {
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	}
	return true;
}

static char *bmf_of(const br_run_record_t *run)
{
	br_report_t report;
	memset(&report, 0, sizeof(report));
	report.run = run;
	report.figures = true;
	char *text = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&text, &len);
	br_format_bmf_write(&report, 1, f);
	fclose(f);
	return text;
}

void br_upload_render_bencher(const br_upload_sink_t *sink, const br_upload_source_t *src,
                              br_upload_item_t *item)
{
	const br_run_record_t *run = src->run;
	item->method = xstrdup("POST");
	item->content_type = xstrdup("application/json");
	char *url = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&url, &len);
	const char *base = sink->url.set ? sink->url.value : BR_UPLOAD_DEFAULT_BENCHER_URL;
	br_upload_write_base_url(f, base);
	fputs("/v0/projects/", f);
	br_upload_write_escaped(f, sink->bencher.project.value);
	fputs("/reports", f);
	fclose(f);
	item->url = url;
	size_t measured = 0;
	double wall = 0.0;
	for (size_t i = 0; i < run->bench_count; i++) {
		measured += run->benches[i].status == BR_BENCH_MEASURED;
		wall += run->benches[i].wall_seconds;
	}
	if (measured == 0 && !run->sizes_known)
		return;
	char start[32], end[32];
	int64_t start_ms = src->points->time_ms;
	br_upload_time_format(start_ms, start, sizeof(start));
	br_upload_time_format(start_ms + (int64_t)ceil(wall * BENCHER_MS_PER_S), end, sizeof(end));
	char *bmf = bmf_of(run);
	char *body = NULL;
	size_t body_len = 0;
	f = br_upload_memstream(&body, &body_len);
	br_json_t j;
	br_json_init(&j, f);
	br_json_object_begin(&j);
	br_json_key(&j, "branch");
	br_json_string(&j, sink->bencher.branch.value);
	if (is_full_hash(run->git_commit)) {
		br_json_key(&j, "hash");
		br_json_string(&j, run->git_commit);
	}
	br_json_key(&j, "testbed");
	br_json_string(&j, run->board);
	br_json_key(&j, "start_time");
	br_json_string(&j, start);
	br_json_key(&j, "end_time");
	br_json_string(&j, end);
	br_json_key(&j, "results");
	br_json_array_begin(&j);
	br_json_string(&j, bmf);
	br_json_array_end(&j);
	br_json_key(&j, "settings");
	br_json_object_begin(&j);
	br_json_key(&j, "adapter");
	br_json_string(&j, "json");
	br_json_object_end(&j);
	br_json_object_end(&j);
	br_json_finish(&j);
	fclose(f);
	free(bmf);
	item->body = body;
	item->body_len = body_len;
}
