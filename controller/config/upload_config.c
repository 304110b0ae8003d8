#include "config/upload_config.h"

#include <libgen.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xalloc.h"
#include "config/sink_url.h"

#define UPLOAD_MAX_SINKS 16U
#define UPLOAD_MAX_TOTAL_S 3600U
#define UPLOAD_MAX_ATTEMPTS 100U
#define UPLOAD_MAX_RETRY_MS 600000U
#define UPLOAD_MAX_TIMEOUT_S 600U
#define UPLOAD_MS_PER_S 1000U
#define UPLOAD_ENV_NAME_MAX 128U

#define SINK_NAME_ROW(id, name, member, renderer) name,
static const char *const sink_kinds[] = {BR_UPLOAD_SINK_LIST(SINK_NAME_ROW) NULL};
static const char *const grouping_keys[] = {"board", "suite", "host", "counter", NULL};
/* Labels beyond the bounded default: each a new series per value (a commit,
 * a build), so a sink takes them only when asked (upload/metrics.h). */
static const char *const extra_label_keys[] = {"build_id",   "counter", "elf",  "firmware",
                                               "git_commit", "host",    "mode", "server",
                                               "toolchain",  NULL};
#define LABELS_FIELD                                                                               \
	{                                                                                          \
		.key = "labels", .type = BR_CFG_LIST, .element = BR_CFG_ENUM, .offset = K(labels), \
		.names = extra_label_keys, .max_items = 9,                                         \
		.form =                                                                            \
		    "a list of build_id, counter, elf, firmware, git_commit, host, mode, server, " \
		    "toolchain: labels besides bench, board, suite, unit (default none)"           \
	}

#define TOKEN_FORM "token_env: VARIABLE or token_file: PATH (never the token itself)"

#define K(field) offsetof(br_upload_sink_t, field)

static const br_cfg_field_t sink_fields[] = {
    {.key = "name",
     .type = BR_CFG_STRING,
     .offset = K(name),
     .required = true,
     .form = "a name for the sink: letters, digits, '.', '-', '_'"},
    {.key = "kind", .type = BR_CFG_ENUM, .offset = K(kind), .required = true, .names = sink_kinds},
    {.key = "url",
     .type = BR_CFG_STRING,
     .offset = K(url),
     .form = "the server's http:// or https:// URL, e.g. https://influx.lab:8086"},
    {.key = "token_env",
     .type = BR_CFG_STRING,
     .offset = K(token_env),
     .form = "the environment variable holding the token, e.g. INFLUX_TOKEN"},
    {.key = "token_file",
     .type = BR_CFG_STRING,
     .offset = K(token_file),
     .form = "a file holding the token (relative to this file)"},
    {.key = "token", .type = BR_CFG_STRING, .offset = K(token), .form = TOKEN_FORM},
    {.key = "password", .type = BR_CFG_STRING, .offset = K(password), .form = TOKEN_FORM},
    {.key = "ca_file",
     .type = BR_CFG_STRING,
     .offset = K(ca_file),
     .form = "a PEM file of CA certificates to verify the server with"},
    {.key = "proxy",
     .type = BR_CFG_STRING,
     .offset = K(proxy),
     .form = "the proxy to send through: http://, https://, socks5:// or socks5h://HOST:PORT"},
    {.key = "use_env_proxy",
     .type = BR_CFG_BOOL,
     .offset = K(use_env_proxy),
     .form = "true to use http_proxy, https_proxy, ALL_PROXY, no_proxy (default false)"},
    {.key = "connect_timeout_seconds",
     .type = BR_CFG_UINT,
     .offset = K(connect_timeout_seconds),
     .min = 1,
     .max = UPLOAD_MAX_TIMEOUT_S,
     .form = "1 to 600 seconds"},
    {.key = "timeout_seconds",
     .type = BR_CFG_UINT,
     .offset = K(timeout_seconds),
     .min = 1,
     .max = UPLOAD_MAX_TIMEOUT_S,
     .form = "1 to 600 seconds for one request"},
};

#define MEASUREMENT_FORM "the measurement's name (default benchrack)"

