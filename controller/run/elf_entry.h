/*
 * A suite entry that measures unmodified firmware (an ELF with from/to or
 * function): the measurement engine's breakpoint mode (measure/measure_run.h)
 * through the runner on the suite's board, whatever its kind (the ELF loaded
 * over the debug port as the board says), summarized the way `benchrack
 * measure` summarizes it (run/measure_figures.h), kept as one bench record: the raw figures with
 * the calibration (what measuring itself costs) beside them, the deepest stack when painted, and
 * "not run" with the reason when a figure cannot be stood behind.
 */
#ifndef BENCHRACK_RUN_ELF_ENTRY_H
#define BENCHRACK_RUN_ELF_ENTRY_H

#include <stdint.h>

#include "common/error.h"
#include "config/board.h"
#include "config/suite.h"
#include "results/record.h"
#include "run/run_plan.h"
#include "run/run_settings.h"

typedef struct br_elf_entry_options {
	const br_run_settings_t *settings; /* the board's endpoint, callbacks, lock */
	const br_board_t *board;
	const br_run_plan_t *plan;    /* the counter, load policy and stack watermark */
	const br_plan_entry_t *entry; /* the entry with its iterations, warm-up, timeout */
	const char *elf_path; /* the ELF measured: the entry's, or its build at another commit */
} br_elf_entry_options_t;

/*
 * Measures o->entry into out (its name, mode, elf and budgets already set by
 * the caller). Samples that may hide a counter wrap leave out NOT_RUN with
 * the reason and return BR_OK; the engine's errors (a symbol not in the
 * ELF, a server that died, a region that did not finish) are returned as
 * they are.
 */
br_status_t br_elf_entry_measure(const br_elf_entry_options_t *o, br_bench_record_t *out,
                                 br_error_t *err);

#endif
