/*
 * Where a result came from, filled into a run record before anything is
 * measured: the firmware (path, GNU build-id, text/data/bss, the toolchain
 * from .comment, the git commit it was built from where known), this
 * benchrack and the host, and the time.
 */
#ifndef BENCHRACK_RUN_PROVENANCE_H
#define BENCHRACK_RUN_PROVENANCE_H

#include "common/error.h"
#include "results/record.h"

/*
 * Opens elf_path and fills rec's firmware fields, timestamp, host and
 * version. The git commit is commit when not NULL, else $BENCHRACK_GIT_COMMIT,
 * else `git rev-parse HEAD` in the ELF's directory (with "-dirty" when
 * tracked files differ), else "". An ELF that cannot be opened is the ELF
 * layer's BR_ERR_INPUT.
 */
br_status_t br_run_provenance_fill(br_run_record_t *rec, const char *elf_path, const char *commit,
				   br_error_t *err);

/* The provenance that needs no ELF of the target (the host bench program):
 * path, git commit (as above), time, version and host. */
void br_run_provenance_fill_program(br_run_record_t *rec, const char *path, const char *commit);

#endif
