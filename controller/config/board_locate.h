/*
 * Finding a board file from how a suite or the command line names it: a
 * path (it has a '/' or ends in .yaml) is taken as it is, relative to
 * base_dir; a name is looked up as <dir>/<name>.yaml in each search
 * directory in turn.
 */
#ifndef BENCHRACK_CONFIG_BOARD_LOCATE_H
#define BENCHRACK_CONFIG_BOARD_LOCATE_H

#include <stddef.h>

#include "common/error.h"

/*
 * Writes the board file for ref into out. base_dir ("" for the current
 * directory) anchors a relative path; dirs (count of them) are searched for
 * a name. BR_ERR_INPUT saying where it looked when there is no such file.
 */
br_status_t br_board_locate(const char *ref, const char *base_dir, const char *const *dirs,
			    size_t count, char *out, size_t cap, br_error_t *err);

#endif
