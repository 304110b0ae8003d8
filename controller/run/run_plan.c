#include "run/run_plan.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "measure/suite_run.h"
#include "run/board_target.h"

#define PLAN_MS_PER_S 1000U

#define PLAN_SOURCE_NAME_ROW(id, name) [BR_RUN_FROM_##id] = name,
static const char *const source_names[] = {BR_RUN_SOURCE_LIST(PLAN_SOURCE_NAME_ROW)};
#undef PLAN_SOURCE_NAME_ROW

const char *br_run_source_name(br_run_source_t source)
{
	return (size_t)source < sizeof(source_names) / sizeof(source_names[0])
	           ? source_names[source]
	           : "?";
}

static br_plan_uint_t plan_uint(uint32_t value, br_run_source_t source)
{
	br_plan_uint_t u = {value, source};
	return u;
}

/* A setting that a stronger source gives replaces the weaker one. */
static br_plan_uint_t plan_over(br_plan_uint_t weaker, bool set, uint32_t value,
                                br_run_source_t source)
{
	return set ? plan_uint(value, source) : weaker;
}

/* Iterations, warm-up and timeout of the whole run: the command line's, else
 * the suite file's, else the default (the suite's defaults are measure's). */
static void plan_run_counts(const br_run_settings_t *s, const br_suite_t *suite,
                            br_run_plan_t *plan)
{
	plan->iterations = plan_uint(BR_SUITE_DEFAULT_ITERATIONS, BR_RUN_FROM_DEFAULT);
	plan->warmup = plan_uint(BR_SUITE_DEFAULT_WARMUP, BR_RUN_FROM_DEFAULT);
	plan->timeout_ms = plan_uint(BR_SUITE_DEFAULT_BENCH_TIMEOUT_MS, BR_RUN_FROM_DEFAULT);
	if (suite != NULL) {
		const br_suite_file_t *f = &suite->file;
		plan->iterations.value = suite->iterations;
		plan->warmup.value = suite->warmup;
		plan->timeout_ms.value = suite->timeout_seconds * PLAN_MS_PER_S;
		plan->iterations.source =
		    f->default_iterations.set ? BR_RUN_FROM_SUITE : BR_RUN_FROM_DEFAULT;
		plan->warmup.source = f->warmup_runs.set ? BR_RUN_FROM_SUITE : BR_RUN_FROM_DEFAULT;
		plan->timeout_ms.source =
		    f->timeout_seconds.set ? BR_RUN_FROM_SUITE : BR_RUN_FROM_DEFAULT;
	}
	plan->iterations =
	    plan_over(plan->iterations, s->iterations_set, s->iterations, BR_RUN_FROM_CLI);
	plan->warmup = plan_over(plan->warmup, s->warmup_set, s->warmup, BR_RUN_FROM_CLI);
	plan->timeout_ms = plan_over(plan->timeout_ms, s->timeout_s > 0,
	                             (uint32_t)s->timeout_s * PLAN_MS_PER_S, BR_RUN_FROM_CLI);
}

/* What the board is measured with: its counter, load policy and server. */
static void plan_board(const br_run_settings_t *s, const br_board_t *board, br_run_plan_t *plan)
{
	memset(&plan->counter, 0, sizeof(plan->counter));
	plan->counter_source = BR_RUN_FROM_DEFAULT;
	plan->load = BR_BOARD_LOAD_DEFAULT;
	plan->load_source = BR_RUN_FROM_DEFAULT;
	plan->endpoint_source = BR_RUN_FROM_DEFAULT;
	if (plan->host) {
		plan->counter.name = BR_RUN_HOST_COUNTER;
		plan->counter.width_bits = 32U;
		plan->counter.unit = BR_RUN_HOST_UNIT;
		plan->counter.clock_hz = BR_RUN_NS_PER_S;
		return;
	}
	br_board_counter(board, &plan->counter);
	plan->counter_source = BR_RUN_FROM_BOARD;
	plan->load = board->load;
	plan->load_source = board->file.load.set ? BR_RUN_FROM_BOARD : BR_RUN_FROM_DEFAULT;
	plan->endpoint_source = s->remote_host != NULL ? BR_RUN_FROM_CLI : BR_RUN_FROM_BOARD;
}

