/*
 * One board's worker in `benchrack rack`, run in its own process (forked by
 * rack/rack_pool.h): lock the board, probe it (the health check, retried),
 * then run each suite as `benchrack check` does (run/board_run.h), retrying
 * infrastructure errors up to the board's bound and never a regression.
 * It reports to the parent with event lines on a pipe (rack_worker_event_*)
 * and prints nothing itself: its stdout and stderr go to its log file, and
 * what the runner's callbacks in run_base print lands there too.
 */
#ifndef BENCHRACK_RACK_RACK_WORKER_H
#define BENCHRACK_RACK_RACK_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/rack.h"
#include "config/suite.h"
#include "rack/rack_result.h"
#include "run/board_run.h"

typedef struct br_rack_worker_options {
	const br_rack_t *rack;
	const br_suite_t *const *suites; /* per entry: its suites, loaded, in order */
	const char *results_dir;         /* runs of entry E go to RESULTS/racks/E/runs */
	const char *lock_dir;
	int lock_wait_ms;
	/* What every run starts from: --qemu, --timeout, -n and the callbacks
	 * for firmware output and notices (a bench's progress goes to the
	 * parent; a load's is not shown). */
	const br_run_settings_t *run_base;
	int probe_timeout_ms;
	bool probe; /* the health check first */
} br_rack_worker_options_t;

/* The worker's body for entry index (a br_rack_pool_job_fn with ctx a
 * br_rack_worker_options_t): writes events to fd, returns the exit code
 * (0 pass, 1 regression, 3 infrastructure error). */
int br_rack_worker_run(void *ctx, size_t index, int fd);

/* Where the live view stands for one board (parent side). */
typedef struct br_rack_worker_view {
	char state[32]; /* "waiting", "locking", "probing", "running", "done" */
	char suite[64];
	char bench[64];
	unsigned index, count;
	unsigned attempt;
} br_rack_worker_view_t;

/*
 * Applies one event line from entry's worker to its result (and to view,
 * for the live display). Returns a line worth showing in plain output
 * ("" when none) in note.
 */
void br_rack_worker_event_apply(const char *line, br_rack_board_result_t *result,
                                br_rack_worker_view_t *view, char *note, size_t note_cap);

#endif
