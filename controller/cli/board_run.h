/*
 * One board's share of `benchrack run` and `check`: its run record written
 * first (results/runs), the suite firmware's benches measured in stub batch
 * mode and the entries for unmodified firmware at breakpoints, each bench
 * kept on disk as it finishes; then, for check, the comparison with the
 * board's baseline and the gate; and the baseline written when asked.
 */
#ifndef BENCHRACK_CLI_BOARD_RUN_H
#define BENCHRACK_CLI_BOARD_RUN_H

#include <stdbool.h>

#include "cli/execute.h"
#include "common/error.h"
#include "config/board.h"
#include "config/suite.h"
#include "results/diff.h"
#include "results/gate.h"
#include "results/record.h"

#define BR_BOARD_RUN_PATH_BYTES 1024U

/* One board's work and what came of it. */
typedef struct br_board_run {
	br_board_t board;               /* loaded by the caller */
	br_run_record_t record;
	char run_path[BR_BOARD_RUN_PATH_BYTES];
	bool has_run_path;              /* the record is on disk there */
	char baseline_path[BR_BOARD_RUN_PATH_BYTES];
	bool compared;                  /* diff holds the comparison with the baseline */
	br_diff_t diff;
	bool gated;                     /* gate holds check's findings */
	br_gate_t gate;
	br_status_t status;             /* BR_OK, or what stopped it (failure says why) */
	br_error_t failure;
} br_board_run_t;

/*
 * Does everything for run->board with settings s, suite (NULL for a
 * firmware without a suite file) and the suite firmware elf. Never prints
 * the error: run->status and run->failure say it; a run that started is on
 * disk whatever happened.
 */
void br_board_run_execute(const br_cli_settings_t *s, const br_suite_t *suite, const char *elf,
			  br_board_run_t *run);

/*
 * Compares run->record (measured, or read back from its run file) with the
 * board's baseline, as check does (settings s: results_dir, baseline_path),
 * and applies the gate: run->diff, run->gate. BR_ERR_INPUT for a baseline
 * that cannot be read or does not fit.
 */
br_status_t br_board_run_gate(const br_cli_settings_t *s, br_board_run_t *run, br_error_t *err);

/* Frees what the run and its board hold. */
void br_board_run_free(br_board_run_t *run);

#endif
