#include "debug/flavour.h"

#include <stddef.h>
#include <string.h>

#define FLAVOUR_ROW(id, name_, description_, ...)                                                  \
	[BR_FLAVOUR_##id] = {.name = name_, .description = description_, __VA_ARGS__},
static const br_flavour_t flavours[] = {BR_FLAVOUR_ROWS(FLAVOUR_ROW)};

#define FLAVOUR_NAME_ROW(id, name_, ...) name_,
const char *const br_flavour_name_list[] = {BR_FLAVOUR_ROWS(FLAVOUR_NAME_ROW) NULL};

/* ", qemu, openocd, ...": the list starts after the first ", ". */
#define FLAVOUR_JOIN_ROW(id, name_, ...) ", " name_
static const char flavours_joined[] = BR_FLAVOUR_ROWS(FLAVOUR_JOIN_ROW);

#define FLAVOUR_COUNT (sizeof(flavours) / sizeof(flavours[0]))
_Static_assert(FLAVOUR_COUNT == BR_FLAVOUR_COUNT,
               "a row in flavours[] for each BR_FLAVOUR_LIST id");

const br_flavour_t *br_flavour_find(const char *name)
{
	for (size_t i = 0; i < FLAVOUR_COUNT; i++) {
		if (strcmp(flavours[i].name, name) == 0)
			return &flavours[i];
	}
	return NULL;
}

const br_flavour_t *br_flavour_get(br_flavour_id_t id)
{
	return &flavours[id];
}

const br_flavour_t *br_flavour_qemu(void)
{
	return &flavours[BR_FLAVOUR_QEMU];
}

const br_flavour_t *br_flavour_openocd(void)
{
	return &flavours[BR_FLAVOUR_OPENOCD];
}

const br_flavour_t *br_flavour_generic(void)
{
	return &flavours[BR_FLAVOUR_GENERIC];
}

size_t br_flavour_count(void)
{
	return FLAVOUR_COUNT;
}

const br_flavour_t *br_flavour_at(size_t i)
{
	return i < FLAVOUR_COUNT ? &flavours[i] : NULL;
}

const char *br_flavour_names(void)
{
	return flavours_joined + 2;
}
