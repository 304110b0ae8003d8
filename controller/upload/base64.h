/*
 * Base64 (RFC 4648): the standard alphabet for HTTP basic authentication
 * (RFC 7617), the URL-safe one for Pushgateway grouping labels that are not
 * plain path segments ("/label@base64/<value>"). Always padded with '='.
 */
#ifndef BENCHRACK_UPLOAD_BASE64_H
#define BENCHRACK_UPLOAD_BASE64_H

#include <stdbool.h>
#include <stddef.h>

/* The characters len bytes encode to, without the terminating NUL. */
size_t br_base64_length(size_t len);

/*
 * Encodes len bytes of data into out (cap bytes) with the standard alphabet,
 * or with url_safe the URL and file name safe one ('-' and '_' for '+' and
 * '/'), NUL-terminated. Returns the length written, or 0 with out[0] = '\0'
 * when cap is too small (cap must exceed br_base64_length(len)).
 */
size_t br_base64_encode(const void *data, size_t len, bool url_safe, char *out, size_t cap);

#endif
