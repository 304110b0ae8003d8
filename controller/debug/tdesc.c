#include "debug/tdesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "debug/xml_attr.h"

void br_tdesc_init(br_tdesc_t *d)
{
	memset(d, 0, sizeof(*d));
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
			if (br_xml_attr_get(p, close, "regnum", num, sizeof(num)))
				regnum = (uint32_t)strtoul(num, NULL, 0);
			d->next_regnum = regnum + 1U;
			if (br_xml_attr_get(p, close, "name", name, sizeof(name))) {
				int i = core_index(name);
				if (i >= 0 && !d->found[i]) {
					d->regnum[i] = regnum;
					d->found[i] = true;
				}
			}
		} else if (strncmp(p, "<xi:include ", 12) == 0 &&
		           d->include_count < BR_TDESC_MAX_INCLUDES) {
			if (br_xml_attr_get(p, close, "href", d->includes[d->include_count],
			                    sizeof(d->includes[0])))
				d->include_count++;
		}
		p = close;
	}
}
