/*
 * Which figures a new baseline takes from a run (issue 31, ND1): a bench the
 * run measured replaces its entry; a bench it did not measure keeps the old
 * baseline's entry, so one failed bench never wipes out its baseline (a
 * later check would call it "new" and pass).
 *
 * The runs of a noisy figure (results/metric_rule.h) accumulate: a measured
 * bench's entry keeps the old entry's runs (its median and build each; an
 * old entry without runs counts as its own one run) and adds this run's, at
 * most BR_STATS_RUNS_MAX, the oldest dropped; of a check that took several
 * runs (launches) of the bench, its first one's median, so that every run
 * a baseline keeps is one launch, as stats/run_shift.h assumes. Runs of another build stay:
 * the drift between runs is the board's, and stats/run_shift.h pools it over
 * builds while it centres on the latest build's runs.
 */
#ifndef BENCHRACK_RESULTS_BASELINE_POLICY_H
#define BENCHRACK_RESULTS_BASELINE_POLICY_H

#include <stddef.h>

#include "results/record.h"

/*
 * Fills *out with the baseline to write from run and the old baseline (NULL
 * when there is none): run's header, and per bench of run its entry when
 * measured, else old's measured entry of that name when there is one, else
 * run's (not measured), each with its runs as above. out's bench array and
 * runs are its own; the entries' sample buffers stay run's and old's (free
 * out with br_baseline_policy_free, before them). The names of the benches whose old entry was kept
 * are written, comma-separated, into kept (size bytes; "" when none; cut with "..." when long);
 * *missing counts those not measured with no old entry to keep. Returns how many old entries were
 * kept.
 */
size_t br_baseline_policy_apply(const br_run_record_t *run, const br_run_record_t *old,
                                br_run_record_t *out, char *kept, size_t size, size_t *missing);

/* Frees what br_baseline_policy_apply allocated in out (not the samples). */
void br_baseline_policy_free(br_run_record_t *out);

#endif
