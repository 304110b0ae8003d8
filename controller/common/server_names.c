#include "common/server_names.h"

#include <stddef.h>

#define KIND_NAME_ROW(id, name) name,
const char *const br_server_kind_names[] = {BR_SERVER_KIND_LIST(KIND_NAME_ROW) NULL};
