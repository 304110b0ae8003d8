#include "results/baseline.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "results/diff.h"
#include "results/paths.h"
#include "results/record_read.h"
#include "results/run_json.h"

#define BASELINE_PATH_BYTES 1024U

/* The suite a record names, as a baseline's folder and messages say it. */
static const char *suite_word(const br_run_record_t *rec)
{
	return rec->suite[0] != '\0' ? rec->suite : BR_RESULTS_NO_SUITE;
}

br_status_t br_baseline_check_fits(const br_run_record_t *base, const char *path,
                                   const br_run_record_t *run, br_error_t *err)
{
	if (strcmp(base->suite, run->suite) != 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s was recorded for suite '%s', not '%s': refusing to compare "
		                    "another suite's figures; expected the baseline of suite %s on "
		                    "board %s (benchrack check SUITE --write-baseline records it)",
		                    path, suite_word(base), suite_word(run), suite_word(run),
		                    run->board);
	return br_diff_check_compatible(base, path, run, err);
}

br_status_t br_baseline_locate(const char *results_dir, const br_run_record_t *run, char *out,
                               size_t cap, bool *exists, br_error_t *err)
{
	*exists = false;
	br_status_t st =
	    br_results_baseline_path(results_dir, run->suite, run->board, false, out, cap, err);
	if (st != BR_OK)
		return st;
	if (access(out, F_OK) == 0) {
		*exists = true;
		return BR_OK;
	}
	char old[BASELINE_PATH_BYTES];
	st = br_results_old_baseline_path(results_dir, run->board, old, sizeof(old), err);
	if (st != BR_OK || access(old, F_OK) != 0)
		return st;
	br_run_record_t rec;
	br_error_t why;
	br_error_clear(&why);
	bool readable = br_record_read(old, &rec, &why) == BR_OK;
	bool ours = !readable || rec.suite[0] == '\0' || strcmp(rec.suite, run->suite) == 0;
	char recorded_for[BR_RECORD_NAME + 32U];
	snprintf(recorded_for, sizeof(recorded_for), "%s",
	         readable ? suite_word(&rec) : "(it does not read)");
	if (readable)
		br_run_record_free(&rec);
	if (!ours)
		return BR_OK; /* another suite's, from before: not this suite's baseline */
	char dir[BASELINE_PATH_BYTES];
	snprintf(dir, sizeof(dir), "%s", out);
	char *slash = strrchr(dir, '/');
	if (slash != NULL)
		*slash = '\0';
	return br_error_set(err, BR_ERR_INPUT,
	                    "%s is a baseline of the old layout (one per board, recorded for suite "
	                    "%s); baselines are now kept per suite and board: move it with "
	                    "`mkdir -p %s && git mv %s %s` (plain mv when it is not in git), or "
	                    "record this suite's again with --write-baseline after removing it",
	                    old, recorded_for, dir, old, out);
}

br_status_t br_baseline_write(const char *results_dir, const br_run_record_t *run, char *out,
                              size_t cap, char *replaced, size_t replaced_cap, br_error_t *err)
{
	replaced[0] = '\0';
	br_status_t st =
	    br_results_baseline_path(results_dir, run->suite, run->board, true, out, cap, err);
	if (st != BR_OK)
		return st;
	if (access(out, F_OK) == 0) {
		br_run_record_t old;
		st = br_record_read(out, &old, err);
		if (st != BR_OK)
			return br_error_prefix(
			    err, "not replacing a baseline that does not read (remove "
			         "it to record a new one)");
		st = br_baseline_check_fits(&old, out, run, err);
		if (st == BR_OK)
			snprintf(replaced, replaced_cap, "%s", old.timestamp);
		br_run_record_free(&old);
		if (st != BR_OK)
			return br_error_prefix(err,
			                       "not replacing it (remove it to record a new one)");
	}
	br_run_record_t copy = *run;
	copy.kind = BR_RECORD_BASELINE;
	return br_run_json_save(&copy, out, err);
}
