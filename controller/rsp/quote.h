/*
 * Quoting a payload for an error message: a bounded prefix, with everything
 * that is not printable ASCII written as \xNN, so a malformed reply from a
 * server can be shown to the user without dumping kilobytes or binary.
 */
#ifndef BENCHRACK_RSP_QUOTE_H
#define BENCHRACK_RSP_QUOTE_H

#include <stddef.h>

/* How many payload bytes a quote shows before it ends in "...". */
#define RSP_QUOTE_MAX_BYTES 48U
/* A buffer that always holds a full quote: each byte may become 4 characters
 * (\xNN), plus the two quote marks, "..." and the NUL. */
#define RSP_QUOTE_BUFFER_BYTES (RSP_QUOTE_MAX_BYTES * 4U + 6U)

/*
 * Writes into out (out_cap bytes, NUL-terminated, truncated to fit) the first
 * RSP_QUOTE_MAX_BYTES bytes of data (len bytes, not necessarily
 * NUL-terminated) between double quotes, escaping '"', '\\' and every byte
 * outside ' '..'~', followed by "..." when data was longer. Returns out.
 */
const char *rsp_quote(const void *data, size_t len, char *out, size_t out_cap);

#endif
