/*
 * Baselines belong to a suite on a board: RESULTS/baselines/<suite>/<board>.json
 * (results/paths.h). One is compared only with runs of its own suite, board,
 * counter, unit and clock; one that does not fit is refused, never compared,
 * never replaced without a word. A baseline of the old layout (one per board,
 * RESULTS/baselines/<board>.json) is refused with what to do to move it.
 */
#ifndef BENCHRACK_RESULTS_BASELINE_H
#define BENCHRACK_RESULTS_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "results/record.h"

/*
 * Whether base (read from path) may serve run as its baseline: recorded for
 * the same suite, then the same board, counter, unit and clock
 * (br_diff_check_compatible). BR_ERR_INPUT naming path, both values and what
 * to do otherwise.
 */
br_status_t br_baseline_check_fits(const br_run_record_t *base, const char *path,
                                   const br_run_record_t *run, br_error_t *err);

/*
 * Where run's baseline is under results_dir (its suite and board) into out;
 * *exists says whether a file is there. When none is but the old layout's
 * baselines/<board>.json holds one recorded for this suite (or for no suite
 * it names), BR_ERR_INPUT saying exactly where to move it; an old one of
 * another suite is not this suite's and is left alone.
 */
br_status_t br_baseline_locate(const char *results_dir, const br_run_record_t *run, char *out,
                               size_t cap, bool *exists, br_error_t *err);

/*
 * Writes run, as a baseline (kind baseline, no samples), to
 * results_dir/baselines/<suite>/<board>.json (path into out), atomically. A
 * file already there is replaced only when it is a baseline that fits run
 * (br_baseline_check_fits): its timestamp goes into replaced ("" when there
 * was none); one that does not read or does not fit is BR_ERR_INPUT and is
 * left as it was.
 */
br_status_t br_baseline_write(const char *results_dir, const br_run_record_t *run, char *out,
                              size_t cap, char *replaced, size_t replaced_cap, br_error_t *err);

#endif
