#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/escape.h"

void br_error_clear(br_error_t *err)
{
	if (err == NULL)
		return;
	err->status = BR_OK;
	err->message[0] = '\0';
}

br_status_t br_error_copy(br_error_t *err, const br_error_t *from)
{
	if (err != NULL)
		*err = *from;
	return from->status;
}

br_status_t br_error_set(br_error_t *err, br_status_t status, const char *fmt, ...)
{
	if (err == NULL)
		return status;
	char raw[BR_ERROR_MESSAGE_BYTES];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* Messages quote files, ELFs and servers: one line, nothing a terminal obeys. */
	br_escape_text(raw, err->message, sizeof(err->message));
	err->status = status;
	return status;
}

br_status_t br_error_prefix(br_error_t *err, const char *fmt, ...)
{
	if (err == NULL)
		return BR_ERR_INFRA;
	char raw[BR_ERROR_MESSAGE_BYTES];
	char prefix[BR_ERROR_MESSAGE_BYTES];
	char old[BR_ERROR_MESSAGE_BYTES];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	br_escape_text(raw, prefix, sizeof(prefix));
	memcpy(old, err->message, sizeof(old));
	/* prefix + ": " + old, cut to fit: assembled by hand so truncation is deliberate. */
	size_t cap = sizeof(err->message) - 1U;
	size_t n = strnlen(prefix, cap);
	memcpy(err->message, prefix, n);
	static const char sep[] = ": ";
	for (size_t i = 0; sep[i] != '\0' && n < cap; i++)
		err->message[n++] = sep[i];
	size_t rest = strnlen(old, sizeof(old) - 1U);
	if (rest > cap - n)
		rest = cap - n;
	memcpy(err->message + n, old, rest);
	err->message[n + rest] = '\0';
	return err->status;
}

int br_status_exit_code(br_status_t status)
{
	switch (status) {
	case BR_OK:
		return 0;
	case BR_ERR_REGRESSION:
		return 1;
	case BR_ERR_USAGE:
	case BR_ERR_INPUT:
		return 2;
	case BR_ERR_INFRA:
	case BR_ERR_TIMEOUT:
	case BR_ERR_PROTOCOL:
	case BR_ERR_TARGET:
		return 3;
	}
	return 3;
}
