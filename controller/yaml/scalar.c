#include "yaml/scalar.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SCALAR_KIB 1024ULL

bool br_scalar_is_null(const br_yaml_node_t *node)
{
	if (node->kind != BR_YAML_SCALAR || !node->plain)
		return false;
	static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
	for (size_t i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++) {
		if (strcmp(node->text, nulls[i]) == 0)
			return true;
	}
	return false;
}

static int digit_value(char c, unsigned base)
{
	int v;
	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return (unsigned)v < base ? v : -1;
}

bool br_scalar_uint(const char *text, bool with_suffix, uint64_t *out)
{
	unsigned base = 10U;
	const char *p = text;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16U;
		p += 2;
	}
	uint64_t v = 0;
	size_t digits = 0;
	for (; digit_value(*p, base) >= 0; p++, digits++) {
		uint64_t d = (uint64_t)digit_value(*p, base);
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	if (digits == 0)
		return false;
	if (with_suffix && *p != '\0') {
		static const char suffixes[] = "KMG";
		const char *s = strchr(suffixes, *p);
		if (s == NULL || p[1] != '\0')
			return false;
		for (const char *k = suffixes; k <= s; k++) {
			if (v > UINT64_MAX / SCALAR_KIB)
				return false;
			v *= SCALAR_KIB;
		}
		p++;
	}
	if (*p != '\0')
		return false;
	*out = v;
	return true;
}

bool br_scalar_number(const char *text, double *out)
{
	/* strtod also takes hex, inf, nan and leading spaces: allow only the
	 * decimal shape [-]digits[.digits][e[+-]digits]. */
	const char *p = text;
	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	for (const char *q = p; *q != '\0'; q++) {
		if (!isdigit((unsigned char)*q) && strchr(".eE+-", *q) == NULL)
			return false;
	}
	char *end = NULL;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v))
		return false;
	*out = v;
	return true;
}

bool br_scalar_bool(const char *text, bool *out)
{
	if (strcmp(text, "true") == 0) {
		*out = true;
		return true;
	}
	if (strcmp(text, "false") == 0) {
		*out = false;
		return true;
	}
	return false;
}
