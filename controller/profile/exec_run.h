/*
 * Running a launched QEMU while its execution log streams in (exec_log.h):
 * the log is a FIFO benchrack makes before QEMU starts (br_exec_fifo_open:
 * QEMU's -D writes to it, -singlestep -d exec,nochain,int), read as the core
 * runs and fed to the counting as it comes. Exact: until the region's first
 * pass ends (then the core is halted); sampled: for the duration. QEMU's
 * execution log exists only where benchrack launches QEMU: a remote server
 * is stepped or halted instead (exact.h, sampler.h).
 */
#ifndef BENCHRACK_PROFILE_EXEC_RUN_H
#define BENCHRACK_PROFILE_EXEC_RUN_H

#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"
#include "profile/exec_log.h"

#define BR_EXEC_FIFO_PATH 96U
#define BR_EXEC_QEMU_ARGS 5U

typedef struct br_exec_fifo {
	char dir[BR_EXEC_FIFO_PATH];
	char path[BR_EXEC_FIFO_PATH + 16U];
	int fd;                              /* read end (held open read-write: never blocks) */
	const char *args[BR_EXEC_QEMU_ARGS]; /* -singlestep -d exec,nochain,int -D PATH */
} br_exec_fifo_t;

/* Makes the FIFO in a temporary directory of its own and opens it; f->args
 * are QEMU's arguments that log to it. */
br_status_t br_exec_fifo_open(br_exec_fifo_t *f, br_error_t *err);

/* Closes and removes it (safe on one that failed to open). */
void br_exec_fifo_close(br_exec_fifo_t *f);

/* What streaming reports, about twice a second (counted so far; may be NULL). */
typedef void (*br_exec_progress_fn)(void *ctx, uint64_t counted, uint64_t instructions);

typedef struct br_exec_run_options {
	br_exec_log_options_t log;
	double duration_s; /* sampled: how long */
	int timeout_ms;    /* exact: the longest silence of the log before it is an error */
	br_exec_progress_fn progress;
	void *progress_ctx;
} br_exec_run_options_t;

/*
 * Resumes the halted target t of the QEMU that logs to f, feeds the log
 * into out (initialised for its mode) until the pass ends (exact) or the
 * duration is over (sampled), and halts t again. Exact: BR_ERR_USAGE when
 * the pass is longer than max_steps (its length said), BR_ERR_TIMEOUT when
 * the log goes silent for timeout_ms before the region starts or ends.
 */
br_status_t br_exec_run(br_target_t *t, br_exec_fifo_t *f, const br_exec_run_options_t *o,
                        br_profile_t *out, br_error_t *err);

#endif
