/*
 * Where results are posted: the `upload:` section of a suite file, or a file
 * of its own (`--upload-config FILE`, whose top level is that section). It
 * lists sinks — InfluxDB 1.x and 2.x, a Prometheus Pushgateway, Bencher, a
 * JSON webhook — and bounds the time spent posting:
 *
 *   upload:
 *     max_total_seconds: 30
 *     sinks:
 *       - {name: lab, kind: influxdb1, url: http://127.0.0.1:8086, database: bench}
 *       - {name: pg, kind: pushgateway, url: http://127.0.0.1:9091, grouping: [board, suite]}
 *       - {name: bencher, kind: bencher, project: fw, branch: main,
 *          token_env: BENCHER_API_TOKEN}
 *
 * A token comes only from an environment variable (token_env) or a file
 * (token_file, relative to the config file): a token written in the file
 * itself (`token:`, `password:`) is a configuration error, and so is a URL
 * carrying credentials. A token is never sent over plain http to another
 * machine. TLS verification cannot be switched off; ca_file adds a CA bundle.
 * Every error is "file:line:col: ...; expected ..." (yaml/schema.h).
 */
#ifndef BENCHRACK_CONFIG_UPLOAD_CONFIG_H
#define BENCHRACK_CONFIG_UPLOAD_CONFIG_H

#include <stddef.h>

#include "common/error.h"
#include "yaml/schema.h"

/* The kinds of sink (a sink's kind: key), each declared once, here, as
 * X(ID, name, member, renderer): its name in the config, the member of
 * br_upload_sink_t (and table of keys) of its own settings, and the
 * upload/render_RENDERER.c that makes its request. Parsing, the "expected
 * one of", the keys of each kind and the renderer of each are made from this
 * list (tests/style/check_closed_sets.py fails on a name written elsewhere):
 *   InfluxDB 1.x: POST /write, line protocol
 *   InfluxDB 2.x: POST /api/v2/write, line protocol
 *   Prometheus Pushgateway: PUT of the text format
 *   Bencher: POST /v0/projects/P/reports with BMF
 *   any URL: POST of the result record (JSON) */
#define BR_UPLOAD_SINK_LIST(X)                                                                     \
	X(INFLUXDB1, "influxdb1", influxdb1, influxdb)                                             \
	X(INFLUXDB2, "influxdb2", influxdb2, influxdb)                                             \
	X(PUSHGATEWAY, "pushgateway", pushgateway, pushgateway)                                    \
	X(BENCHER, "bencher", bencher, bencher)                                                    \
	X(WEBHOOK, "webhook", webhook, webhook)

#define BR_UPLOAD_SINK_ENUM_ROW(id, name, member, renderer) BR_UPLOAD_SINK_##id,
typedef enum br_upload_sink_kind {
	BR_UPLOAD_SINK_LIST(BR_UPLOAD_SINK_ENUM_ROW)
} br_upload_sink_kind_t;
#undef BR_UPLOAD_SINK_ENUM_ROW
#define BR_UPLOAD_SINK_COUNT_ROW(id, name, member, renderer) +1
enum { BR_UPLOAD_SINK_KIND_COUNT = 0 BR_UPLOAD_SINK_LIST(BR_UPLOAD_SINK_COUNT_ROW) };
#undef BR_UPLOAD_SINK_COUNT_ROW

/* The record keys a Pushgateway group can be keyed by (grouping:), in order. */
typedef enum br_upload_grouping {
	BR_UPLOAD_GROUP_BOARD,
	BR_UPLOAD_GROUP_SUITE,
	BR_UPLOAD_GROUP_HOST,
	BR_UPLOAD_GROUP_COUNTER,
} br_upload_grouping_t;

#define BR_UPLOAD_SINK_NAME_MAX 64U
#define BR_UPLOAD_DEFAULT_BENCHER_URL "https://api.bencher.dev"
#define BR_UPLOAD_DEFAULT_MEASUREMENT "benchrack"
#define BR_UPLOAD_DEFAULT_JOB "benchrack"
#define BR_UPLOAD_DEFAULT_METRIC_PREFIX "benchrack"