static const br_cfg_field_t influxdb1_fields[] = {
    {.key = "database",
     .type = BR_CFG_STRING,
     .offset = K(influxdb1.database),
     .required = true,
     .form = "the database to write to"},
    {.key = "retention_policy",
     .type = BR_CFG_STRING,
     .offset = K(influxdb1.retention_policy),
     .form = "a retention policy of the database"},
    {.key = "username",
     .type = BR_CFG_STRING,
     .offset = K(influxdb1.username),
     .form = "the user whose password the token is"},
    {.key = "measurement",
     .type = BR_CFG_STRING,
     .offset = K(influxdb1.measurement),
     .form = MEASUREMENT_FORM},
    LABELS_FIELD,
};

static const br_cfg_field_t influxdb2_fields[] = {
    {.key = "org",
     .type = BR_CFG_STRING,
     .offset = K(influxdb2.org),
     .required = true,
     .form = "the organization (name or ID)"},
    {.key = "bucket",
     .type = BR_CFG_STRING,
     .offset = K(influxdb2.bucket),
     .required = true,
     .form = "the bucket to write to"},
    {.key = "measurement",
     .type = BR_CFG_STRING,
     .offset = K(influxdb2.measurement),
     .form = MEASUREMENT_FORM},
    LABELS_FIELD,
};

static const br_cfg_field_t pushgateway_fields[] = {
    {.key = "job",
     .type = BR_CFG_STRING,
     .offset = K(pushgateway.job),
     .form = "the job label (default benchrack)"},
    {.key = "grouping",
     .type = BR_CFG_LIST,
     .element = BR_CFG_ENUM,
     .offset = K(pushgateway.grouping),
     .names = grouping_keys,
     .max_items = 4,
     .form = "a list of board, suite, host, counter (default [board, suite])"},
    {.key = "username",
     .type = BR_CFG_STRING,
     .offset = K(pushgateway.username),
     .form = "a user for HTTP basic authentication (the token is the password)"},
    {.key = "metric_prefix",
     .type = BR_CFG_STRING,
     .offset = K(pushgateway.metric_prefix),
     .form = "a Prometheus metric name prefix (default benchrack)"},
    LABELS_FIELD,
};

static const br_cfg_field_t bencher_fields[] = {
    {.key = "project",
     .type = BR_CFG_STRING,
     .offset = K(bencher.project),
     .required = true,
     .form = "the Bencher project's slug or UUID"},
    {.key = "branch",
     .type = BR_CFG_STRING,
     .offset = K(bencher.branch),
     .required = true,
     .form = "the branch the results belong to, e.g. main"},
};

static const br_cfg_field_t webhook_fields[] = {
    {.key = "token_header",
     .type = BR_CFG_STRING,
     .offset = K(webhook.token_header),
     .form = "the header that carries the token (default Authorization: Bearer TOKEN)"},
};

