/*
 * Errors that point into a file: "file:line:col: what is wrong; expected
 * form", always one line. Text quoted from the file (a key, a value) may hold
 * anything, so control characters in the message are written as escapes
 * (\n, \t, \xNN): one problem, one line, whatever the input.
 */
#ifndef BENCHRACK_YAML_CFG_ERROR_H
#define BENCHRACK_YAML_CFG_ERROR_H

#include "common/error.h"
#include "yaml/yaml_tree.h"

/*
 * Records "file:line:col: message" as BR_ERR_INPUT in err (which may be
 * NULL) and returns BR_ERR_INPUT; "file: message" for a mark of line 0 (a
 * node that has no position: JSON read through results/json_doc.h). Control
 * characters and bytes that are not UTF-8 are escaped (common/escape.h).
 */
br_status_t br_cfg_error(br_error_t *err, const char *file, br_yaml_mark_t mark, const char *fmt,
                         ...) __attribute__((format(printf, 4, 5)));

#endif
