/*
 * Where results live under a results directory (results/ by default):
 *   runs/<timestamp>-<board>.json   every run, written first (ignored by git)
 *   baselines/<suite>/<board>.json  the committed baselines, one per suite and board
 *                                   (a run without a suite file: suite "no-suite")
 * Board names become file names character by character; anything but
 * letters, digits, '.', '-' and '_' turns into '_'.
 */
#ifndef BENCHRACK_RESULTS_PATHS_H
#define BENCHRACK_RESULTS_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/*
 * Creates results_dir/runs when missing and writes into out a path there
 * that no file had yet: <UTC yyyymmddThhmmss.mmmZ>-<board>[-N].json (sorted by
 * name is sorted by time), created empty and exclusively (O_EXCL) so that
 * concurrent runs never share one; the caller's atomic write replaces it. BR_ERR_INPUT naming the
 * directory when it cannot be made.
 */
br_status_t br_results_run_path(const char *results_dir, const char *board, char *out, size_t cap,
                                br_error_t *err);

/* The folder of a run without a suite file under baselines/. */
#define BR_RESULTS_NO_SUITE "no-suite"

/*
 * Writes results_dir/baselines/<suite>/<board>.json into out (suite NULL or
 * "": BR_RESULTS_NO_SUITE); with create, also makes the directories
 * (BR_ERR_INPUT when it cannot).
 */
br_status_t br_results_baseline_path(const char *results_dir, const char *suite, const char *board,
                                     bool create, char *out, size_t cap, br_error_t *err);

/* Writes the old layout's results_dir/baselines/<board>.json (one baseline
 * per board, before they were kept per suite) into out. */
br_status_t br_results_old_baseline_path(const char *results_dir, const char *board, char *out,
                                         size_t cap, br_error_t *err);

#endif
