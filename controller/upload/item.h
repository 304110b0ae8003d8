/*
 * One pending upload: everything needed to send one result record to one
 * sink, without the config or the record — the rendered request (method,
 * URL, content type, body), where its token comes from (an environment
 * variable or a file: never the token), how to verify TLS, the timeouts,
 * and what happened so far (attempts, the last error, a Retry-After wait).
 * This is what results/spool/ holds (item_json.h) and what deliver.h sends.
 */
#ifndef BENCHRACK_UPLOAD_ITEM_H
#define BENCHRACK_UPLOAD_ITEM_H

#include <stddef.h>
#include <stdint.h>

/* How the token goes into the request. */
typedef enum br_upload_auth {
	BR_UPLOAD_AUTH_NONE,   /* no token */
	BR_UPLOAD_AUTH_BEARER, /* Authorization: Bearer TOKEN (Bencher, webhooks) */
	BR_UPLOAD_AUTH_TOKEN,  /* Authorization: Token TOKEN (InfluxDB) */
	BR_UPLOAD_AUTH_BASIC,  /* Authorization: Basic base64(username:TOKEN) (RFC 7617) */
	BR_UPLOAD_AUTH_HEADER, /* <header>: TOKEN (a webhook's own header) */
} br_upload_auth_t;

typedef struct br_upload_item {
	char *id;       /* the spool file's name without .json */
	char *sink;     /* the sink's name in the config */
	char *kind;     /* its kind: influxdb1, pushgateway, ... */
	char *run_file; /* the result record this was made from */
	char *spooled;  /* when it was spooled (ISO 8601 UTC) */
	char *method;   /* POST or PUT */
	char *url;
	char *content_type;
	char *idempotency_key; /* the same for every resend of this item */
	br_upload_auth_t auth;
	char *auth_header; /* AUTH_HEADER: the header's name */
	char *username;    /* AUTH_BASIC: the user */
	char *token_env;   /* the token's environment variable, or NULL */
	char *token_file;  /* the token's file (absolute), or NULL */
	char *ca_file;     /* extra CA bundle (absolute), or NULL */
	unsigned connect_timeout_ms;
	unsigned timeout_ms;
	unsigned attempts;      /* sends that failed so far, over every pass */
	char *last_error;       /* what the last failed attempt met (tokens redacted), or NULL */
	int64_t not_before_ms;  /* a server's Retry-After: not before this Unix time (0: none) */
	long rejected_status;   /* rejected items: the HTTP status, 0 otherwise */
	char *rejected_at;      /* when (ISO 8601), or NULL */
	char *rejected_message; /* the server's message (tokens redacted), or NULL */
	char *body;
	size_t body_len;
} br_upload_item_t;

/* Frees every string of item and zeroes it. */
void br_upload_item_free(br_upload_item_t *item);

/* Replaces *field with a copy of value (NULL allowed). */
void br_upload_item_set(char **field, const char *value);

/* "none", "bearer", "token", "basic", "header". */
const char *br_upload_auth_name(br_upload_auth_t auth);

#endif