typedef struct br_upload_sink {
	br_cfg_section_t head;
	br_cfg_string_t name;        /* names the sink in messages and spool files */
	br_cfg_enum_t kind;          /* br_upload_sink_kind_t */
	br_cfg_string_t url;         /* http(s)://host[:port][/prefix] (bencher: a default) */
	br_cfg_string_t token_env;   /* the token is in this environment variable */
	br_cfg_string_t token_file;  /* ... or in this file (relative to the config file) */
	br_cfg_string_t token;       /* refused: never inline */
	br_cfg_string_t password;    /* refused: never inline */
	br_cfg_string_t ca_file;     /* extra CA bundle (PEM) to verify the server with */
	br_cfg_string_t proxy;       /* send through this proxy; unset: no proxy at all */
	br_cfg_bool_t use_env_proxy; /* true: the environment's proxy variables apply */
	br_cfg_uint_t connect_timeout_seconds;
	br_cfg_uint_t timeout_seconds;
	br_cfg_list_t labels; /* br_cfg_enum_t: br_upload_extra_label_names(); InfluxDB and
	                         Pushgateway: provenance to key series by too */
	struct {
		br_cfg_string_t database, retention_policy, username, measurement;
	} influxdb1;
	struct {
		br_cfg_string_t org, bucket, measurement;
	} influxdb2;
	struct {
		br_cfg_string_t job, username, metric_prefix;
		br_cfg_list_t grouping; /* br_cfg_enum_t: br_upload_grouping_t */
	} pushgateway;
	struct {
		br_cfg_string_t project, branch;
	} bencher;
	struct {
		br_cfg_string_t token_header; /* default Authorization (with "Bearer ") */
	} webhook;
} br_upload_sink_t;

typedef struct br_upload_section {
	br_cfg_section_t head;
	br_cfg_list_t sinks;                   /* br_upload_sink_t */
	br_cfg_uint_t max_total_seconds;       /* everything one upload pass may take */
	br_cfg_uint_t max_attempts;            /* per item and pass */
	br_cfg_uint_t retry_initial_ms;        /* first backoff; doubles per attempt */
	br_cfg_uint_t retry_max_ms;            /* the cap on one backoff */
	br_cfg_uint_t connect_timeout_seconds; /* default for every sink */
	br_cfg_uint_t timeout_seconds;         /* one request, default for every sink */
} br_upload_section_t;

/* The limits of one upload pass, defaults filled in. */
typedef struct br_upload_limits {
	unsigned max_total_ms;
	unsigned max_attempts;
	unsigned retry_initial_ms;
	unsigned retry_max_ms;
} br_upload_limits_t;

#define BR_UPLOAD_DEFAULT_TOTAL_S 30U
#define BR_UPLOAD_DEFAULT_ATTEMPTS 5U
#define BR_UPLOAD_DEFAULT_RETRY_INITIAL_MS 500U
#define BR_UPLOAD_DEFAULT_RETRY_MAX_MS 8000U
#define BR_UPLOAD_DEFAULT_CONNECT_S 5U
#define BR_UPLOAD_DEFAULT_TIMEOUT_S 15U

/* The schema of the section (a suite's `upload:` key points at it). */
extern const br_cfg_map_t br_upload_section_map;

/*
 * The checks the schema cannot make, on a decoded section of file: sink
 * names unique and of letters, digits, '.', '-', '_'; no inline token; one
 * token source at most; the keys each kind needs (influxdb1 database,
 * influxdb2 org, bucket and token, bencher project, branch and token); URLs
 * http(s) without credentials, fragment or (but for webhooks) query; no token
 * over plain http except to this machine; names Prometheus and InfluxDB can
 * carry. BR_OK, or BR_ERR_INPUT "file:line:col: ...".
 */
br_status_t br_upload_section_check(const br_upload_section_t *section, const char *file,
                                    br_error_t *err);

/* The limits section sets, defaults for what it does not (section may be NULL). */
br_upload_limits_t br_upload_section_limits(const br_upload_section_t *section);

/* Sink i of section. */
const br_upload_sink_t *br_upload_section_sink(const br_upload_section_t *section, size_t i);

/* The sink's connect and whole-request timeouts in ms: its own, else the
 * section's, else the defaults. */
unsigned br_upload_sink_connect_timeout_ms(const br_upload_section_t *section,
                                           const br_upload_sink_t *sink);
unsigned br_upload_sink_timeout_ms(const br_upload_section_t *section,
                                   const br_upload_sink_t *sink);

/* The kind's name in BR_UPLOAD_SINK_LIST. */
const char *br_upload_sink_kind_name(br_upload_sink_kind_t kind);

/* "board", "suite", "host", "counter". */
const char *br_upload_grouping_name(br_upload_grouping_t key);

/* The labels a sink's `labels:` may add to the bounded default (bench, board,
 * suite, unit), NULL-terminated: the record's provenance. */
const char *const *br_upload_extra_label_names(void);

/* A file of its own holding an upload section (its top level). */
typedef struct br_upload_config {
	br_upload_section_t section;
	char *path; /* owned */
	char *dir;  /* its directory: token_file and ca_file are relative to it (owned) */
} br_upload_config_t;

/* Loads and checks the upload config file at path. BR_OK with *cfg filled
 * (free with br_upload_config_free), or BR_ERR_INPUT "file:line:col: ...". */
br_status_t br_upload_config_load(const char *path, br_upload_config_t *cfg, br_error_t *err);

/* The same from size bytes of YAML named name. */
br_status_t br_upload_config_parse(const char *name, const unsigned char *data, size_t size,
                                   br_upload_config_t *cfg, br_error_t *err);

/* Frees what br_upload_config_load allocated and zeroes cfg. */
void br_upload_config_free(br_upload_config_t *cfg);

#endif