/* Each kind's own keys, in kind order (a variant is for the kind's name). */
#define SINK_VARIANT_ROW(id, name, member, renderer)                                               \
	[BR_UPLOAD_SINK_##id] = {NULL, member##_fields, BR_CFG_COUNT(member##_fields)},
static const br_cfg_variant_t sink_variants[] = {BR_UPLOAD_SINK_LIST(SINK_VARIANT_ROW)};

static const br_cfg_map_t sink_map = {
    .what = "sink",
    .size = sizeof(br_upload_sink_t),
    .fields = sink_fields,
    .field_count = BR_CFG_COUNT(sink_fields),
    .selector = "kind",
    .variants = sink_variants,
    .variant_count = BR_CFG_COUNT(sink_variants),
};

#define S(field) offsetof(br_upload_section_t, field)

static const br_cfg_field_t section_fields[] = {
    {.key = "sinks",
     .type = BR_CFG_LIST,
     .element = BR_CFG_MAP,
     .map = &sink_map,
     .offset = S(sinks),
     .required = true,
     .min_items = 1,
     .max_items = UPLOAD_MAX_SINKS,
     .form = "a list of 1 to 16 sinks, each {name, kind, url, ...}"},
    {.key = "max_total_seconds",
     .type = BR_CFG_UINT,
     .offset = S(max_total_seconds),
     .min = 1,
     .max = UPLOAD_MAX_TOTAL_S,
     .form = "1 to 3600: the most one upload pass may take, retries included (default 30)"},
    {.key = "max_attempts",
     .type = BR_CFG_UINT,
     .offset = S(max_attempts),
     .min = 1,
     .max = UPLOAD_MAX_ATTEMPTS,
     .form = "1 to 100 attempts per upload and pass (default 5)"},
    {.key = "retry_initial_ms",
     .type = BR_CFG_UINT,
     .offset = S(retry_initial_ms),
     .min = 1,
     .max = UPLOAD_MAX_RETRY_MS,
     .form = "the first wait before a retry, 1 to 600000 ms"},
    {.key = "retry_max_ms",
     .type = BR_CFG_UINT,
     .offset = S(retry_max_ms),
     .min = 1,
     .max = UPLOAD_MAX_RETRY_MS,
     .form = "the longest wait between retries, 1 to 600000 ms"},
    {.key = "connect_timeout_seconds",
     .type = BR_CFG_UINT,
     .offset = S(connect_timeout_seconds),
     .min = 1,
     .max = UPLOAD_MAX_TIMEOUT_S,
     .form = "1 to 600 seconds (default 5)"},
    {.key = "timeout_seconds",
     .type = BR_CFG_UINT,
     .offset = S(timeout_seconds),
     .min = 1,
     .max = UPLOAD_MAX_TIMEOUT_S,
     .form = "1 to 600 seconds for one request (default 15)"},
};

const br_cfg_map_t br_upload_section_map = {
    .what = "upload",
    .size = sizeof(br_upload_section_t),
    .fields = section_fields,
    .field_count = BR_CFG_COUNT(section_fields),
};

const char *br_upload_sink_kind_name(br_upload_sink_kind_t kind)
{
	return (unsigned)kind < BR_CFG_COUNT(sink_kinds) - 1U ? sink_kinds[kind] : "?";
}

const char *const *br_upload_extra_label_names(void)
{
	return extra_label_keys;
}

const char *br_upload_grouping_name(br_upload_grouping_t key)
{
	return (unsigned)key < BR_CFG_COUNT(grouping_keys) - 1U ? grouping_keys[key] : "?";
}

const br_upload_sink_t *br_upload_section_sink(const br_upload_section_t *section, size_t i)
{
	return br_cfg_item(&section->sinks, sizeof(br_upload_sink_t), i);
}

br_upload_limits_t br_upload_section_limits(const br_upload_section_t *s)
{
	br_upload_limits_t l = {BR_UPLOAD_DEFAULT_TOTAL_S * UPLOAD_MS_PER_S,
	                        BR_UPLOAD_DEFAULT_ATTEMPTS, BR_UPLOAD_DEFAULT_RETRY_INITIAL_MS,
	                        BR_UPLOAD_DEFAULT_RETRY_MAX_MS};
	if (s == NULL)
		return l;
	if (s->max_total_seconds.set)
		l.max_total_ms = (unsigned)s->max_total_seconds.value * UPLOAD_MS_PER_S;
	if (s->max_attempts.set)
		l.max_attempts = (unsigned)s->max_attempts.value;
	if (s->retry_initial_ms.set)
		l.retry_initial_ms = (unsigned)s->retry_initial_ms.value;
	if (s->retry_max_ms.set)
		l.retry_max_ms = (unsigned)s->retry_max_ms.value;
	return l;
}

static unsigned seconds_of(const br_cfg_uint_t *own, const br_cfg_uint_t *shared, unsigned dflt)
{
	if (own->set)
		return (unsigned)own->value * UPLOAD_MS_PER_S;
	if (shared != NULL && shared->set)
		return (unsigned)shared->value * UPLOAD_MS_PER_S;
	return dflt * UPLOAD_MS_PER_S;
}

unsigned br_upload_sink_connect_timeout_ms(const br_upload_section_t *section,
                                           const br_upload_sink_t *sink)
{
	return seconds_of(&sink->connect_timeout_seconds,
	                  section != NULL ? &section->connect_timeout_seconds : NULL,
	                  BR_UPLOAD_DEFAULT_CONNECT_S);
}

unsigned br_upload_sink_timeout_ms(const br_upload_section_t *section, const br_upload_sink_t *sink)
{
	return seconds_of(&sink->timeout_seconds,
	                  section != NULL ? &section->timeout_seconds : NULL,
	                  BR_UPLOAD_DEFAULT_TIMEOUT_S);
}

/* --- checks ------------------------------------------------------------- */

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* True when every byte of s is printable ASCII or part of a UTF-8 sequence
 * (no control characters: they would break a header, a line or a URL). */
static bool no_controls(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p < 0x20U || *p == 0x7FU)
			return false;
	}
	return true;
}

static bool is_sink_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > BR_UPLOAD_SINK_NAME_MAX || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!is_alnum(s[i]) && s[i] != '.' && s[i] != '-' && s[i] != '_')
			return false;
	}
	return true;
}

