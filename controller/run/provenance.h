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

/*
 * One firmware's provenance into *out: path, build-id (or, for an ELF without
 * one, the SHA-256 of the file), toolchain, text/data/bss, and the git commit
 * as br_run_provenance_fill finds it. BR_ERR_INPUT for an ELF that cannot be
 * opened or read.
 */
br_status_t br_run_provenance_firmware(const char *elf_path, const char *commit,
                                       br_firmware_info_t *out, br_error_t *err);

/* Time, version and host for a run with no firmware of its own (a suite whose
 * entries name several ELFs: each bench carries its own); rec->no_firmware. */
void br_run_provenance_fill_none(br_run_record_t *rec);

/* The provenance that needs no ELF of the target (the host bench program):
 * path, the program's SHA-256 (none when it does not read), git commit (as
 * above), time, version and host. */
void br_run_provenance_fill_program(br_run_record_t *rec, const char *path, const char *commit);

#endif
