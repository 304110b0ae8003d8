/*
 * A suite entry that measures unmodified firmware (an ELF with from/to or
 * function): the measurement engine's breakpoint mode (measure/measure_run.h)
 * on the suite's board, summarized the way `benchrack measure` summarizes it
 * (cli/measure_report.h), kept as one bench record: the raw figures with the
 * calibration (what measuring itself costs) beside them, the deepest stack
 * when painted, and "not run" with the reason when a figure cannot be stood
 * behind.
 */
#ifndef BENCHRACK_CLI_ELF_ENTRY_H
#define BENCHRACK_CLI_ELF_ENTRY_H

#include <stdint.h>

#include "common/error.h"
#include "config/board.h"
#include "config/suite.h"
#include "results/record.h"

typedef struct br_elf_entry_options {
	const br_board_t *board;
	const br_suite_t *suite;
	const br_suite_bench_t *entry;
	const char *qemu_program;   /* overrides the board's, or NULL */
	uint32_t iterations, warmup;
	int timeout_ms;
} br_elf_entry_options_t;

/*
 * Measures o->entry into out (its name, mode, elf and budgets already set by
 * the caller). Boards benchrack cannot reach for breakpoint mode yet
 * (launched OpenOCD, serial probes) and samples that may hide a counter wrap
 * leave out NOT_RUN with the reason and return BR_OK; the engine's errors
 * (a symbol not in the ELF, a server that died) are returned as they are.
 */
br_status_t br_elf_entry_measure(const br_elf_entry_options_t *o, br_bench_record_t *out,
				 br_error_t *err);

#endif
