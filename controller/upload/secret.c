#include "upload/secret.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/base64.h>

#include "common/file_read.h"
#include "common/xalloc.h"

#define REDACT_MIN_PARTIAL 3U /* shorter ends of a token are too common to cut */

static bool has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p < 0x20U || *p == 0x7FU)
			return true;
	}
	return false;
}

/* Reads at most BR_UPLOAD_TOKEN_MAX bytes of path, trailing whitespace cut:
 * a regular file only, opened without blocking (a FIFO is refused unread). */
static br_status_t read_token_file(const br_upload_item_t *item, char **out, br_error_t *err)
{
	unsigned char *data = NULL;
	size_t n = 0;
	br_error_t why = {.status = BR_OK};
	br_status_t st = br_file_read_all(item->token_file, BR_UPLOAD_TOKEN_MAX, &data, &n, &why);
	if (st != BR_OK)
		return br_error_set(err, BR_ERR_INPUT, "sink %s: token file %s", item->sink,
		                    why.message);
	char *buf = (char *)data;
	if (strlen(buf) != n) {
		explicit_bzero(buf, n);
		free(buf);
		return br_error_set(err, BR_ERR_INPUT,
		                    "sink %s: token file %s is not one line of text of at most "
		                    "%u bytes",
		                    item->sink, item->token_file, BR_UPLOAD_TOKEN_MAX);
	}
	while (n > 0 && (buf[n - 1U] == '\n' || buf[n - 1U] == '\r' || buf[n - 1U] == ' ' ||
	                 buf[n - 1U] == '\t'))
		buf[--n] = '\0';
	*out = buf;
	return BR_OK;
}

/* base64(username:token), the form basic authentication puts on the wire
 * (libcurl builds the header itself): kept only to redact it from a
 * server's echo. Encoded by nettle (RFC 4648, padded). */
static br_status_t make_basic(const br_upload_item_t *item, br_upload_secret_t *secret)
{
	size_t plain_len = strlen(item->username) + 1U + strlen(secret->token);
	char *plain = xmalloc(plain_len + 1U);
	snprintf(plain, plain_len + 1U, "%s:%s", item->username, secret->token);
	size_t encoded_len = BASE64_ENCODE_RAW_LENGTH(plain_len);
	secret->basic = xmalloc(encoded_len + 1U);
	base64_encode_raw(secret->basic, plain_len, (const uint8_t *)plain);
	secret->basic[encoded_len] = '\0';
	explicit_bzero(plain, plain_len);
	free(plain);
	return BR_OK;
}

br_status_t br_upload_secret_load(const br_upload_item_t *item, br_upload_secret_t *secret,
                                  br_error_t *err)
{
	memset(secret, 0, sizeof(*secret));
	if (item->auth == BR_UPLOAD_AUTH_NONE)
		return BR_OK;
	if (item->token_env != NULL) {
		const char *v = getenv(item->token_env);
		if (v == NULL || v[0] == '\0')
			return br_error_set(err, BR_ERR_INPUT,
			                    "sink %s: the token's environment variable %s is not "
			                    "set",
			                    item->sink, item->token_env);
		if (strlen(v) > BR_UPLOAD_TOKEN_MAX)
			return br_error_set(err, BR_ERR_INPUT,
			                    "sink %s: the token in %s is longer than %u bytes",
			                    item->sink, item->token_env, BR_UPLOAD_TOKEN_MAX);
		secret->token = xstrdup(v);
	} else if (item->token_file != NULL) {
		br_status_t st = read_token_file(item, &secret->token, err);
		if (st != BR_OK)
			return st;
	} else {
		return br_error_set(err, BR_ERR_INPUT, "sink %s: no token source", item->sink);
	}
	const char *where = item->token_env != NULL ? item->token_env : item->token_file;
	if (secret->token[0] == '\0' || has_control(secret->token)) {
		bool empty = secret->token[0] == '\0';
		br_upload_secret_free(secret);
		return br_error_set(err, BR_ERR_INPUT, "sink %s: the token in %s %s", item->sink,
		                    where, empty ? "is empty" : "holds a control character");
	}
	if (item->auth == BR_UPLOAD_AUTH_BASIC)
		return make_basic(item, secret);
	return BR_OK;
}

bool br_upload_secret_header(const br_upload_item_t *item, const br_upload_secret_t *secret,
                             char *out, size_t cap)
{
	out[0] = '\0';
	if (secret->token == NULL)
		return false;
	if (item->auth == BR_UPLOAD_AUTH_TOKEN) {
		snprintf(out, cap, "Authorization: Token %s", secret->token);
		return true;
	}
	if (item->auth == BR_UPLOAD_AUTH_HEADER) {
		snprintf(out, cap, "%s: %s", item->auth_header, secret->token);
		return true;
	}
	return false; /* basic and bearer: libcurl's own options (br_upload_secret_credentials) */
}

void br_upload_secret_credentials(const br_upload_item_t *item, const br_upload_secret_t *secret,
                                  br_http_request_t *req)
{
	if (secret->token == NULL)
		return;
	if (item->auth == BR_UPLOAD_AUTH_BASIC) {
		req->username = item->username;
		req->password = secret->token;
	} else if (item->auth == BR_UPLOAD_AUTH_BEARER) {
		req->bearer = secret->token;
	}
}

/* Replaces each occurrence of needle in text (cap bytes) with the marker. */
static void redact_one(const char *needle, char *text, size_t cap)
{
	size_t nlen = needle != NULL ? strlen(needle) : 0;
	if (nlen == 0)
		return;
	char *out = xmalloc(cap);
	size_t o = 0;
	const char *p = text;
	while (*p != '\0' && o + 1U < cap) {
		if (strncmp(p, needle, nlen) == 0) {
			for (const char *m = BR_UPLOAD_REDACTED; *m != '\0' && o + 1U < cap; m++)
				out[o++] = *m;
			p += nlen;
		} else {
			out[o++] = *p++;
		}
	}
	/* text cut short elsewhere may end in the token's first characters */
	for (size_t k = nlen - 1U < o ? nlen - 1U : o; k >= REDACT_MIN_PARTIAL; k--) {
		if (strncmp(out + o - k, needle, k) == 0) {
			o -= k;
			break;
		}
	}
	out[o] = '\0';
	memcpy(text, out, o + 1U);
	free(out);
}

void br_upload_secret_redact(const br_upload_secret_t *secret, char *text, size_t cap)
{
	if (cap == 0)
		return;
	redact_one(secret->basic, text, cap);
	redact_one(secret->token, text, cap);
}

void br_upload_secret_free(br_upload_secret_t *secret)
{
	if (secret->token != NULL) {
		explicit_bzero(secret->token, strlen(secret->token));
		free(secret->token);
	}
	if (secret->basic != NULL) {
		explicit_bzero(secret->basic, strlen(secret->basic));
		free(secret->basic);
	}
	memset(secret, 0, sizeof(*secret));
}
