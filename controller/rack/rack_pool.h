/*
 * Workers as processes: one forked child per job, each in its own process
 * group (so that a server it launched goes with it), at most a bounded
 * number of "heavy" jobs at once (emulated boards each need a core) and any
 * number of light ones (a real board's probe does the work). A child talks
 * to the parent through a pipe, one line per event; the parent hands each
 * line and each child's end to callbacks. Nothing here prints.
 */
#ifndef BENCHRACK_RACK_RACK_POOL_H
#define BENCHRACK_RACK_RACK_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

#define BR_RACK_POOL_LINE_BYTES 2048U

/* The job's body, run in the child: writes event lines to fd, returns the
 * child's exit code. */
typedef int (*br_rack_pool_job_fn)(void *ctx, size_t index, int fd);
/* A line (without its newline) came from job index. */
typedef void (*br_rack_pool_line_fn)(void *ctx, size_t index, const char *line);
/* Job index ended: its exit code, or -signal when a signal ended it. */
typedef void (*br_rack_pool_done_fn)(void *ctx, size_t index, int code);
/* Called about every tick_ms while jobs run (for a live view), or NULL. */
typedef void (*br_rack_pool_tick_fn)(void *ctx);

typedef struct br_rack_pool {
	size_t count;         /* jobs */
	const bool *heavy;    /* per job: counts against heavy_limit */
	unsigned heavy_limit; /* heavy jobs at once (at least 1) */
	int job_timeout_ms;   /* a job running longer is killed (0: never) */
	int tick_ms;
	br_rack_pool_job_fn job;
	br_rack_pool_line_fn line;
	br_rack_pool_done_fn done;
	br_rack_pool_tick_fn tick;
	void *ctx;     /* for line, done and tick (parent side) */
	void *job_ctx; /* for job (child side) */
} br_rack_pool_t;

/*
 * Runs every job of pool and returns when all have ended. A job that
 * outlives job_timeout_ms has its process group killed (done then sees
 * -SIGKILL). BR_ERR_INFRA when a pipe or a fork fails (jobs already started
 * are waited for first).
 */
br_status_t br_rack_pool_run(const br_rack_pool_t *pool, br_error_t *err);

/* Writes one event line (printf-style; a newline is added) to fd, whole,
 * from a job. */
void br_rack_pool_emit(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
