/*
 * What a rack run found, per board and per suite, classified as lab systems
 * do: pass, regression (a test failure: a regression or a budget), an
 * infrastructure error (server, probe, board, timeout), or not run. The
 * overall exit code: 1 when any board regressed, else 3 when any had an
 * infrastructure error or did not run, else 0.
 */
#ifndef BENCHRACK_RACK_RACK_RESULT_H
#define BENCHRACK_RACK_RACK_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rack/rack_lock.h"

#define BR_RACK_MAX_SUITES 16U
#define BR_RACK_MAX_ATTEMPTS 11U /* retries + 1 */
#define BR_RACK_REASON_BYTES 512U
#define BR_RACK_PATH_BYTES 1024U

typedef enum br_rack_outcome {
	BR_RACK_NOT_RUN,
	BR_RACK_PASS,
	BR_RACK_REGRESSION,
	BR_RACK_INFRA,
} br_rack_outcome_t;

/* One try that ended in an infrastructure error: why. */
typedef struct br_rack_attempt {
	char reason[BR_RACK_REASON_BYTES];
} br_rack_attempt_t;

typedef struct br_rack_suite_result {
	char suite[BR_RACK_PATH_BYTES]; /* the suite file */
	br_rack_outcome_t outcome;
	char reason[BR_RACK_REASON_BYTES];              /* what was wrong, when not pass */
	char run_path[BR_RACK_PATH_BYTES];              /* the last attempt's run record, or "" */
	br_rack_attempt_t failed[BR_RACK_MAX_ATTEMPTS]; /* attempts that failed, in order */
	size_t failed_count;
	size_t attempts; /* tries made */
} br_rack_suite_result_t;

typedef struct br_rack_board_result {
	char name[64];
	char board_path[BR_RACK_PATH_BYTES];
	bool probed, healthy;
	char probe_reason[BR_RACK_REASON_BYTES];
	br_rack_attempt_t probe_failed[BR_RACK_MAX_ATTEMPTS];
	size_t probe_failed_count;
	bool locked;               /* the lock was held */
	br_rack_lock_owner_t lock; /* our record */
	int64_t released_ms;
	bool took_over;
	br_rack_lock_owner_t stale; /* the dead owner's record */
	br_rack_suite_result_t suites[BR_RACK_MAX_SUITES];
	size_t suite_count;
	int64_t started_ms, ended_ms; /* wall clock */
} br_rack_board_result_t;

/* "not run", "pass", "regression", "infrastructure error". */
const char *br_rack_outcome_name(br_rack_outcome_t outcome);

/* The same as one word: "not-run", "pass", "regression", "infra". */
const char *br_rack_outcome_key(br_rack_outcome_t outcome);

/* The outcome called key (br_rack_outcome_key); false when unknown. */
bool br_rack_outcome_parse(const char *key, br_rack_outcome_t *out);

/* The board's outcome: regression before infrastructure error before not
 * run before pass, over its suites; a board with no suites (a health check
 * only) passes when healthy, is an infrastructure error when not. */
br_rack_outcome_t br_rack_board_outcome(const br_rack_board_result_t *board);

/* The exit code of the whole rack (see above). */
int br_rack_exit_code(const br_rack_board_result_t *boards, size_t count);

/*
 * Marks every suite of board the worker did not report on (still not run,
 * with no reason) an infrastructure error saying how the worker ended:
 * code is its exit code, or minus the signal that stopped it.
 */
void br_rack_board_worker_ended(br_rack_board_result_t *board, int code);

/*
 * Writes the rack document: {"kind": "rack", "schema_version" (results/
 * contract.h), name, exit_code, per board its
 * outcome, health check, lock record (with a stale owner taken over),
 * times, and per suite its outcome, reason, failed attempts and run record}
 * as JSON to out.
 */
void br_rack_document_write(const char *rack_name, const br_rack_board_result_t *boards,
                            size_t count, FILE *out);

#endif
