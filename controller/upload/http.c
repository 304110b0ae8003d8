#include "upload/http.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xalloc.h"

#define HTTP_HEADER_BYTES 512U
#define HTTP_INFLUX_ERROR "X-Influxdb-Error:"

/* The response body and headers as they arrive, capped. */
typedef struct capture {
	char body[BR_HTTP_MESSAGE_BYTES];
	size_t body_len;
	char influx_error[BR_HTTP_MESSAGE_BYTES];
} capture_t;

static size_t on_body(char *data, size_t size, size_t nmemb, void *ctx)
{
	capture_t *c = ctx;
	size_t n = size * nmemb;
	size_t room = sizeof(c->body) - 1U - c->body_len;
	size_t take = n < room ? n : room;
	memcpy(c->body + c->body_len, data, take);
	c->body_len += take;
	c->body[c->body_len] = '\0';
	return n; /* the rest is dropped, not an error */
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *ctx)
{
	capture_t *c = ctx;
	size_t n = size * nmemb;
	size_t key = strlen(HTTP_INFLUX_ERROR);
	if (n > key && strncasecmp(data, HTTP_INFLUX_ERROR, key) == 0) {
		size_t start = key;
		while (start < n && data[start] == ' ')
			start++;
		size_t len = n - start;
		while (len > 0 && strchr("\r\n", data[start + len - 1U]) != NULL)
			len--;
		if (len >= sizeof(c->influx_error))
			len = sizeof(c->influx_error) - 1U;
		memcpy(c->influx_error, data + start, len);
		c->influx_error[len] = '\0';
	}
	return n;
}

static br_http_failure_t failure_of(CURLcode code)
{
	switch (code) {
	case CURLE_OK:
		return BR_HTTP_OK;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
		return BR_HTTP_CONNECT;
	case CURLE_OPERATION_TIMEDOUT:
		return BR_HTTP_TIMEOUT;
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_WEIRD_SERVER_REPLY:
		return BR_HTTP_CONNECTION;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_SSL_INVALIDCERTSTATUS:
	case CURLE_SSL_CACERT_BADFILE: /* no CA bundle to verify with: never sent unverified */
		return BR_HTTP_TLS;
	default:
		return BR_HTTP_LOCAL;
	}
}

const char *br_http_failure_name(br_http_failure_t failure)
{
	switch (failure) {
	case BR_HTTP_OK:
		return "answered";
	case BR_HTTP_CONNECT:
		return "no connection";
	case BR_HTTP_TIMEOUT:
		return "timed out";
	case BR_HTTP_CONNECTION:
		return "connection broken";
	case BR_HTTP_TLS:
		return "TLS verification failed";
	case BR_HTTP_LOCAL:
		return "request not sent";
	}
	return "?";
}

/* libcurl is initialised once, on first use (before any thread needs it). */
static void global_init(void)
{
	static bool done;
	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = true;
	}
}

/* The server's message: InfluxDB's error header, else the body, one line. */
static void server_message(const capture_t *c, char *out, size_t cap)
{
	const char *src = c->influx_error[0] != '\0' ? c->influx_error : c->body;
	size_t o = 0;
	for (const char *p = src; *p != '\0' && o + 1U < cap; p++) {
		bool space = *p == '\n' || *p == '\r' || *p == '\t';
		if (space && (o == 0 || out[o - 1U] == ' '))
			continue;
		out[o++] = space ? ' ' : *p;
	}
	while (o > 0 && out[o - 1U] == ' ')
		o--;
	out[o] = '\0';
}

static struct curl_slist *make_headers(const br_http_request_t *req)
{
	char line[HTTP_HEADER_BYTES];
	snprintf(line, sizeof(line), "Content-Type: %s", req->content_type);
	struct curl_slist *list = curl_slist_append(NULL, line);
	list = curl_slist_append(list, "Expect:"); /* no 100-continue round trip */
	for (size_t i = 0; i < req->header_count; i++)
		list = curl_slist_append(list, req->headers[i]);
	return list;
}

void br_http_perform(const br_http_request_t *req, br_http_response_t *resp)
{
	memset(resp, 0, sizeof(*resp));
	resp->retry_after_s = -1;
	global_init();
	CURL *curl = curl_easy_init();
	if (curl == NULL) {
		resp->failure = BR_HTTP_LOCAL;
		snprintf(resp->message, sizeof(resp->message), "libcurl could not start");
		return;
	}
	capture_t *cap = xcalloc(1, sizeof(*cap)); /* large: not on the stack */
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *headers = make_headers(req);
	curl_easy_setopt(curl, CURLOPT_URL, req->url);
	curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req->method);
	curl_easy_setopt(curl, CURLOPT_POST, 1L);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, req->body);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	if (req->username != NULL && req->password != NULL) {
		curl_easy_setopt(curl, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl_easy_setopt(curl, CURLOPT_USERNAME, req->username);
		curl_easy_setopt(curl, CURLOPT_PASSWORD, req->password);
	} else if (req->bearer != NULL) {
		curl_easy_setopt(curl, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER);
		curl_easy_setopt(curl, CURLOPT_XOAUTH2_BEARER, req->bearer);
	}
	curl_easy_setopt(curl, CURLOPT_USERAGENT, req->user_agent);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
	if (req->ca_file != NULL)
		curl_easy_setopt(curl, CURLOPT_CAINFO, req->ca_file);
	if (req->proxy != NULL) {
		curl_easy_setopt(curl, CURLOPT_PROXY, req->proxy);
	} else if (!req->use_env_proxy) {
		/* A token must not go to whatever proxy the environment names. */
		curl_easy_setopt(curl, CURLOPT_PROXY, "");
		curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
	}
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, req->connect_timeout_ms);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, req->timeout_ms);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, cap);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, cap);
	CURLcode code = curl_easy_perform(curl);
	resp->failure = failure_of(code);
	if (code == CURLE_OK) {
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &resp->status);
		curl_off_t wait = -1;
		if (curl_easy_getinfo(curl, CURLINFO_RETRY_AFTER, &wait) == CURLE_OK && wait > 0)
			resp->retry_after_s = (long)wait;
		char *location = NULL;
		if (curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location) == CURLE_OK &&
		    location != NULL)
			snprintf(resp->location, sizeof(resp->location), "%s", location);
		server_message(cap, resp->message, sizeof(resp->message));
	} else {
		snprintf(resp->message, sizeof(resp->message), "%s",
		         errbuf[0] != '\0' ? errbuf : curl_easy_strerror(code));
	}
	curl_slist_free_all(headers);
	curl_easy_cleanup(curl);
	free(cap);
}
