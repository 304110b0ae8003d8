/*
 * Handing a board the runner opened to gdb (`benchrack gdb`): the
 * breakpoint locations named, resolved in the ELF as `measure` resolves
 * them; where gdb connects; and the debugger run to its end, owning the
 * terminal meanwhile (its ^C interrupts the target, not benchrack).
 */
#ifndef BENCHRACK_RUN_GDB_HANDOFF_H
#define BENCHRACK_RUN_GDB_HANDOFF_H

#include <stddef.h>

#include "common/error.h"
#include "measure/location.h"
#include "run/runner.h"

#define BR_GDB_MAX_BREAKS 2U
#define BR_GDB_TARGET_BYTES 320U
#define BR_GDB_EXIT_NOT_STARTED 127

/* Resolves the non-NULL of the BR_GDB_MAX_BREAKS names in elf_path into
 * breaks, in order; *count of them. */
br_status_t br_gdb_breaks_resolve(const char *elf_path, const char *const *names,
                                  br_location_t *breaks, size_t *count, br_error_t *err);

/* Where gdb connects to r: a server r launched on loopback, else the
 * endpoint's own host:port or serial device. */
void br_gdb_target(const br_runner_t *r, char *buf, size_t cap);

typedef struct br_gdb_launch {
	const char *program; /* the debugger, e.g. gdb-multiarch */
	const char *elf;
	const char *target; /* br_gdb_target */
	const br_location_t *breaks;
	size_t break_count;
	char **extra_args; /* after benchrack's own (e.g. -batch -ex continue) */
	int extra_count;
} br_gdb_launch_t;

/* Runs the debugger to its end; returns its exit code (128 + signal when
 * killed), or BR_GDB_EXIT_NOT_STARTED with err set (BR_ERR_INFRA) when it
 * could not be started. */
int br_gdb_run(const br_gdb_launch_t *g, br_error_t *err);

#endif
