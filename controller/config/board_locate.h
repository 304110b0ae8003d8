/*
 * Finding a board file from how a suite or the command line names it: a
 * path (it has a '/' or ends in .yaml) is taken as it is, relative to
 * base_dir; a name is looked up as <dir>/<name>.yaml in each search
 * directory in turn.
 */
#ifndef BENCHRACK_CONFIG_BOARD_LOCATE_H
#define BENCHRACK_CONFIG_BOARD_LOCATE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/*
 * Writes the board file for ref into out. base_dir ("" for the current
 * directory) anchors a relative path; dirs (count of them) are searched for
 * a name. BR_ERR_INPUT saying where it looked when there is no such file.
 */
br_status_t br_board_locate(const char *ref, const char *base_dir, const char *const *dirs,
                            size_t count, char *out, size_t cap, br_error_t *err);

/* True when ref names a file by its path (it has a '/' or ends in .yaml or
 * .yml), not a configuration by its name. */
bool br_config_ref_is_path(const char *ref);

/*
 * A suite or rack file by name, as boards are found: ref (not a path) as
 * configs/<kind>s/<ref>.yaml under the current directory (the user's own),
 * then under configs_dir (the installed ones, or the source tree's when run
 * from a build). kind is "suite" or "rack". Writes the file into out and
 * returns BR_OK, or BR_ERR_INPUT naming where it looked.
 */
br_status_t br_config_locate_named(const char *kind, const char *ref, const char *configs_dir,
                                   char *out, size_t cap, br_error_t *err);

#endif
