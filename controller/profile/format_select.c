/* Choosing a profile's output format by name (format.h). */
#include <string.h>

#include "profile/format.h"

#define FORMAT_NAME_ROW(id, name) name,
static const char *const format_names[] = {BR_PROFILE_FORMAT_LIST(FORMAT_NAME_ROW)};
#undef FORMAT_NAME_ROW

bool br_profile_format_find(const char *name, br_profile_format_t *out)
{
	for (size_t i = 0; i < BR_PROFILE_FORMAT_COUNT; i++)
		if (strcmp(name, format_names[i]) == 0) {
			*out = (br_profile_format_t)i;
			return true;
		}
	return false;
}

const char *br_profile_format_names(void)
{
#define FORMAT_JOIN_ROW(id, name) ", " name
	static const char joined[] = BR_PROFILE_FORMAT_LIST(FORMAT_JOIN_ROW);
#undef FORMAT_JOIN_ROW
	return joined + 2; /* past the first ", " */
}

void br_profile_write(FILE *out, br_profile_format_t f, const br_profile_t *p, const char *version)
{
	switch (f) {
	case BR_PROFILE_FORMAT_FOLDED:
		br_profile_write_folded(out, p);
		break;
	case BR_PROFILE_FORMAT_SPEEDSCOPE:
		br_profile_write_speedscope(out, p, version);
		break;
	case BR_PROFILE_FORMAT_JSON:
		br_profile_write_json(out, p, version);
		break;
	case BR_PROFILE_FORMAT_TABLE:
	case BR_PROFILE_FORMAT_COUNT:
	default:
		br_profile_write_table(out, p);
		break;
	}
}
