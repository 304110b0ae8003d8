/*
 * The suite's size budgets (`size_budgets:` in the suite file): each
 * symbol's or section's flash and RAM bytes in the suite firmware, read from
 * its ELF (elf/elf_symbol_sizes.h, elf/elf_sizes.h), held to their limits by
 * `check` as findings of its gate (results/gate.h).
 */
#ifndef BENCHRACK_RUN_SIZE_BUDGETS_H
#define BENCHRACK_RUN_SIZE_BUDGETS_H

#include "common/error.h"
#include "config/suite.h"
#include "results/gate.h"

/*
 * Adds to gate a BUDGET finding for every size budget of suite the image at
 * elf exceeds, and a NOT_MEASURED one for each whose symbol or section the
 * image lacks, or all of them when elf is NULL (the gate never passes what
 * it cannot see). A symbol is found by any of its names. Errors: the ELF's,
 * naming it.
 */
br_status_t br_size_budgets_apply(const br_suite_t *suite, const char *elf, br_gate_t *gate,
                                  br_error_t *err);

#endif
