#include "upload/retry.h"

#define HTTP_SUCCESS_FIRST 200L
#define HTTP_SUCCESS_LAST 299L
#define HTTP_REQUEST_TIMEOUT 408L
#define HTTP_TOO_MANY_REQUESTS 429L
#define HTTP_SERVER_ERROR_FIRST 500L
#define HTTP_SERVER_ERROR_LAST 599L
#define XORSHIFT_MULTIPLIER 0x2545F4914F6CDD1DULL
#define RANDOM_SHIFT 32

br_upload_verdict_t br_upload_classify(br_http_failure_t failure, long status)
{
	switch (failure) {
	case BR_HTTP_OK:
		break;
	case BR_HTTP_CONNECT:
	case BR_HTTP_TIMEOUT:
	case BR_HTTP_CONNECTION:
		return BR_UPLOAD_RETRY;
	case BR_HTTP_TLS:
	case BR_HTTP_LOCAL:
		return BR_UPLOAD_STUCK;
	}
	if (status >= HTTP_SUCCESS_FIRST && status <= HTTP_SUCCESS_LAST)
		return BR_UPLOAD_DELIVERED;
	if (status == HTTP_REQUEST_TIMEOUT || status == HTTP_TOO_MANY_REQUESTS ||
	    (status >= HTTP_SERVER_ERROR_FIRST && status <= HTTP_SERVER_ERROR_LAST))
		return BR_UPLOAD_RETRY;
	return BR_UPLOAD_REJECT;
}

unsigned br_upload_backoff_ms(unsigned attempt, unsigned initial_ms, unsigned max_ms,
                              uint32_t random)
{
	uint64_t d = initial_ms;
	for (unsigned i = 1; i < attempt && d < max_ms; i++)
		d *= 2U;
	if (d > max_ms)
		d = max_ms;
	uint64_t half = d / 2U;
	return (unsigned)(half + (uint64_t)random % (d - half + 1U));
}

uint32_t br_upload_random(uint64_t *state)
{
	uint64_t x = *state != 0 ? *state : 1U;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return (uint32_t)((x * XORSHIFT_MULTIPLIER) >> RANDOM_SHIFT);
}
