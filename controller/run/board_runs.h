/*
 * Every board of one `run` or `check`, before and after each board's own
 * work (run/board_run.h): which boards (--board, the suite's, or the
 * default), the status of all of them together, and --against's base
 * firmware measured beside each head.
 */
#ifndef BENCHRACK_RUN_BOARD_RUNS_H
#define BENCHRACK_RUN_BOARD_RUNS_H

#include <stddef.h>

#include "common/error.h"
#include "config/suite.h"
#include "run/board_run.h"

#define BR_RUN_DEFAULT_BOARD "qemu-netduinoplus2"
#define BR_RUN_MAX_BOARDS 64U

/* How many boards s and suite (NULL: none) ask for: one with --board or
 * without a suite, else the suite's. */
size_t br_board_runs_wanted(const br_run_settings_t *s, const br_suite_t *suite);

/*
 * Loads the boards into runs[0..*count): --board host as the host board;
 * --board B (or, without a suite, the default board) from configs_dir/boards
 * or as a path; else each board the suite names, looked for in boards/
 * beside the suite, ../boards, then configs_dir/boards. An unknown board is
 * BR_ERR_INPUT pointing where the suite names it; more than
 * BR_RUN_MAX_BOARDS is BR_ERR_INPUT.
 */
br_status_t br_board_runs_load(const br_run_settings_t *s, const br_suite_t *suite,
                               const char *configs_dir, br_board_run_t *runs, size_t *count,
                               br_error_t *err);

/* The status of all boards together: a configuration or input error first
 * (someone must fix a file), then infrastructure, then a bench that did not
 * finish on a board that answers (a test failure); BR_OK when none failed. */
br_status_t br_board_runs_status(const br_board_run_t *runs, size_t count);

/*
 * --against s->against: the firmware at that commit built (or its build
 * reused, said through s->notice), then base and head measured together on
 * each of the count boards (br_board_run_execute_ab), the head being elf,
 * else the board's default firmware (run/install_paths.h). bases (count of them, zeroed) receive
 * the base runs; free them with br_board_runs_free_bases. BR_ERR_USAGE without a suite or on the
 * host board; the build's failure otherwise.
 */
br_status_t br_board_runs_against(const br_run_settings_t *s, const br_suite_t *suite,
                                  const char *elf, br_board_run_t *runs, br_board_run_t *bases,
                                  size_t count, br_error_t *err);

/* For each of the count runs with a run file on disk, in order: its report
 * (br_board_run_report) into reports and its path into files, each unless
 * NULL. Returns how many. */
size_t br_board_runs_reports(const br_board_run_t *runs, size_t count, br_report_t *reports,
                             const char **files);

/* Frees what br_board_runs_against left in bases (not their boards, which
 * are the heads'). */
void br_board_runs_free_bases(br_board_run_t *bases, size_t count);

#endif
