/*
 * How each kind of figure is judged: one table, one place (DESIGN.md,
 * "Statistics"). A figure is either exact — the same firmware gives the same
 * number every run — or noisy, and each kind has its own evidence and rule:
 *
 * | metric                      | class | evidence                  | rule |
 * |-----------------------------|-------|---------------------------|-----------------------------------|
 * | count, unit "... QEMU icount" (instructions under -icount shift=0) | exact | the median | any
 * change is reported: equal, better or worse by its exact amount | | count, any other unit (host
 * ns, cycles or ticks on a board, SysTick on QEMU) | noisy | both sample sets (a baseline keeps
 * them) | stats/shift.h at BR_STATS_CONFIDENCE: better, worse or can't tell (±half-width) | |
 * count, noisy, a side without samples (a baseline recorded before they were kept) | noisy |
 * p10..p90 bands | stats/compare.h: not distinguishable when the bands overlap by more than the
 * medians differ | | stack_bytes, heap_peak_bytes, text_bytes | exact | the one figure | any change
 * is reported, in bytes |
 *
 * A noisy count against a STORED baseline (not base and head of one
 * interleaved run, results/diff.h br_diff_interleaved) is judged with the run
 * as the unit: the new run's median (of a check on the host, the median of
 * the runs it took, run/board_run.h) against the runs the baseline keeps
 * (stats/run_shift.h; an entry without runs is its own one run), the
 * samples' test having to agree; with no degree of freedom (one run a
 * build) a change the samples alone tell apart is can't tell (drift not
 * known). Interleaved, the samples' test decides alone.
 *
 * The gate fails a change only when it is worse (told apart, for a noisy
 * figure) and beyond the metric's limit: the suite's `regression:` entry for
 * the metric's name (a percentage of the baseline's figure, an amount in its
 * unit, or both: beyond both), else `fail_on_regression_percent`. The size
 * of a noisy change is the Hodges-Lehmann estimate; a "can't tell" never
 * fails.
 */
#ifndef BENCHRACK_RESULTS_METRIC_RULE_H
#define BENCHRACK_RESULTS_METRIC_RULE_H

#include <stdbool.h>

#include "config/regression_limit.h"
#include "results/record.h"

typedef enum br_metric {
	BR_METRIC_COUNT, /* the median per iteration, in the counter's unit */
	BR_METRIC_STACK, /* deepest stack, bytes */
	BR_METRIC_HEAP,  /* heap peak, bytes */
	BR_METRIC_TEXT,  /* the firmware's text, bytes (bench "(firmware)") */
} br_metric_t;

typedef enum br_metric_class {
	BR_METRIC_EXACT, /* compared exactly: any change is a change */
	BR_METRIC_NOISY, /* compared by a test on the samples */
} br_metric_class_t;

/* The class of metric in records of run's counter, by the table above. */
br_metric_class_t br_metric_class_of(const br_run_record_t *run, br_metric_t metric);

/* "exact" or "noisy". */
const char *br_metric_class_name(br_metric_class_t cls);

/* The limit that holds metric_name (as results/diff.h names it) in run: its
 * regression: entry, else fail_on_regression_percent as a percentage. */
br_regression_limit_t br_metric_limit(const br_run_record_t *run, const char *metric_name);

/*
 * Whether a worse change is beyond limit: past its percentage (when it has
 * one; percent_defined false, growth from 0, is past any) and past its
 * amount (when it has one; delta is new - old in the metric's unit).
 */
bool br_metric_beyond_limit(const br_regression_limit_t *limit, bool percent_defined,
                            double percent, double delta);

#endif
