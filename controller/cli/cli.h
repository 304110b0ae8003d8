/*
 * The command line: the only layer that prints to the user or decides the
 * exit code. Each command is one function taking argc/argv after its name.
 */
#ifndef BENCHRACK_CLI_CLI_H
#define BENCHRACK_CLI_CLI_H

#include "common/error.h"

/* `benchrack run [ELF] [options]`: measures a suite firmware's benches. Returns the exit code. */
int br_cli_run(int argc, char **argv);

/* Prints "benchrack: <message>" for a failed status on stderr and returns its exit code. */
int br_cli_report(const br_error_t *err);

#endif
