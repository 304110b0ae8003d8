#include "config/sink_url.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>

#define SINK_URL_LOCALHOST "localhost"

/* The parts of a URL libcurl parsed, owned (curl_free each). */
typedef struct url_parts {
	char *scheme, *host, *port, *path, *user, *password, *query, *fragment;
} url_parts_t;

static void parts_free(url_parts_t *p)
{
	char *all[] = {p->scheme, p->host,     p->port,  p->path,
	               p->user,   p->password, p->query, p->fragment};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		curl_free(all[i]);
	memset(p, 0, sizeof(*p));
}

/* One part, or NULL when the URL has none. */
static char *part(CURLU *h, CURLUPart what, unsigned flags)
{
	char *value = NULL;
	if (curl_url_get(h, what, &value, flags) != CURLUE_OK)
		return NULL;
	return value;
}

/* Parses url with libcurl; false unless it is an absolute http(s) URL with a host. */
static bool parts_read(const char *url, url_parts_t *p)
{
	memset(p, 0, sizeof(*p));
	CURLU *h = curl_url();
	if (h == NULL)
		abort(); /* out of memory: as xalloc.h does */
	bool ok = curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK;
	if (ok) {
		p->scheme = part(h, CURLUPART_SCHEME, 0);
		p->host = part(h, CURLUPART_HOST, 0);
		p->port = part(h, CURLUPART_PORT, CURLU_DEFAULT_PORT);
		p->path = part(h, CURLUPART_PATH, 0);
		p->user = part(h, CURLUPART_USER, 0);
		p->password = part(h, CURLUPART_PASSWORD, 0);
		p->query = part(h, CURLUPART_QUERY, 0);
		p->fragment = part(h, CURLUPART_FRAGMENT, 0);
		ok = p->scheme != NULL && p->host != NULL && p->host[0] != '\0' &&
		     (strcmp(p->scheme, "http") == 0 || strcmp(p->scheme, "https") == 0);
	}
	curl_url_cleanup(h);
	if (!ok)
		parts_free(p);
	return ok;
}

/* host as libcurl gives it: "localhost", "127.0.0.1", or "[::1]". */
static bool host_is_loopback(const char *host)
{
	if (strcasecmp(host, SINK_URL_LOCALHOST) == 0)
		return true;
	struct in_addr v4;
	if (inet_pton(AF_INET, host, &v4) == 1)
		return (ntohl(v4.s_addr) >> 24) == 127U;
	size_t n = strlen(host);
	if (n < 3 || host[0] != '[' || host[n - 1U] != ']')
		return false;
	char text[INET6_ADDRSTRLEN];
	if (n - 2U >= sizeof(text))
		return false;
	memcpy(text, host + 1, n - 2U);
	text[n - 2U] = '\0';
	struct in6_addr v6;
	return inet_pton(AF_INET6, text, &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

bool br_sink_url_parse(const char *url, br_sink_url_t *out)
{
	memset(out, 0, sizeof(*out));
	url_parts_t p;
	if (!parts_read(url, &p))
		return false;
	out->https = strcmp(p.scheme, "https") == 0;
	out->credentials = p.user != NULL || p.password != NULL;
	out->query = p.query != NULL;
	out->fragment = p.fragment != NULL;
	out->loopback = host_is_loopback(p.host);
	parts_free(&p);
	return true;
}

/* The length of path without its trailing slashes. */
static size_t path_base_length(const char *path)
{
	size_t n = path != NULL ? strlen(path) : 0;
	while (n > 0 && path[n - 1U] == '/')
		n--;
	return n;
}

bool br_sink_url_within(const char *base, const char *request)
{
	url_parts_t b, r;
	if (!parts_read(base, &b))
		return false;
	if (!parts_read(request, &r)) {
		parts_free(&b);
		return false;
	}
	size_t n = path_base_length(b.path);
	const char *rpath = r.path != NULL ? r.path : "/";
	bool same = strcmp(b.scheme, r.scheme) == 0 && strcasecmp(b.host, r.host) == 0 &&
	            b.port != NULL && r.port != NULL && strcmp(b.port, r.port) == 0 &&
	            r.user == NULL && r.password == NULL &&
	            strncmp(rpath, b.path != NULL ? b.path : "", n) == 0 &&
	            (rpath[n] == '\0' || rpath[n] == '/');
	parts_free(&b);
	parts_free(&r);
	return same;
}
