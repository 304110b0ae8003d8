/*
 * One board's run (run/board_run.h) in its three steps: the plan resolved
 * once (run/run_plan.h), executed (board_execute.c, board_host.c), recorded
 * (board_record.c, board_gate.c). The steps share board_run_private.h.
 */
#include "run/board_run.h"

#include <string.h>

#include "results/run_json.h"
#include "run/board_run_private.h"
#include "run/provenance.h"
#include "run/size_budgets.h"

void br_board_run_host(br_board_run_t *run)
{
	memset(&run->board, 0, sizeof(run->board));
	run->host = true;
	run->board.name = BR_HOST_BOARD_NAME;
}

/* Everything the plan measures on its board: stub benches, then the entries
 * for unmodified firmware (on the host: the host program). */
static br_status_t board_execute(const br_run_settings_t *s, const br_run_plan_t *plan,
                                 br_board_run_t *run, br_error_t *err)
{
	if (plan->host) {
		br_status_t hst =
		    br_board_execute_host(s, plan, 0, plan->entry_count, s->host_program, run, err);
		return hst == BR_OK ? br_board_check_runs(s, plan, run, err) : hst;
	}
	br_status_t st = br_run_plan_has_stub(plan)
	                     ? br_board_execute_stub(s, plan, 0, plan->entry_count, run, err)
	                     : BR_OK;
	/* a stub bench that did not finish costs only itself */
	if (st == BR_OK || run->bench_timed_out) {
		br_error_t why;
		br_error_clear(&why);
		br_status_t est = br_board_execute_entries(s, plan, run, &why);
		if (st == BR_OK && est != BR_OK) {
			st = est;
			*err = why;
		}
	}
	return st != BR_OK ? st : br_board_record_unmeasured(run, err);
}

/* The run's record started: its firmware, header, the plan sized by
 * --min-detectable from the baseline the header names, and its file
 * written first. */
static br_status_t run_open(const br_run_settings_t *s, const char *elf, br_run_plan_t *plan,
                            br_board_run_t *run, br_error_t *err)
{
	br_status_t st = BR_OK;
	if (run->host)
		br_run_provenance_fill_program(&run->record, s->host_program, s->commit);
	else
		st = br_board_record_firmware(plan, elf, NULL, s->commit, &run->record, err);
	if (st != BR_OK)
		return st;
	br_board_record_header(run, plan);
	if (s->min_detectable_percent > 0.0) {
		st = br_run_plan_spread(s, run, plan, err);
		if (st != BR_OK)
			return st;
	}
	return br_board_record_open(s, run, err);
}

/* After the run: the record also at --json, then for check the gate
 * (baseline and size budgets), then the baseline written when asked. */
static void run_close(const br_run_settings_t *s, const br_suite_t *suite, const char *elf,
                      br_board_run_t *run)
{
	br_error_t err;
	br_error_clear(&err);
	if (s->json_path != NULL && br_run_json_save(&run->record, s->json_path, &err) != BR_OK &&
	    run->status == BR_OK) {
		run->status = err.status;
		run->failure = err;
	}
	if (s->check) {
		br_error_clear(&err);
		br_status_t st = br_board_run_gate(s, run, &err);
		if (st == BR_OK && !run->host)
			st = br_size_budgets_apply(suite, elf, &run->gate, &err);
		if (st != BR_OK && run->status == BR_OK) {
			run->status = st;
			run->failure = err;
		}
	}
	if (s->write_baseline && run->status == BR_OK)
		br_board_baseline_write(s, run);
}

void br_board_run_execute(const br_run_settings_t *s, const br_suite_t *suite, const char *elf,
                          br_board_run_t *run)
{
	br_error_t err;
	br_error_clear(&err);
	run->status = BR_OK;
	br_run_plan_t plan;
	br_run_plan_resolve(s, suite, &run->board, run->host, &plan);
	br_status_t st = run_open(s, elf, &plan, run, &err);
	if (st != BR_OK) {
		run->status = st;
		run->failure = err;
		br_run_plan_free(&plan);
		return;
	}
	st = board_execute(s, &plan, run, &err);
	br_run_plan_free(&plan);
	br_board_record_order(&run->record, suite);
	br_board_record_finish(run, st, &err);
	run_close(s, suite, elf, run);
}

void br_board_run_report(const br_board_run_t *run, br_report_t *report)
{
	memset(report, 0, sizeof(*report));
	report->run = &run->record;
	report->run_path = run->run_path;
	report->diff = run->compared ? &run->diff : NULL;
	report->baseline_path = run->compared ? run->baseline_path : NULL;
	report->gate = run->gated ? &run->gate : NULL;
	report->figures = true;
}

void br_board_run_free(br_board_run_t *run)
{
	br_board_free(&run->board);
	br_run_record_free(&run->record);
	br_diff_free(&run->diff);
	br_gate_free(&run->gate);
}
