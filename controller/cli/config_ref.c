#include "cli/config_ref.h"

#include <string.h>
#include <unistd.h>

#include "config/board_locate.h"
#include "run/install_paths.h"

bool br_cli_config_is_name(const char *arg)
{
	return arg[0] != '\0' && !br_config_ref_is_path(arg) && strchr(arg, '.') == NULL &&
	       access(arg, F_OK) != 0;
}

br_status_t br_cli_config_find(const char *kind, const char *arg, char *buf, size_t cap,
                               br_error_t *err)
{
	return br_config_locate_named(kind, arg, br_configs_dir(), buf, cap, err);
}
