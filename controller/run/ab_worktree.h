/*
 * The firmware at another commit, for `check/run --against REF`: the commit
 * REF names in the suite's repository, a git worktree of it (detached, kept
 * under RESULTS/worktrees/<commit> and reused by later runs), and the suite's
 * `build:` command run at its root, once per commit. Never prints: what the
 * build said goes to a log beside the worktree, and its last lines into the
 * error when it fails.
 */
#ifndef BENCHRACK_RUN_AB_WORKTREE_H
#define BENCHRACK_RUN_AB_WORKTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "config/suite.h"

#define BR_AB_COMMIT_BYTES 64U
#define BR_AB_PATH_BYTES 1024U

typedef struct br_ab_firmware {
	char repo[BR_AB_PATH_BYTES];          /* the suite's repository (its top level) */
	char base_commit[BR_AB_COMMIT_BYTES]; /* what REF names */
	char head_commit[BR_AB_COMMIT_BYTES]; /* the repository's HEAD ("" when unknown) */
	char worktree[BR_AB_PATH_BYTES];
	char elf[BR_AB_PATH_BYTES]; /* the firmware built at base_commit */
	bool reused;                /* built by an earlier run, not this one */
	double build_seconds;       /* this run's build (0 when reused) */
} br_ab_firmware_t;

/*
 * Fills *out for suite and ref: resolves ref in the git repository holding
 * the suite file, adds (or reuses) the worktree under cache_dir and builds
 * it with the suite's build: section unless a build of that commit already
 * finished there. BR_ERR_INPUT for a suite without build: or a ref git does
 * not know; BR_ERR_INFRA for git failing or the build failing (its last
 * lines quoted, the log's path named) or not yielding the firmware.
 */
br_status_t br_ab_firmware_prepare(const br_suite_t *suite, const char *ref, const char *cache_dir,
                                   br_ab_firmware_t *out, br_error_t *err);

#endif
