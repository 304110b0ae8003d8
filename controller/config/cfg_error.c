#include "config/cfg_error.h"

#include <stdarg.h>
#include <stdio.h>

/* Copies text into out (cap bytes) with control characters escaped. */
static void one_line(const char *text, char *out, size_t cap)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
		char esc[8];
		const char *piece = esc;
		if (*p == '\n')
			piece = "\\n";
		else if (*p == '\r')
			piece = "\\r";
		else if (*p == '\t')
			piece = "\\t";
		else if (*p < 0x20U || *p == 0x7FU)
			snprintf(esc, sizeof(esc), "\\x%02x", (unsigned)*p);
		else {
			esc[0] = (char)*p;
			esc[1] = '\0';
		}
		for (; *piece != '\0' && n + 1U < cap; piece++)
			out[n++] = *piece;
	}
	out[n] = '\0';
}

br_status_t br_cfg_error(br_error_t *err, const char *file, br_yaml_mark_t mark, const char *fmt,
			 ...)
{
	char what[BR_ERROR_MESSAGE_BYTES];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	char line[BR_ERROR_MESSAGE_BYTES];
	one_line(what, line, sizeof(line));
	char where[BR_ERROR_MESSAGE_BYTES / 4U];
	one_line(file, where, sizeof(where));
	return br_error_set(err, BR_ERR_INPUT, "%s:%u:%u: %s", where, mark.line, mark.column, line);
}
