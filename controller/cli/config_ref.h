/*
 * A suite or rack named on the command line by its name, as boards are
 * (`benchrack run default`, `benchrack rack qemu-lab`): a name is found in
 * the user's configs/ first, then in the installed ones (config/board_locate.h).
 */
#ifndef BENCHRACK_CLI_CONFIG_REF_H
#define BENCHRACK_CLI_CONFIG_REF_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/* True when arg is a configuration's name (no '/', no '.', and no file of
 * that name here), not a path. */
bool br_cli_config_is_name(const char *arg);

/* The file of the kind ("suite", "rack") named arg into buf (cap bytes).
 * Errors: not found, saying where it looked. */
br_status_t br_cli_config_find(const char *kind, const char *arg, char *buf, size_t cap,
                               br_error_t *err);

#endif