/* Entry sb as it runs: its own keys over the suite's, the command line's
 * over both; on the host a stub bench takes the run's counts. */
static void plan_entry(const br_run_settings_t *s, const br_run_plan_t *plan,
                       const br_suite_bench_t *sb, br_plan_entry_t *e)
{
	e->bench = sb;
	e->name = sb->name.value;
	e->kind = sb->kind;
	e->timeout_ms = plan->timeout_ms;
	br_suite_budgets_t budgets = br_suite_bench_budgets(plan->suite, sb);
	e->budgets = br_budgets_from_suite(&budgets);
	if (plan->host && sb->kind == BR_SUITE_ENTRY_STUB) {
		e->iterations = plan->iterations;
		e->warmup = plan->warmup;
		memset(&e->budgets, 0, sizeof(e->budgets));
		return;
	}
	if (sb->kind == BR_SUITE_ENTRY_STUB)
		e->budgets.max_text_bytes.set = false;
	e->iterations = plan_over(plan->iterations, !s->iterations_set && sb->iterations.set,
	                          (uint32_t)sb->iterations.value, BR_RUN_FROM_ENTRY);
	e->warmup = plan_over(plan->warmup, !s->warmup_set && sb->warmup_runs.set,
	                      (uint32_t)sb->warmup_runs.value, BR_RUN_FROM_ENTRY);
}

void br_run_plan_resolve(const br_run_settings_t *s, const br_suite_t *suite,
                         const br_board_t *board, bool host, br_run_plan_t *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->suite = suite;
	plan->board = board;
	plan->host = host;
	plan_run_counts(s, suite, plan);
	plan_board(s, board, plan);
	plan->stack_watermark = suite == NULL || suite->stack_watermark;
	plan->stack_watermark_source = suite != NULL && suite->file.stack_watermark.set
	                                   ? BR_RUN_FROM_SUITE
	                                   : BR_RUN_FROM_DEFAULT;
	plan->regression_percent =
	    suite != NULL ? suite->regression_percent : BR_SUITE_DEFAULT_REGRESSION_PERCENT;
	plan->regression_source = suite != NULL && suite->file.fail_on_regression_percent.set
	                              ? BR_RUN_FROM_SUITE
	                              : BR_RUN_FROM_DEFAULT;
	if (suite == NULL)
		return;
	if (!host)
		plan->budgets = br_budgets_from_suite(&suite->file.budgets);
	plan->entries = xcalloc(suite->bench_count + 1U, sizeof(plan->entries[0]));
	plan->entry_count = suite->bench_count;
	for (size_t i = 0; i < suite->bench_count; i++) {
		plan_entry(s, plan, &suite->benches[i], &plan->entries[i]);
		plan->stub_count += suite->benches[i].kind == BR_SUITE_ENTRY_STUB;
	}
}

void br_run_plan_size(br_run_plan_t *plan, uint32_t iterations)
{
	plan->iterations = plan_uint(iterations, BR_RUN_FROM_SPREAD);
	for (size_t i = 0; i < plan->entry_count; i++)
		plan->entries[i].iterations = plan->iterations;
}

const br_plan_entry_t *br_run_plan_entry(const br_run_plan_t *plan, const char *name)
{
	for (size_t i = 0; i < plan->entry_count; i++) {
		if (strcmp(plan->entries[i].name, name) == 0)
			return &plan->entries[i];
	}
	return NULL;
}

bool br_run_plan_has_stub(const br_run_plan_t *plan)
{
	return plan->suite == NULL || plan->stub_count > 0;
}

void br_run_plan_free(br_run_plan_t *plan)
{
	free(plan->entries);
	plan->entries = NULL;
	plan->entry_count = 0;
}
