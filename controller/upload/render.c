#include "upload/render.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "common/xalloc.h"
#include "upload/timestamp.h"

#define RENDER_ID_BYTES 256U
#define RENDER_TIME_BYTES 32U

/* Each kind's renderer, as BR_UPLOAD_SINK_LIST names it. */
#define RENDERER_ROW(id, name, member, renderer)                                                   \
	[BR_UPLOAD_SINK_##id] = br_upload_render_##renderer,
static const br_upload_render_fn renderers[BR_UPLOAD_SINK_KIND_COUNT] = {
    BR_UPLOAD_SINK_LIST(RENDERER_ROW)};

FILE *br_upload_memstream(char **data, size_t *len)
{
	FILE *f = open_memstream(data, len);
	if (f == NULL)
		abort(); /* out of memory: as xalloc.h does, without a word (libraries never print)
		          */
	return f;
}

void br_upload_write_escaped(FILE *out, const char *s)
{
	char *escaped = curl_easy_escape(NULL, s, 0);
	if (escaped == NULL)
		abort(); /* out of memory: as xalloc.h does */
	fputs(escaped, out);
	curl_free(escaped);
}

bool br_upload_is_plain_segment(const char *s)
{
	char *escaped = curl_easy_escape(NULL, s, 0);
	if (escaped == NULL)
		abort();
	bool plain =
	    s[0] != '\0' && strcmp(escaped, s) == 0 && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
	curl_free(escaped);
	return plain;
}

void br_upload_write_base_url(FILE *out, const char *url)
{
	size_t n = strlen(url);
	while (n > 0 && url[n - 1U] == '/')
		n--;
	fwrite(url, 1, n, out);
}

/* path as an absolute path: against dir (itself against the working
 * directory), so that a later `benchrack upload` from elsewhere finds it. */
static char *absolute(const char *dir, const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		snprintf(cwd, sizeof(cwd), ".");
	char *out = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&out, &len);
	if (dir == NULL || dir[0] != '/')
		fprintf(f, "%s/", cwd);
	if (dir != NULL && dir[0] != '\0' && strcmp(dir, ".") != 0)
		fprintf(f, "%s/", dir);
	fputs(path, f);
	fclose(f);
	return out;
}

/* <run file's name without .json>--<sink>, in file name characters. */
static void item_id(const char *run_file, const char *sink, char *out, size_t cap)
{
	const char *slash = strrchr(run_file, '/');
	const char *base = slash != NULL ? slash + 1 : run_file;
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	snprintf(out, cap, "%.*s--%s", (int)n, base, sink);
	for (char *p = out; *p != '\0'; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		          (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '_';
		if (!ok)
			*p = '_';
	}
	if (out[0] == '.')
		out[0] = '_';
}

void br_upload_render_labels(const br_upload_sink_t *sink, br_upload_labels_t *out)
{
	const char *const *names = br_upload_extra_label_names();
	out->count = 0;
	for (size_t i = 0; sink->labels.set && i < sink->labels.count; i++) {
		const br_cfg_enum_t *e = br_cfg_item(&sink->labels, sizeof(*e), i);
		if (out->count < BR_UPLOAD_MAX_EXTRA_LABELS)
			out->extra[out->count++] = names[e->value];
	}
}

void br_upload_render(const br_upload_section_t *section, const br_upload_sink_t *sink,
                      const char *config_dir, const br_upload_source_t *src, br_upload_item_t *item)
{
	memset(item, 0, sizeof(*item));
	char id[RENDER_ID_BYTES];
	item_id(src->run_file, sink->name.value, id, sizeof(id));
	item->id = xstrdup(id);
	char key[RENDER_ID_BYTES + 16U];
	snprintf(key, sizeof(key), "benchrack-%s", id);
	item->idempotency_key = xstrdup(key);
	item->sink = xstrdup(sink->name.value);
	br_upload_sink_kind_t kind = (br_upload_sink_kind_t)sink->kind.value;
	item->kind = xstrdup(br_upload_sink_kind_name(kind));
	item->run_file = xstrdup(src->run_file);
	char now[RENDER_TIME_BYTES];
	br_upload_time_format(br_upload_time_now_ms(), now, sizeof(now));
	item->spooled = xstrdup(now);
	br_upload_render_auth(section, sink, config_dir, item);
	renderers[kind](sink, src, item);
}

/* How each kind carries its token. */
static br_upload_auth_t auth_of(const br_upload_sink_t *sink)
{
	switch ((br_upload_sink_kind_t)sink->kind.value) {
	case BR_UPLOAD_SINK_INFLUXDB1:
		return sink->influxdb1.username.set ? BR_UPLOAD_AUTH_BASIC : BR_UPLOAD_AUTH_TOKEN;
	case BR_UPLOAD_SINK_INFLUXDB2:
		return BR_UPLOAD_AUTH_TOKEN;
	case BR_UPLOAD_SINK_PUSHGATEWAY:
		return sink->pushgateway.username.set ? BR_UPLOAD_AUTH_BASIC
		                                      : BR_UPLOAD_AUTH_BEARER;
	case BR_UPLOAD_SINK_BENCHER:
		return BR_UPLOAD_AUTH_BEARER;
	case BR_UPLOAD_SINK_WEBHOOK:
		return sink->webhook.token_header.set ? BR_UPLOAD_AUTH_HEADER
		                                      : BR_UPLOAD_AUTH_BEARER;
	}
	return BR_UPLOAD_AUTH_NONE;
}

void br_upload_render_auth(const br_upload_section_t *section, const br_upload_sink_t *sink,
                           const char *config_dir, br_upload_item_t *item)
{
	char **owned[] = {&item->auth_header, &item->username, &item->token_env, &item->token_file,
	                  &item->ca_file};
	for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++) {
		free(*owned[i]);
		*owned[i] = NULL;
	}
	item->auth = BR_UPLOAD_AUTH_NONE;
	if (sink->token_env.set)
		item->token_env = xstrdup(sink->token_env.value);
	if (sink->token_file.set)
		item->token_file = absolute(config_dir, sink->token_file.value);
	if (item->token_env != NULL || item->token_file != NULL) {
		item->auth = auth_of(sink);
		if (sink->kind.value == BR_UPLOAD_SINK_INFLUXDB1 && sink->influxdb1.username.set)
			item->username = xstrdup(sink->influxdb1.username.value);
		if (sink->kind.value == BR_UPLOAD_SINK_PUSHGATEWAY &&
		    sink->pushgateway.username.set)
			item->username = xstrdup(sink->pushgateway.username.value);
		if (sink->kind.value == BR_UPLOAD_SINK_WEBHOOK && sink->webhook.token_header.set)
			item->auth_header = xstrdup(sink->webhook.token_header.value);
	}
	if (sink->ca_file.set)
		item->ca_file = absolute(config_dir, sink->ca_file.value);
	item->connect_timeout_ms = br_upload_sink_connect_timeout_ms(section, sink);
	item->timeout_ms = br_upload_sink_timeout_ms(section, sink);
}
