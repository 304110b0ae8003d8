/*
 * After one board's run is recorded (board_run_private.h): the comparison
 * with the baseline of its suite on its board, the gate, and the baseline
 * written when asked.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "results/baseline.h"
#include "results/baseline_policy.h"
#include "results/record_read.h"
#include "run/board_run_private.h"

br_status_t br_board_baseline_path(const br_run_settings_t *s, br_board_run_t *run, bool *exists,
                                   br_error_t *err)
{
	if (s->baseline_path != NULL) {
		snprintf(run->baseline_path, sizeof(run->baseline_path), "%s", s->baseline_path);
		*exists = access(run->baseline_path, F_OK) == 0;
		if (!*exists)
			return br_error_set(err, BR_ERR_INPUT, "baseline %s not found",
			                    s->baseline_path);
		return BR_OK;
	}
	return br_baseline_locate(s->results_dir, &run->record, run->baseline_path,
	                          sizeof(run->baseline_path), exists, err);
}

br_status_t br_board_run_gate(const br_run_settings_t *s, br_board_run_t *run, br_error_t *err)
{
	bool exists = false;
	br_status_t st = br_board_baseline_path(s, run, &exists, err);
	if (st != BR_OK)
		return st;
	if (exists) {
		br_run_record_t base;
		st = br_record_read(run->baseline_path, &base, err);
		if (st == BR_OK)
			st = br_baseline_check_fits(&base, run->baseline_path, &run->record, err);
		if (st == BR_OK) {
			br_diff_compute(&base, &run->record, &run->diff);
			run->compared = true;
		}
		br_run_record_free(&base);
		if (st != BR_OK)
			return st;
	}
	br_gate_evaluate(&run->record, run->compared ? &run->diff : NULL, &run->gate);
	run->gated = true;
	return BR_OK;
}

/* What writing the baseline did, said to the user. */
static void baseline_written(const br_run_settings_t *s, const br_board_run_t *run,
                             const char *path, const char *replaced, size_t n_kept,
                             const char *kept, size_t missing)
{
	if (replaced[0] != '\0')
		br_board_notice(s, "%s: baseline written to %s (replacing the one recorded %s)",
		                run->board.name, path, replaced);
	else
		br_board_notice(s, "%s: baseline written to %s", run->board.name, path);
	if (n_kept > 0)
		br_board_notice(s,
		                "%s: kept the old baseline entr%s of %s (not measured in this run)",
		                run->board.name, n_kept == 1 ? "y" : "ies", kept);
	if (missing > 0)
		br_board_notice(s,
		                "%s: %zu bench%s not measured and with no old entry: the baseline "
		                "has no figure for %s",
		                run->board.name, missing, missing == 1 ? "" : "es",
		                missing == 1 ? "it" : "them");
}

void br_board_baseline_write(const br_run_settings_t *s, br_board_run_t *run)
{
	if (run->record.status != BR_RECORD_COMPLETE) {
		br_board_notice(s, "%s: baseline not written: the run did not complete",
		                run->board.name);
		return;
	}
	if (run->gated && (run->gate.failures > 0 || run->gate.not_run > 0)) {
		br_board_notice(s, "%s: baseline not written: check failed", run->board.name);
		return;
	}
	char path[BR_BOARD_RUN_PATH_BYTES], replaced[sizeof(run->record.timestamp)];
	br_error_t err;
	br_error_clear(&err);
	/* A bench this run did not measure keeps its old entry (baseline_policy.h):
	 * the old entries are read from the baseline of the suite on the board
	 * where there is one; br_baseline_write checks that one fits. */
	bool exists = false;
	br_error_t ignored;
	br_error_clear(&ignored);
	br_run_record_t old;
	memset(&old, 0, sizeof(old));
	bool has_old = br_baseline_locate(s->results_dir, &run->record, path, sizeof(path), &exists,
	                                  &ignored) == BR_OK &&
	               exists && br_record_read(path, &old, NULL) == BR_OK;
	br_run_record_t copy;
	char kept[BR_RECORD_TEXT];
	size_t missing = 0;
	size_t n_kept = br_baseline_policy_apply(&run->record, has_old ? &old : NULL, &copy, kept,
	                                         sizeof(kept), &missing);
	br_status_t st = br_baseline_write(s->results_dir, &copy, path, sizeof(path), replaced,
	                                   sizeof(replaced), &err);
	br_baseline_policy_free(&copy);
	if (has_old)
		br_run_record_free(&old);
	if (st != BR_OK) {
		run->status = st;
		run->failure = err;
		return;
	}
	baseline_written(s, run, path, replaced, n_kept, kept, missing);
}
