#include "debug/xml_attr.h"

#include <string.h>

bool br_xml_attr_get(const char *tag, const char *end, const char *name, char *out, size_t cap)
{
	size_t n = strlen(name);
	for (const char *p = tag; p + n + 2 < end; p++) {
		if ((p == tag || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n') &&
		    memcmp(p, name, n) == 0 && p[n] == '=' &&
		    (p[n + 1] == '"' || p[n + 1] == '\'')) {
			char quote = p[n + 1];
			const char *v = p + n + 2;
			const char *q = memchr(v, quote, (size_t)(end - v));
			if (q == NULL || (size_t)(q - v) >= cap)
				return false;
			memcpy(out, v, (size_t)(q - v));
			out[q - v] = '\0';
			return true;
		}
	}
	return false;
}
