/*
 * Where results live under a results directory (results/ by default):
 *   runs/<timestamp>-<board>.json   every run, written first (ignored by git)
 *   baselines/<board>.json          the committed baselines
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
 * concurrent runs never share one; the caller's atomic write replaces it. BR_ERR_INPUT naming the directory when it cannot
 * be made.
 */
br_status_t br_results_run_path(const char *results_dir, const char *board, char *out,
				size_t cap, br_error_t *err);

/*
 * Writes results_dir/baselines/<board>.json into out; with create, also
 * makes the directory (BR_ERR_INPUT when it cannot).
 */
br_status_t br_results_baseline_path(const char *results_dir, const char *board, bool create,
				     char *out, size_t cap, br_error_t *err);

#endif
