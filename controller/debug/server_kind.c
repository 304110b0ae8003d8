#include "debug/server_kind.h"

#include <stdio.h>
#include <string.h>

#define KIND_ROW(id, name_, ...) [BR_SERVER_KIND_##id] = {.name = name_, __VA_ARGS__},
static const br_server_kind_t kinds[] = {BR_SERVER_KIND_ROWS(KIND_ROW)};

#define KIND_NAME_ROW(id, name_, ...) name_,
const char *const br_server_kind_names[] = {BR_SERVER_KIND_ROWS(KIND_NAME_ROW) NULL};

#define KIND_COUNT (sizeof(kinds) / sizeof(kinds[0]))
_Static_assert(KIND_COUNT <= BR_SERVER_KIND_MAX, "room in config/board.c's schema for each kind");

size_t br_server_kind_count(void)
{
	return KIND_COUNT;
}

const br_server_kind_t *br_server_kind_get(br_server_kind_id_t id)
{
	return &kinds[id];
}

const br_server_kind_t *br_server_kind_find(const char *name, br_server_kind_id_t *id)
{
	for (size_t i = 0; i < KIND_COUNT; i++) {
		if (strcmp(kinds[i].name, name) != 0)
			continue;
		if (id != NULL)
			*id = (br_server_kind_id_t)i;
		return &kinds[i];
	}
	return NULL;
}

const char *br_server_kind_name(br_server_kind_id_t id)
{
	return (size_t)id < KIND_COUNT ? kinds[id].name : "?";
}

void br_server_kind_describe(const br_server_kind_t *kind, const br_server_launch_t *opts,
                             char *buf, size_t cap)
{
	if (cap == 0)
		return;
	const char *program = opts->program != NULL ? opts->program : kind->program;
	int n = snprintf(buf, cap, "%s", program != NULL ? program : kind->name);
	for (size_t i = 0; i < BR_SERVER_LAUNCH_PARAMS; i++) {
		const br_server_key_t *key = &kind->keys[i];
		if (key->name == NULL || key->flag == NULL || opts->params[i] == NULL || n < 0 ||
		    (size_t)n >= cap)
			continue;
		n += snprintf(buf + n, cap - (size_t)n, " %s %s", key->flag, opts->params[i]);
	}
}
