/*
 * One measurement as `benchrack measure` and a suite's breakpoint entries
 * ask for it (measure/measure_run.h), on any board: the options checked and
 * the ELF read first, then the runner (run/runner.h) reaches the board,
 * loads the ELF as the policy says, resets, starts the counter; the samples
 * are taken and the counting and wrap checks applied (run/run_checks.h).
 */
#ifndef BENCHRACK_RUN_RUN_MEASURE_H
#define BENCHRACK_RUN_RUN_MEASURE_H

#include <stdbool.h>

#include "common/error.h"
#include "config/board.h"
#include "debug/endpoint.h"
#include "measure/measure_run.h"
#include "run/image_load.h"

/*
 * Takes the measurement opts describes on the board ep reaches (QEMU's
 * kernel set to opts->elf_path when ep names none) with load policy `load`,
 * into *out (free with br_measure_raw_free, also after an error: what
 * finished before is kept). Usage errors come before anything starts.
 * A counter that never advanced is BR_ERR_TARGET; samples whose host time
 * could hide a wrap come back marked not measured. With timeout_is_failure
 * (a suite's entry), a region that did not finish on a board that still
 * answers is "did not finish within N s" with where the core was
 * (run/run_checks.h), else the timeout's own words and where the core was;
 * BR_ERR_TIMEOUT either way, BR_ERR_INFRA when the host was starved.
 * hooks (may be NULL) hear how a load goes.
 */
br_status_t br_run_measure(const br_measure_options_t *opts, const br_endpoint_t *ep,
                           br_board_load_t load, bool timeout_is_failure,
                           const br_image_hooks_t *hooks, br_measure_raw_t *out, br_error_t *err);

#endif
