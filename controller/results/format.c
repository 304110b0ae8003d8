#include "results/format.h"

#include <string.h>

#define FORMAT_ROW(id, name, writer) [BR_FORMAT_##id] = {name, br_format_##writer##_write},
static const br_format_t formats[BR_FORMAT_COUNT] = {BR_FORMAT_LIST(FORMAT_ROW)};

const br_format_t *br_format_find(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	}
	return NULL;
}

const br_format_t *br_format_get(br_format_id_t id)
{
	return &formats[id];
}
