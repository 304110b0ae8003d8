#include "common/counter_kind.h"

#include <string.h>

#define NAME_ROW(id, name) [BR_COUNTER_KIND_##id] = name,
const char *const br_counter_kind_names[BR_COUNTER_KIND_COUNT + 1] = {BR_COUNTER_KIND_LIST(NAME_ROW)
                                                                          NULL};

/* ", dwt, systick, ...": the array starts after the first ", ". */
#define JOIN_ROW(id, name) ", " name
static const char joined[] = BR_COUNTER_KIND_LIST(JOIN_ROW);

const char *br_counter_kind_list(void)
{
	return joined + 2;
}

bool br_counter_kind_find(const char *name, br_counter_kind_id_t *out)
{
	for (unsigned i = 0; i < BR_COUNTER_KIND_COUNT; i++) {
		if (strcmp(br_counter_kind_names[i], name) == 0) {
			*out = (br_counter_kind_id_t)i;
			return true;
		}
	}
	return false;
}
