/*
 * One HTTP request through libcurl, and what came back, classified so the
 * caller can decide between "delivered", "retry" and "reject" without
 * knowing libcurl. TLS peer and host verification are always on (libcurl's
 * defaults, set explicitly; a CA file can be added, never removed);
 * redirects are not followed (a token never goes to another host); only
 * http and https; a connect timeout and a whole-request timeout bound every
 * request. Nothing is printed: libcurl's own messages land in the response.
 */
#ifndef BENCHRACK_UPLOAD_HTTP_H
#define BENCHRACK_UPLOAD_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define BR_HTTP_MESSAGE_BYTES 16384U /* the server's message as captured (before redaction) */

typedef struct br_http_request {
	const char *method; /* POST or PUT */
	const char *url;
	const char *content_type;
	const char *const *headers; /* more "Name: value" lines (a token scheme libcurl has
	                               no option for: "Token", a webhook's own header) */
	size_t header_count;
	/* Credentials libcurl sends itself, or NULL: basic authentication
	 * (CURLOPT_USERNAME, CURLOPT_PASSWORD), or a bearer token
	 * (CURLOPT_XOAUTH2_BEARER). */
	const char *username, *password;
	const char *bearer;
	const char *body;
	size_t body_len;
	const char *ca_file; /* extra CA bundle, or NULL */
	/* Where the request goes (issue 31): through proxy when set; else
	 * through the environment's proxy variables only when use_env_proxy;
	 * else directly (CURLOPT_PROXY "" and CURLOPT_NOPROXY "*"), whatever
	 * http_proxy, ALL_PROXY ... say. */
	const char *proxy;
	bool use_env_proxy;
	const char *user_agent;
	long connect_timeout_ms;
	long timeout_ms; /* the whole request */
} br_http_request_t;

/* What went wrong below HTTP, when no status came back. */
typedef enum br_http_failure {
	BR_HTTP_OK,         /* a status came back (any status) */
	BR_HTTP_CONNECT,    /* no connection: refused, unreachable, name not resolved */
	BR_HTTP_TIMEOUT,    /* connect or transfer timeout */
	BR_HTTP_CONNECTION, /* the connection broke: reset, empty reply, send or receive error */
	BR_HTTP_TLS,        /* the server's certificate or the TLS handshake failed */
	BR_HTTP_LOCAL,      /* nothing a retry can fix: a bad URL, a CA file missing, ... */
} br_http_failure_t;

typedef struct br_http_response {
	br_http_failure_t failure;
	long status;        /* the HTTP status (failure == BR_HTTP_OK) */
	long retry_after_s; /* Retry-After in seconds (either form), -1 when absent */
	char message[BR_HTTP_MESSAGE_BYTES]; /* the server's message (X-Influxdb-Error, else
	                                        the body), or libcurl's error; may hold a token
	                                        the server echoed: redact before use */
	char location[1024];                 /* a redirect's target, "" otherwise */
} br_http_response_t;

/* Sends req and fills *resp. Never blocks longer than req->timeout_ms (plus
 * libcurl's granularity). */
void br_http_perform(const br_http_request_t *req, br_http_response_t *resp);

/* "connection refused"-style words for a failure, for messages. */
const char *br_http_failure_name(br_http_failure_t failure);

#endif
