/*
 * The command line: the only layer that prints to the user or decides the
 * exit code. Each command is one function taking argc/argv after its name.
 */
#ifndef BENCHRACK_CLI_CLI_H
#define BENCHRACK_CLI_CLI_H

#include "common/error.h"

/* `benchrack run [SUITE.yaml | ELF] [options]`: measures. Returns the exit code. */
int br_cli_run(int argc, char **argv);

/* `benchrack check SUITE.yaml [options]`: measures and applies budgets and
 * regressions through the exit code. Returns the exit code. */
int br_cli_check(int argc, char **argv);

/* `benchrack diff OLD NEW [options]`: compares two records (a baseline or a
 * run each). Returns the exit code. */
int br_cli_diff(int argc, char **argv);

/* `benchrack probe [where] [options]`: connects to a board and reports its
 * server, core, counters and memory map; exit 3 when it is not healthy.
 * Returns the exit code. */
int br_cli_probe(int argc, char **argv);

/* `benchrack measure ELF WHAT [options]`: one measurement of any firmware (a
 * range or a function at breakpoints, or a stub bench). Returns the exit code. */
int br_cli_measure(int argc, char **argv);

/* `benchrack profile ELF [WHAT] [options]`: an exact or sampled profile with
 * call chains (controller/profile/). Returns the exit code. */
int br_cli_profile(int argc, char **argv);

/* `benchrack upload [RUN.json ...] [options]`: spools records for the
 * dashboards of an upload config and delivers what the spool holds. Returns
 * the exit code. */
int br_cli_upload(int argc, char **argv);

/* `benchrack rack RACK.yaml [options]`: the suites of a rack file on all its
 * boards at once, each locked, probed and retried on infrastructure errors.
 * Returns the exit code (1 any regression, else 3 any infrastructure error). */
int br_cli_rack(int argc, char **argv);

/* `benchrack report -o REPORT.html [options]`: one self-contained HTML page
 * from run records, baselines and rack documents. Returns the exit code. */
int br_cli_report_page(int argc, char **argv);

/* `benchrack gdb ELF [options] [-- GDB-ARGS]`: gdb-multiarch on the board as
 * measure reaches it, with the breakpoints asked for. Returns gdb's exit
 * code, or 2/3 when the board or debugger could not be had. */
int br_cli_gdb(int argc, char **argv);

/* `benchrack selftest`: prove a board's counter (run/selftest.h). */
int br_cli_selftest(int argc, char **argv);

/* Prints "benchrack: <message>" for a failed status on stderr and returns its exit code. */
int br_cli_report(const br_error_t *err);

/* Prints "benchrack CMD: MESSAGE; try 'benchrack CMD --help'" on stderr and
 * returns 2 (a usage error). */
int br_cli_usage_error(const char *cmd, const char *message);

#endif
