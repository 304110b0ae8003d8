#include "target/tdesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void br_tdesc_init(br_tdesc_t *d)
{
	memset(d, 0, sizeof(*d));
}

static bool attr(const char *tag, const char *end, const char *name, char *out, size_t cap)
{
	size_t n = strlen(name);
	for (const char *p = tag + 1; p + n + 2 < end; p++) {
		if ((p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n') && memcmp(p, name, n) == 0 &&
		    p[n] == '=' && (p[n + 1] == '"' || p[n + 1] == '\'')) {
			const char *v = p + n + 2;
			const char *q = memchr(v, p[n + 1], (size_t)(end - v));
			if (q == NULL || (size_t)(q - v) >= cap)
				return false;
			memcpy(out, v, (size_t)(q - v));
			out[q - v] = '\0';
			return true;
		}
	}
	return false;
}

/* Index 0..16 of a core register name, or -1. */
static int core_index(const char *name)
{
	static const char *const aliases[][2] = {
	    {"r13", "sp"},
	    {"r14", "lr"},
	    {"r15", "pc"},
	    {"xpsr", "cpsr"},
	};
	for (int i = 0; i <= 12; i++) {
		char rn[8];
		snprintf(rn, sizeof(rn), "r%d", i);
		if (strcasecmp(name, rn) == 0)
			return i;
	}
	for (int i = 0; i < 4; i++) {
		if (strcasecmp(name, aliases[i][0]) == 0 || strcasecmp(name, aliases[i][1]) == 0)
			return 13 + i;
	}
	return -1;
}

void br_tdesc_scan(br_tdesc_t *d, const char *xml, size_t len)
{
	const char *end = xml + len;
	for (const char *p = xml; p + 4 < end; p++) {
		if (*p != '<')
			continue;
		const char *close = memchr(p, '>', (size_t)(end - p));
		if (close == NULL)
			return;
		if (strncmp(p, "<reg ", 5) == 0) {
			char name[32], num[16];
			uint32_t regnum = d->next_regnum;
			if (attr(p, close, "regnum", num, sizeof(num)))
				regnum = (uint32_t)strtoul(num, NULL, 0);
			d->next_regnum = regnum + 1U;
			if (attr(p, close, "name", name, sizeof(name))) {
				int i = core_index(name);
				if (i >= 0 && !d->found[i]) {
					d->regnum[i] = regnum;
					d->found[i] = true;
				}
			}
		} else if (strncmp(p, "<xi:include ", 12) == 0 &&
		           d->include_count < BR_TDESC_MAX_INCLUDES) {
			if (attr(p, close, "href", d->includes[d->include_count],
			         sizeof(d->includes[0])))
				d->include_count++;
		}
		p = close;
	}
}
