/*
 * A regression limit on one metric (the suite's `regression:` section,
 * README "Regression limits"): a percentage of the baseline's figure, an
 * amount in the metric's own unit (bytes for *_bytes, the counter's unit for
 * the count), or both. A change fails the gate only when it is worse beyond
 * every part given: `2% and 64B` lets 4 -> 8 bytes of stack pass (+100 %, but
 * 4 B) and 8 KiB -> 8.5 KiB fail (+6 %, 512 B).
 */
#ifndef BENCHRACK_CONFIG_REGRESSION_LIMIT_H
#define BENCHRACK_CONFIG_REGRESSION_LIMIT_H

#include <stdbool.h>
#include <stddef.h>

/* The metrics a limit can name: the count (by its unit's first word) and
 * the figures in bytes, as results/diff.h names them. */
#define BR_REGRESSION_METRICS 7U

/* Those metrics, once: X(index, name) for each, in index order. The names
 * array below and every table of keys by metric (the suite's regression:,
 * the record's) are made from it, so a metric is added here alone. */
#define BR_REGRESSION_METRIC_LIST(X)                                                               \
	X(0, "instructions")                                                                       \
	X(1, "cycles")                                                                             \
	X(2, "ticks")                                                                              \
	X(3, "ns")                                                                                 \
	X(4, "stack_bytes")                                                                        \
	X(5, "heap_peak_bytes")                                                                    \
	X(6, "text_bytes")

typedef struct br_regression_limit {
	bool set;
	bool has_percent;
	double percent; /* of the baseline's figure, >= 0 */
	bool has_amount;
	double amount; /* in the metric's unit (bytes, instructions, ns ...), >= 0 */
} br_regression_limit_t;

/* One limit per metric name, index as br_regression_metric_names. */
typedef struct br_regression_limits {
	br_regression_limit_t by_metric[BR_REGRESSION_METRICS];
} br_regression_limits_t;

/* The names a limit may be given for, NULL-terminated: instructions,
 * cycles, ticks, ns, stack_bytes, heap_peak_bytes, text_bytes. */
extern const char *const br_regression_metric_names[BR_REGRESSION_METRICS + 1U];

/* The index of metric among br_regression_metric_names, or -1. */
int br_regression_metric_index(const char *metric);

/*
 * Parses text as a limit for metric: one term or two joined by " and ",
 * each a decimal number followed by `%` (a percentage, at most 1000), or by
 * `B` or `K` (bytes, only for a *_bytes metric), or by nothing (an amount
 * in the metric's unit). No term twice of one kind. Returns true with *out
 * filled, or false with *why set to the expected form (static text).
 */
bool br_regression_limit_parse(const char *text, const char *metric, br_regression_limit_t *out,
                               const char **why);

/* The limit as the suite writes it ("0.5%", "64 B", "2% and 64 B"). */
void br_regression_limit_format(const br_regression_limit_t *limit, const char *metric, char *buf,
                                size_t cap);

#endif
