/*
 * The CI gate: a run's figures against its budgets and, when a baseline was
 * compared, against the regression limit. A budget is a limit on the figure
 * itself (the median per iteration, the deepest stack, the heap peak, the
 * firmware's text); a regression is a change worse than
 * fail_on_regression_percent that the spread does not explain (a "not
 * distinguishable" change never fails). A figure a budget needs but the run
 * could not measure fails too: the gate never passes what it cannot see.
 */
#ifndef BENCHRACK_RESULTS_GATE_H
#define BENCHRACK_RESULTS_GATE_H

#include <stddef.h>

#include "results/diff.h"
#include "results/record.h"

typedef enum br_finding_kind {
	BR_FINDING_BUDGET,       /* over a budget: exit 1 */
	BR_FINDING_REGRESSION,   /* worse than the baseline beyond the limit: exit 1 */
	BR_FINDING_NOT_MEASURED, /* a budgeted figure the run has no number for: exit 1 */
	BR_FINDING_NOT_RUN,      /* a bench benchrack could not run here: exit 3 */
} br_finding_kind_t;

typedef struct br_finding {
	br_finding_kind_t kind;
	char bench[BR_RECORD_NAME];
	char metric[32];
	double value;      /* the figure (BUDGET, REGRESSION) */
	double limit;      /* the budget, or the baseline's figure */
	double percent;    /* over the budget, or the change against the baseline */
	char message[512]; /* room for a bench, its figures and the verdict in words */
} br_finding_t;

typedef struct br_gate {
	br_finding_t *findings;
	size_t count;
	size_t failures; /* BUDGET + REGRESSION + NOT_MEASURED */
	size_t not_run;  /* NOT_RUN */
	double regression_percent;
	bool compared; /* a baseline took part */
} br_gate_t;

/*
 * Checks run's budgets (run->budgets for the firmware's text, each bench's
 * budgets for its figures) and, when diff is not NULL, every row that got
 * worse by more than run->regression_percent. Fills *out (free with
 * br_gate_free); messages name the bench, the metric and the percent.
 */
void br_gate_evaluate(const br_run_record_t *run, const br_diff_t *diff, br_gate_t *out);

void br_gate_free(br_gate_t *gate);

/*
 * A budget held outside the record (the suite's size_budgets, from the
 * firmware ELF): known and over limit adds a BUDGET finding naming bench,
 * what and key; not known (lacking says why, e.g. "in the firmware") adds a
 * NOT_MEASURED one, as every budget the gate cannot see.
 */
void br_gate_check_limit(br_gate_t *g, const char *bench, const char *metric, const char *what,
                         bool known, const char *lacking, double value, uint64_t limit,
                         const char *key);

/* The finding a one-line verdict names: the first failure (budget,
 * regression, not measured) when there is one, else the first bench not
 * run; NULL when gate has neither. *more: how many of that kind follow. */
const br_finding_t *br_gate_first(const br_gate_t *gate, size_t *more);

/* "budget", "regression", "not measured", "not run". */
const char *br_finding_kind_name(br_finding_kind_t kind);

#endif
