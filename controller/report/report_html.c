#include "report/report_html.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report_assets.h"
#include "report/report_data.h"

#define MARK "@@"

void br_report_html_embed_json(const char *json, size_t len, FILE *out)
{
	bool in_string = false, escaped = false;
	for (size_t i = 0; i < len; i++) {
		char c = json[i];
		if (in_string) {
			if (escaped)
				escaped = false;
			else if (c == '\\')
				escaped = true;
			else if (c == '"')
				in_string = false;
		} else if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
			continue;
		} else if (c == '"') {
			in_string = true;
		}
		if (c == '<')
			fputs("\\u003c", out);
		else
			fputc(c, out);
	}
}

/* The current time, UTC, ISO 8601. */
static void now_utc(char *buf, size_t cap)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

typedef struct html_parts {
	const br_page_t *page;
	const char *data;
	size_t data_len;
} html_parts_t;

static void part_write(const html_parts_t *p, const char *name, size_t len, FILE *out)
{
	if (len == strlen("STYLE") && strncmp(name, "STYLE", len) == 0) {
		fwrite(br_report_asset_style, 1, br_report_asset_style_size, out);
	} else if (len == strlen("DATA") && strncmp(name, "DATA", len) == 0) {
		br_report_html_embed_json(p->data, p->data_len, out);
	} else if (len == strlen("LIBRARIES") && strncmp(name, "LIBRARIES", len) == 0) {
		fwrite(br_report_asset_chartjs, 1, br_report_asset_chartjs_size, out);
		if (p->page->profile_count > 0) { /* flame graphs: d3, only when there are some */
			fputs("\n</script>\n<script>\n", out);
			fwrite(br_report_asset_d3, 1, br_report_asset_d3_size, out);
		}
	} else if (len == strlen("SCRIPT") && strncmp(name, "SCRIPT", len) == 0) {
		fwrite(br_report_asset_script, 1, br_report_asset_script_size, out);
	}
}

br_status_t br_report_html_write(const br_page_t *page, FILE *out, br_error_t *err)
{
	char *data = NULL;
	size_t data_len = 0;
	FILE *mem = open_memstream(&data, &data_len);
	if (mem == NULL)
		return br_error_set(err, BR_ERR_INFRA, "report: out of memory assembling the page");
	char generated[32];
	now_utc(generated, sizeof(generated));
	br_report_data_write(page, generated, BENCHRACK_VERSION, mem);
	fclose(mem);
	html_parts_t parts = {page, data, data_len};
	const char *t = (const char *)br_report_asset_page;
	const char *end = t + br_report_asset_page_size;
	while (t < end) {
		const char *m = strstr(t, MARK);
		const char *close = m != NULL ? strstr(m + strlen(MARK), MARK) : NULL;
		if (m == NULL || close == NULL) {
			fwrite(t, 1, (size_t)(end - t), out);
			break;
		}
		fwrite(t, 1, (size_t)(m - t), out);
		part_write(&parts, m + strlen(MARK), (size_t)(close - m) - strlen(MARK), out);
		t = close + strlen(MARK);
	}
	free(data);
	return BR_OK;
}
