#include "yaml/cfg_error.h"

#include <stdarg.h>
#include <stdio.h>

#include "common/escape.h"

br_status_t br_cfg_error(br_error_t *err, const char *file, br_yaml_mark_t mark, const char *fmt,
                         ...)
{
	char what[BR_ERROR_MESSAGE_BYTES];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	char line[BR_ERROR_MESSAGE_BYTES];
	br_escape_text(what, line, sizeof(line));
	char where[BR_ERROR_MESSAGE_BYTES / 4U];
	br_escape_text(file, where, sizeof(where));
	if (mark.line == 0) /* a node without a position (JSON): the key path says where */
		return br_error_set(err, BR_ERR_INPUT, "%s: %s", where, line);
	return br_error_set(err, BR_ERR_INPUT, "%s:%u:%u: %s", where, mark.line, mark.column, line);
}
