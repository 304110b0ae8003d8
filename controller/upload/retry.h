/*
 * What to do after one attempt, and how long to wait before the next:
 * - 2xx: delivered;
 * - 408, 429, any 5xx, no connection, a timeout, a broken connection: the
 *   server may take it later: retry, after a capped exponential backoff with
 *   jitter, or after the server's Retry-After when it sent one;
 * - any other status (400, 401, 403, 404, 422, a redirect, ...): the server
 *   will answer the same again: never retried, kept aside for a person;
 * - TLS verification failed, or the request could not even be made (a CA
 *   file missing, a bad URL): not retried in this pass, kept in the spool
 *   (the data is fine; the setup needs fixing).
 */
#ifndef BENCHRACK_UPLOAD_RETRY_H
#define BENCHRACK_UPLOAD_RETRY_H

#include <stdint.h>

#include "upload/http.h"

typedef enum br_upload_verdict {
	BR_UPLOAD_DELIVERED,
	BR_UPLOAD_RETRY,
	BR_UPLOAD_REJECT,
	BR_UPLOAD_STUCK,
} br_upload_verdict_t;

/* The verdict on an attempt that ended with failure and (when failure is
 * BR_HTTP_OK) status. */
br_upload_verdict_t br_upload_classify(br_http_failure_t failure, long status);

/*
 * The wait before retry number attempt (1 after the first failure):
 * d = min(max_ms, initial_ms * 2^(attempt - 1)), then "equal jitter": d/2
 * plus random % (d/2 + 1), so between half the backoff and all of it, never
 * above max_ms.
 */
unsigned br_upload_backoff_ms(unsigned attempt, unsigned initial_ms, unsigned max_ms,
                              uint32_t random);

/* The next number of a xorshift64* generator (state never 0) for jitter. */
uint32_t br_upload_random(uint64_t *state);

#endif
