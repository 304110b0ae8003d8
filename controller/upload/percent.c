#include "upload/percent.h"

static bool unreserved(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~';
}

void br_percent_write(FILE *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		if (unreserved(*p)) {
			fputc(*p, out);
		} else {
			fputc('%', out);
			fputc(hex[*p >> 4], out);
			fputc(hex[*p & 0x0FU], out);
		}
	}
}

bool br_percent_is_plain(const char *s)
{
	if (*s == '\0')
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		if (!unreserved(*p))
			return false;
	}
	return true;
}