static bool is_env_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > UPLOAD_ENV_NAME_MAX || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!is_alnum(s[i]) && s[i] != '_')
			return false;
	}
	return true;
}

/* [a-zA-Z_:][a-zA-Z0-9_:]* (the Prometheus data model's metric names). */
static bool is_metric_name(const char *s)
{
	if (s[0] == '\0' || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (const char *p = s; *p != '\0'; p++) {
		if (!is_alnum(*p) && *p != '_' && *p != ':')
			return false;
	}
	return true;
}

/* RFC 9110 5.6.2: token = 1*tchar. */
static bool is_header_name(const char *s)
{
	if (s[0] == '\0')
		return false;
	for (const char *p = s; *p != '\0'; p++) {
		if (!is_alnum(*p) && strchr("!#$%&'*+-.^_`|~", *p) == NULL)
			return false;
	}
	return true;
}

static br_status_t check_url(const char *file, const br_upload_sink_t *s, bool has_token,
                             br_error_t *err)
{
	const char *kind = br_upload_sink_kind_name((br_upload_sink_kind_t)s->kind.value);
	if (!s->url.set) {
		if (s->kind.value == BR_UPLOAD_SINK_BENCHER)
			return BR_OK;
		return br_cfg_error(err, file, s->head.mark,
		                    "sink '%s' (%s) lacks required key 'url'; expected url: the "
		                    "server's http:// or https:// URL",
		                    s->name.value, kind);
	}
	br_sink_url_t u;
	const char *url = s->url.value;
	if (!no_controls(url) || !br_sink_url_parse(url, &u))
		return br_cfg_error(err, file, s->url.mark,
		                    "url of sink '%s' is not an http(s) URL; expected "
		                    "http://HOST[:PORT][/PATH] or https://...",
		                    s->name.value);
	if (u.credentials)
		return br_cfg_error(err, file, s->url.mark,
		                    "url of sink '%s' carries credentials (user:password@); "
		                    "expected a URL without them and " TOKEN_FORM,
		                    s->name.value);
	if (u.fragment || (u.query && s->kind.value != BR_UPLOAD_SINK_WEBHOOK))
		return br_cfg_error(err, file, s->url.mark,
		                    "url of sink '%s' has a %s; expected the server's base URL "
		                    "(benchrack adds the path and query of the %s API)",
		                    s->name.value, u.fragment ? "#fragment" : "?query", kind);
	if (has_token && !u.https && !u.loopback)
		return br_cfg_error(err, file, s->url.mark,
		                    "sink '%s' would send its token unencrypted to another "
		                    "machine; expected an https:// URL (plain http only to "
		                    "127.0.0.1 or localhost)",
		                    s->name.value);
	return BR_OK;
}

/* A value that lands in a header, a URL or a line of text. */
static br_status_t check_text(const char *file, const br_upload_sink_t *s, const char *key,
                              const br_cfg_string_t *v, br_error_t *err)
{
	if (v->set && !no_controls(v->value))
		return br_cfg_error(err, file, v->mark,
		                    "%s of sink '%s' holds a control character; expected plain "
		                    "text",
		                    key, s->name.value);
	return BR_OK;
}

static br_status_t check_kind(const char *file, const br_upload_sink_t *s, bool has_token,
                              br_error_t *err)
{
	bool needs_token = false;
	const br_cfg_string_t *measurement = NULL;
	const br_cfg_string_t *username = NULL;
	switch ((br_upload_sink_kind_t)s->kind.value) {
	case BR_UPLOAD_SINK_INFLUXDB1:
		measurement = &s->influxdb1.measurement;
		username = &s->influxdb1.username;
		if (username->set && !has_token)
			return br_cfg_error(
			    err, file, username->mark,
			    "sink '%s' has a username but no password; expected " TOKEN_FORM,
			    s->name.value);
		break;
	case BR_UPLOAD_SINK_INFLUXDB2:
		measurement = &s->influxdb2.measurement;
		needs_token = true;
		break;
	case BR_UPLOAD_SINK_PUSHGATEWAY: {
		username = &s->pushgateway.username;
		const br_cfg_string_t *prefix = &s->pushgateway.metric_prefix;
		if (prefix->set && !is_metric_name(prefix->value))
			return br_cfg_error(err, file, prefix->mark,
			                    "metric_prefix '%s' is not a Prometheus metric "
			                    "name; expected letters, digits, '_' and ':', not "
			                    "starting with a digit",
			                    prefix->value);
		const br_cfg_list_t *g = &s->pushgateway.grouping;
		for (size_t i = 0; i < g->count; i++) {
			const br_cfg_enum_t *a = br_cfg_item(g, sizeof(br_cfg_enum_t), i);
			for (size_t j = 0; j < i; j++) {
				const br_cfg_enum_t *b = br_cfg_item(g, sizeof(*b), j);
				if (a->value == b->value)
					return br_cfg_error(err, file, a->mark,
					                    "grouping lists '%s' twice; expected "
					                    "each key once",
					                    grouping_keys[a->value]);
			}
		}
		break;
	}
	case BR_UPLOAD_SINK_BENCHER:
		needs_token = true;
		break;
	case BR_UPLOAD_SINK_WEBHOOK: {
		const br_cfg_string_t *h = &s->webhook.token_header;
		if (h->set && !is_header_name(h->value))
			return br_cfg_error(err, file, h->mark,
			                    "token_header '%s' is not an HTTP header name; "
			                    "expected e.g. X-Api-Key",
			                    h->value);
		if (h->set && !has_token)
			return br_cfg_error(
			    err, file, h->mark,
			    "sink '%s' has token_header but no token; expected " TOKEN_FORM,
			    s->name.value);
		break;
	}
	}
	if (needs_token && !has_token)
		return br_cfg_error(
		    err, file, s->head.mark, "sink '%s' (%s) needs a token; expected " TOKEN_FORM,
		    s->name.value, br_upload_sink_kind_name((br_upload_sink_kind_t)s->kind.value));
	if (measurement != NULL && measurement->set &&
	    (measurement->value[0] == '#' || !no_controls(measurement->value)))
		return br_cfg_error(err, file, measurement->mark,
		                    "measurement '%s' cannot be written in line protocol; expected "
		                    "a name without control characters, not starting with '#'",
		                    measurement->value);
	if (username != NULL && username->set &&
	    (strchr(username->value, ':') != NULL || !no_controls(username->value)))
		return br_cfg_error(err, file, username->mark,
		                    "username of sink '%s' holds ':' or a control character; "
		                    "expected a user name for HTTP basic authentication",
		                    s->name.value);
	return BR_OK;
}

/* proxy: a URL of a scheme libcurl proxies through, and not with
 * use_env_proxy (one or the other says where requests go). */
static br_status_t check_proxy(const char *file, const br_upload_sink_t *s, br_error_t *err)
{
	static const char *const schemes[] = {"http://", "https://", "socks5://", "socks5h://"};
	if (s->proxy.set && s->use_env_proxy.set && s->use_env_proxy.value)
		return br_cfg_error(
		    err, file, s->use_env_proxy.mark,
		    "sink '%s' has both proxy and use_env_proxy: true; expected one "
		    "of them",
		    s->name.value);
	if (!s->proxy.set)
		return BR_OK;
	for (size_t i = 0; i < BR_CFG_COUNT(schemes); i++) {
		size_t n = strlen(schemes[i]);
		if (strncmp(s->proxy.value, schemes[i], n) == 0 && s->proxy.value[n] != '\0' &&
		    strpbrk(s->proxy.value, " \t\r\n") == NULL)
			return BR_OK;
	}
	return br_cfg_error(err, file, s->proxy.mark,
	                    "sink '%s': proxy is not a proxy URL; expected http://, https://, "
	                    "socks5:// or socks5h://HOST:PORT",
	                    s->name.value);
}

static br_status_t check_sink(const char *file, const br_upload_sink_t *s, br_error_t *err)
{
	if (!is_sink_name(s->name.value))
		return br_cfg_error(err, file, s->name.mark,
		                    "sink name '%s' cannot name a file; expected up to 64 letters, "
		                    "digits, '.', '-' or '_'",
		                    s->name.value);
	const br_cfg_string_t *inline_secret = s->token.set      ? &s->token
	                                       : s->password.set ? &s->password
	                                                         : NULL;
	if (inline_secret != NULL)
		return br_cfg_error(err, file, inline_secret->mark,
		                    "sink '%s': a %s written in the config file would end up in "
		                    "version control and logs; expected " TOKEN_FORM,
		                    s->name.value, s->token.set ? "token" : "password");
	if (s->token_env.set && s->token_file.set)
		return br_cfg_error(err, file, s->token_file.mark,
		                    "sink '%s' has both token_env and token_file; expected one of "
		                    "them",
		                    s->name.value);
	if (s->token_env.set && !is_env_name(s->token_env.value))
		return br_cfg_error(err, file, s->token_env.mark,
		                    "token_env '%s' is not an environment variable name; expected "
		                    "letters, digits and '_', e.g. INFLUX_TOKEN",
		                    s->token_env.value);
	bool has_token = s->token_env.set || s->token_file.set;
	br_status_t pst = check_proxy(file, s, err);
	if (pst != BR_OK)
		return pst;
	const struct {
		const char *key;
		const br_cfg_string_t *v;
	} texts[] = {
	    {"token_file", &s->token_file},
	    {"ca_file", &s->ca_file},
	    {"database", &s->influxdb1.database},
	    {"retention_policy", &s->influxdb1.retention_policy},
	    {"org", &s->influxdb2.org},
	    {"bucket", &s->influxdb2.bucket},
	    {"job", &s->pushgateway.job},
	    {"project", &s->bencher.project},
	    {"branch", &s->bencher.branch},
	};
	for (size_t i = 0; i < BR_CFG_COUNT(texts); i++) {
		br_status_t st = check_text(file, s, texts[i].key, texts[i].v, err);
		if (st != BR_OK)
			return st;
	}
	br_status_t st = check_url(file, s, has_token, err);
	if (st != BR_OK)
		return st;
	return check_kind(file, s, has_token, err);
}

br_status_t br_upload_section_check(const br_upload_section_t *section, const char *file,
                                    br_error_t *err)
{
	for (size_t i = 0; i < section->sinks.count; i++) {
		const br_upload_sink_t *s = br_upload_section_sink(section, i);
		br_status_t st = check_sink(file, s, err);
		if (st != BR_OK)
			return st;
		for (size_t j = 0; j < i; j++) {
			const br_upload_sink_t *o = br_upload_section_sink(section, j);
			if (strcmp(o->name.value, s->name.value) == 0)
				return br_cfg_error(err, file, s->name.mark,
				                    "sink '%s' listed twice (first at line %u); "
				                    "expected each name once",
				                    s->name.value, o->name.mark.line);
		}
	}
	if (section->retry_initial_ms.set && section->retry_max_ms.set &&
	    section->retry_initial_ms.value > section->retry_max_ms.value)
		return br_cfg_error(err, file, section->retry_initial_ms.mark,
		                    "retry_initial_ms %llu is above retry_max_ms %llu; expected "
		                    "the first wait no longer than the longest",
		                    (unsigned long long)section->retry_initial_ms.value,
		                    (unsigned long long)section->retry_max_ms.value);
	return BR_OK;
}

/* --- a file of its own ---------------------------------------------------- */

static br_status_t config_from_doc(const br_yaml_doc_t *doc, br_upload_config_t *cfg,
                                   br_error_t *err)
{
	br_status_t st = br_cfg_decode(doc, &br_upload_section_map, &cfg->section, err);
	if (st != BR_OK)
		return st;
	st = br_upload_section_check(&cfg->section, doc->name, err);
	if (st != BR_OK) {
		br_cfg_free(&br_upload_section_map, &cfg->section);
		return st;
	}
	cfg->path = xstrdup(doc->name);
	char *copy = xstrdup(doc->name);
	cfg->dir = xstrdup(dirname(copy));
	free(copy);
	return BR_OK;
}

br_status_t br_upload_config_load(const char *path, br_upload_config_t *cfg, br_error_t *err)
{
	memset(cfg, 0, sizeof(*cfg));
	br_yaml_doc_t doc;
	br_status_t st = br_yaml_load(path, &doc, err);
	if (st != BR_OK)
		return st;
	st = config_from_doc(&doc, cfg, err);
	br_yaml_doc_free(&doc);
	return st;
}

br_status_t br_upload_config_parse(const char *name, const unsigned char *data, size_t size,
                                   br_upload_config_t *cfg, br_error_t *err)
{
	memset(cfg, 0, sizeof(*cfg));
	br_yaml_doc_t doc;
	br_status_t st = br_yaml_parse(name, data, size, &doc, err);
	if (st != BR_OK)
		return st;
	st = config_from_doc(&doc, cfg, err);
	br_yaml_doc_free(&doc);
	return st;
}

void br_upload_config_free(br_upload_config_t *cfg)
{
	br_cfg_free(&br_upload_section_map, &cfg->section);
	free(cfg->path);
	free(cfg->dir);
	memset(cfg, 0, sizeof(*cfg));
}
