/*
 * `benchrack run` and `benchrack check`, after their options are parsed:
 * load the suite and its boards (every config error before anything runs),
 * then per board write the run record first, measure, keep each bench as it
 * finishes, compare with the baseline and apply the gate (check), write the
 * baseline when asked, and print or write the outputs.
 */
#ifndef BENCHRACK_CLI_EXECUTE_H
#define BENCHRACK_CLI_EXECUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "run/board_run.h"

/* The settings of run and check: the runner's own (run/board_run.h). */
typedef br_run_settings_t br_cli_settings_t;

/*
 * Runs everything settings describe (the callbacks of s are set here: the
 * progress line, firmware output and notices on stderr, the desk's board
 * lock); returns the process exit code.
 */
int br_cli_execute(const br_cli_settings_t *settings);

/* Sets the callbacks of s that print (progress, firmware output, a load's
 * progress, notices) to the command line's. */
void br_cli_settings_callbacks(br_cli_settings_t *s);

#endif
