#include "results/format.h"

#include <string.h>

static const br_format_t formats[] = {
    {"json", br_format_json_write},   {"csv", br_format_csv_write},
    {"junit", br_format_junit_write}, {"markdown", br_format_markdown_write},
    {"bmf", br_format_bmf_write},     {"lava", br_format_lava_write},
};

const br_format_t *br_format_find(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	}
	return NULL;
}
