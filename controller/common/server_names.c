#include "common/server_names.h"

#include <stddef.h>

#define FLAVOUR_NAME_ROW(id) BR_FLAVOUR_##id##_NAME,
const char *const br_flavour_name_list[] = {BR_FLAVOUR_LIST(FLAVOUR_NAME_ROW) NULL};

/* ", qemu, openocd, ...": the list starts after the first ", ". */
#define FLAVOUR_JOIN_ROW(id) ", " BR_FLAVOUR_##id##_NAME
static const char flavours_joined[] = BR_FLAVOUR_LIST(FLAVOUR_JOIN_ROW);

const char *br_flavour_name_joined(void)
{
	return flavours_joined + 2;
}

#define KIND_NAME_ROW(id, name) name,
const char *const br_server_kind_names[] = {BR_SERVER_KIND_LIST(KIND_NAME_ROW) NULL};
