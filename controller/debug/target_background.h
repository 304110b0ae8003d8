/*
 * The core running in the background: where the server allows it (its
 * flavour's background_run_command, debug/flavour.h), a monitor command lets
 * the core run while the RSP session stays halted, so memory reads go on
 * over the debug port while it runs; another monitor command halts it
 * again. For reading registers that sample the running core (DWT_PCSR,
 * profile/pcsr_sampler.h) without stopping it.
 */
#ifndef BENCHRACK_DEBUG_TARGET_BACKGROUND_H
#define BENCHRACK_DEBUG_TARGET_BACKGROUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"

/* The most reads br_target_background_read_u32s sends in one write. */
#define BR_TARGET_BACKGROUND_READS_MAX 8U

/* Whether t's server can let the core run while memory is read. */
bool br_target_background_supported(const br_target_t *t);

/*
 * Lets the halted core t run in the background (the flavour's run command).
 * BR_ERR_USAGE, sending nothing, when the flavour has none; the command's
 * errors otherwise. t's session stays halted: only memory reads and
 * br_target_background_halt are meant to follow.
 */
br_status_t br_target_background_run(br_target_t *t, br_error_t *err);

/* Halts the core br_target_background_run let run (the flavour's halt command). */
br_status_t br_target_background_halt(br_target_t *t, br_error_t *err);

/*
 * Reads the 32-bit word at address n times (1 <= n <=
 * BR_TARGET_BACKGROUND_READS_MAX), back to back: in one write where requests
 * may be pipelined, else one at a time. values[i] gets read i, ok[i] whether
 * the server answered it (false: E nn, counted by the caller as lost). A
 * malformed reply or a lost connection is an error.
 */
br_status_t br_target_background_read_u32s(br_target_t *t, uint32_t address, uint32_t *values,
                                           bool *ok, size_t n, br_error_t *err);

#endif
