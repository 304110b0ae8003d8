#include "rsp/request.h"

#include <string.h>

static bool starts_with(const char *payload, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(payload, prefix, n) == 0;
}

/* Queries whose answers only read state (GDB manual, "General Query Packets"). */
static const char *const replayable_queries[] = {
    "qCRC:",        "qSupported", "qAttached", "qC",       "qfThreadInfo",
    "qsThreadInfo", "qOffsets",   "qSymbol::", "qTStatus",
};

bool rsp_request_is_replayable(const char *payload, size_t len)
{
	if (len == 0U)
		return false;
	switch (payload[0]) {
	case 'm': /* read memory */
	case 'x': /* read memory, binary */
	case 'p': /* read one register */
	case 'g': /* read all registers */
	case 'M': /* write memory */
	case 'X': /* write memory, binary */
	case 'P': /* write one register */
	case 'G': /* write all registers */
	case 'Z': /* "Implementation note: ... must be idempotent" */
	case 'z':
	case 'H': /* select a thread */
		return true;
	case 'q':
		if (starts_with(payload, len, "qXfer:") && len >= 6U) {
			const char *colon = memchr(payload + 6, ':', len - 6U);
			return colon != NULL &&
			       starts_with(colon, len - (size_t)(colon - payload), ":read:");
		}
		for (size_t i = 0; i < sizeof(replayable_queries) / sizeof(replayable_queries[0]);
		     i++) {
			if (starts_with(payload, len, replayable_queries[i]))
				return true;
		}
		return false;
	default:
		return false;
	}
}

bool rsp_request_resumes(const char *payload, size_t len)
{
	if (len == 0U)
		return false;
	switch (payload[0]) {
	case 'c':
	case 's':
	case 'C':
	case 'S':
	case 'F':
		return true;
	case 'v':
		return starts_with(payload, len, "vCont;");
	default:
		return false;
	}
}
