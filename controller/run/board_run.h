/*
 * One board's share of `benchrack run`, `check` and a rack worker, through
 * the runner (run/runner.h) whatever the board: its run record written first
 * (results/runs), the suite firmware loaded and its benches measured in stub
 * batch mode, then each entry for unmodified firmware at breakpoints, every
 * bench kept on disk as it finishes; samples become statistics and records
 * here, then, for check, the comparison with the board's baseline and the
 * gate; and the baseline written when asked. Never prints: progress,
 * firmware output and notices go through the callbacks in the settings.
 */
#ifndef BENCHRACK_RUN_BOARD_RUN_H
#define BENCHRACK_RUN_BOARD_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "config/board.h"
#include "config/suite.h"
#include "config/upload_config.h"
#include "debug/endpoint.h"
#include "debug/target.h"
#include "results/diff.h"
#include "results/gate.h"
#include "results/record.h"
#include "results/report.h"
#include "run/image_load.h"
#include "run/run_settings.h"

#define BR_BOARD_RUN_PATH_BYTES 1024U
#define BR_HOST_BOARD_NAME "host"

/* One board's work and what came of it. */
typedef struct br_board_run {
	br_board_t board; /* loaded by the caller */
	bool host;        /* --board host: the benches as a host program */
	br_run_record_t record;
	char run_path[BR_BOARD_RUN_PATH_BYTES];
	bool has_run_path; /* the record is on disk there */
	char baseline_path[BR_BOARD_RUN_PATH_BYTES];
	bool compared; /* diff holds the comparison with the baseline */
	br_diff_t diff;
	bool gated; /* gate holds check's findings */
	br_gate_t gate;
	br_status_t status; /* BR_OK, or what stopped it (failure says why) */
	br_error_t failure;
	/* A bench or region that did not finish within its timeout on a board
	 * that still answered: a test failure (exit 1), never retried. */
	bool bench_timed_out;
} br_board_run_t;

/*
 * Does everything for run->board with settings s, suite (NULL for a
 * firmware without a suite file) and the suite firmware elf. Never prints
 * the error: run->status and run->failure say it; a run that started is on
 * disk whatever happened.
 */
void br_board_run_execute(const br_run_settings_t *s, const br_suite_t *suite, const char *elf,
                          br_board_run_t *run);

/*
 * Compares run->record (measured, or read back from its run file) with the
 * board's baseline, as check does (settings s: results_dir, baseline_path),
 * and applies the gate: run->diff, run->gate. BR_ERR_INPUT for a baseline
 * that cannot be read or does not fit.
 */
br_status_t br_board_run_gate(const br_run_settings_t *s, br_board_run_t *run, br_error_t *err);

/* check/run --against: the two firmwares and their commits. */
typedef struct br_ab_sides {
	const char *ref;      /* as given */
	const char *base_elf; /* built at base_commit (run/ab_worktree.h) */
	const char *base_commit;
	const char *head_elf;    /* the firmware being checked */
	const char *head_commit; /* "" when unknown */
	const char *repo;        /* the suite's repository (its top level) */
	const char *worktree;    /* the base commit's worktree, built */
} br_ab_sides_t;

/*
 * check/run --against: base and head measured on the same board in one run,
 * interleaved per bench (base, head, base, head ...), each kept in a run
 * record of its own (results/runs, the base's ending in -base.json) that
 * records both commits; then head->diff compares the head with the base and,
 * for check, head->gate applies the suite's regression limit to it (budgets
 * are limits on figures, which `check` without --against holds). base->board must
 * be a copy of head->board (base->board is not freed by the caller). An entry
 * for unmodified firmware is measured on the base on its ELF's path relative
 * to the repository inside the base's worktree (what the suite's build: made
 * there, or what is committed); where there is none it is measured on the
 * head alone and a notice says why.
 */
void br_board_run_execute_ab(const br_run_settings_t *s, const br_suite_t *suite,
                             const br_ab_sides_t *ab, br_board_run_t *base, br_board_run_t *head);

/* Makes run the host board of `--board host` (BR_HOST_BOARD_NAME): the
 * benches of benches/ as a host program (settings' host_program), timed by
 * CLOCK_MONOTONIC_RAW. */
void br_board_run_host(br_board_run_t *run);

/* What run shows in the outputs (results/report.h): its record and run file,
 * the comparison and the gate when it has them, its own figures. report
 * points into run. */
void br_board_run_report(const br_board_run_t *run, br_report_t *report);

/* Frees what the run and its board hold. */
void br_board_run_free(br_board_run_t *run);

#endif
