/*
 * Tokens: read when a request is about to be sent, from the environment
 * variable or the file an item names (never from the config or the spool),
 * kept only in memory for that send, wiped when freed, and redacted from
 * every message that leaves this layer — a server that echoes the token in
 * its error text does not get it into a log, a spool file or
 * results/rejected/.
 */
#ifndef BENCHRACK_UPLOAD_SECRET_H
#define BENCHRACK_UPLOAD_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "upload/http.h"
#include "upload/item.h"

#define BR_UPLOAD_TOKEN_MAX 4096U
#define BR_UPLOAD_REDACTED "[redacted]"

typedef struct br_upload_secret {
	char *token; /* owned; NULL when the item has no token */
	char *basic; /* base64(username:token) for basic auth, owned, to redact; else NULL */
} br_upload_secret_t;

/*
 * Reads item's token into *secret (zeroed first). A file's trailing line
 * break and spaces are dropped. BR_ERR_INPUT naming the variable or the file
 * (never the token) when it is unset, empty, unreadable, longer than
 * BR_UPLOAD_TOKEN_MAX or holds a control character (it would break the
 * header). An item without auth gives an empty secret and BR_OK.
 */
br_status_t br_upload_secret_load(const br_upload_item_t *item, br_upload_secret_t *secret,
                                  br_error_t *err);

/*
 * The header that carries the token for the schemes libcurl has no option
 * for ("Authorization: Token ...", a webhook's "<header>: ...") into out
 * (cap bytes). Returns false otherwise (no token, basic, bearer: out "").
 */
bool br_upload_secret_header(const br_upload_item_t *item, const br_upload_secret_t *secret,
                             char *out, size_t cap);

/*
 * Basic and bearer authentication as libcurl's options: sets req's username
 * and password (CURLOPT_USERNAME, CURLOPT_PASSWORD) or bearer
 * (CURLOPT_XOAUTH2_BEARER) to the item's user and secret's token (pointers
 * into item and secret: valid while they are). Nothing for other schemes.
 */
void br_upload_secret_credentials(const br_upload_item_t *item, const br_upload_secret_t *secret,
                                  br_http_request_t *req);

/* Replaces every occurrence of the token (and of its basic-auth encoding)
 * in the NUL-terminated text (a buffer of cap bytes) with BR_UPLOAD_REDACTED,
 * truncating to fit. */
void br_upload_secret_redact(const br_upload_secret_t *secret, char *text, size_t cap);

/* Wipes and frees the token. */
void br_upload_secret_free(br_upload_secret_t *secret);

#endif
