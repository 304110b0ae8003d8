/*
 * One board's run (run/board_run.h) as its sources share it, in three
 * steps: the plan resolved once (run/run_plan.h, and run_plan_spread.c for
 * --min-detectable), then executed (board_run.c choosing, board_execute.c for stub benches and
 * breakpoint entries, board_host.c for the host board, board_ab.c for
 * --against), then recorded (board_record.c: the run record and its file;
 * board_gate.c: the baseline, the gate, the baseline written); what the
 * caller hears goes through board_progress.c. Private to
 * controller/run: other layers see board_run.h alone.
 */
#ifndef BENCHRACK_RUN_BOARD_RUN_PRIVATE_H
#define BENCHRACK_RUN_BOARD_RUN_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "debug/server.h"
#include "debug/server_sched.h"
#include "measure/counter.h"
#include "measure/stub_batch.h"
#include "measure/suite_run.h"
#include "run/board_run.h"
#include "run/run_plan.h"

#define BOARD_RUN_MS_PER_S 1000

/* What the per-bench callbacks need to keep results as they come. */
typedef struct br_board_keeper {
	const br_run_settings_t *s;
	const br_run_plan_t *plan;
	br_board_run_t *run;
	const br_counter_state_t *counter; /* as started on the board */
	const char *current;               /* the bench running now */
	uint32_t warmup;                   /* host benches: the warm-up they ran with */
	unsigned current_index;            /* of the requests, after a restart too */
	unsigned offset;                   /* benches done before the runner was last opened */
	unsigned total;                    /* benches of the whole run */
	const br_server_t *server;         /* the runner's launched server, if any */
	br_server_sched_t sched_start;     /* its scheduler figures when the bench started */
	bool counted;                      /* any sample of any bench was not zero */
	size_t sampled;                    /* samples of all benches */
	int64_t started_ms;
	bool save_failed;
	br_error_t save_error;
} br_board_keeper_t;

/* --- the caller's callbacks (board_progress.c) --- */

/* s->progress and s->progress_done, when given. */
void br_board_progress(const br_run_settings_t *s, unsigned index, unsigned count,
                       const char *name);
void br_board_progress_done(const br_run_settings_t *s);

/* One line for the user through s->notice, when given. */
void br_board_notice(const br_run_settings_t *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The measure layer's progress callback (ctx a keeper): the bench's start
 * noted, the caller told. */
void br_board_on_progress(void *ctx, unsigned index, unsigned count, const char *name);

/* --- execution --- */

/* The plan's stub benches entries[first, first + count) in order (without a
 * suite: every bench of the firmware), on one runner: the firmware loaded
 * once, and started again after a bench that did not finish, for the
 * benches after it. Each bench is kept in run's record as it finishes. */
br_status_t br_board_execute_stub(const br_run_settings_t *s, const br_run_plan_t *plan,
                                  size_t first, size_t count, br_board_run_t *run, br_error_t *err);

/* One entry for unmodified firmware measured on the ELF at elf (the entry's
 * own, or its counterpart at another commit) into a bench record of run, its
 * provenance (commit, else git's) with it; the record kept on disk after
 * it. An entry that fails is recorded not run with why and costs it alone:
 * *entry is its status, *why its reason (prefixed with its name). Returns
 * whether the record was kept (err says why not). */
br_status_t br_board_execute_entry(const br_run_settings_t *s, const br_run_plan_t *plan,
                                   const br_plan_entry_t *e, const char *elf, const char *commit,
                                   br_board_run_t *run, br_status_t *entry, br_error_t *why,
                                   br_error_t *err);

/* The plan's entries for unmodified firmware, in suite order, each kept on
 * disk as soon as it is done; one that fails is recorded not run with why,
 * and the next one is measured all the same (the first failure returned). */
br_status_t br_board_execute_entries(const br_run_settings_t *s, const br_run_plan_t *plan,
                                     br_board_run_t *run, br_error_t *err);

/* --board host: the plan's stub benches entries[first, first + count) run by
 * the host program at program; entries for unmodified firmware are recorded
 * not run (board_host.c). */
br_status_t br_board_execute_host(const br_run_settings_t *s, const br_run_plan_t *plan,
                                  size_t first, size_t count, const char *program,
                                  br_board_run_t *run, br_error_t *err);

/* --- record (board_record.c) --- */

/* The record saved at run's run file; the first failure is kept in k. */
void br_board_record_keep(br_board_keeper_t *k);

/* A stub bench's raw result r under request req kept as a bench record
 * (the wrap check, statistics, stack, heap, the plan's budgets). */
void br_board_record_stub(br_board_keeper_t *k, const br_suite_bench_request_t *req,
                          const br_stub_result_t *r);

/* Frees the last bench record of rec and drops it. */
void br_board_record_drop_last(br_run_record_t *rec);

/*
 * check on the host against a stored baseline (board_check_runs.c): each
 * noisy stub bench whose baseline entry holds two or more runs is run again,
 * s->check_runs launches in all (BR_RUN_CHECK_RUNS when 0), each launch's
 * median kept in its record's runs for the diff to judge their median
 * (stats/run_shift.h). A launch that fails fails the run.
 */
br_status_t br_board_check_runs(const br_run_settings_t *s, const br_run_plan_t *plan,
                                br_board_run_t *run, br_error_t *err);

/* A bench record called name, mode mode, not run for why. */
br_bench_record_t *br_board_record_not_run(br_board_run_t *run, const char *name, const char *mode,
                                           const char *why);

/* Whether the record holds a bench called name. */
bool br_board_record_has(const br_run_record_t *rec, const char *name);

/* "stub", "range" or "function": a bench record's mode for entry kind. */
const char *br_board_record_mode(br_suite_entry_kind_t kind);

/* The run's firmware and provenance: the stub image elf when the plan has
 * stub benches (or no entry at all); else the one ELF its entries name
 * (one_elf: that ELF at this side's commit, NULL for the entries' own);
 * else none of its own. */
br_status_t br_board_record_firmware(const br_run_plan_t *plan, const char *elf,
                                     const char *one_elf, const char *commit, br_run_record_t *rec,
                                     br_error_t *err);

/* The one ELF every entry of suite names, or NULL when they name several. */
const char *br_board_record_one_elf(const br_suite_t *suite);

/* The record's header from the plan: board, server, counter, limits, suite. */
void br_board_record_header(br_board_run_t *run, const br_run_plan_t *plan);

/* The run's file in RESULTS/runs, reserved and written with the record as it
 * stands (a reserved name whose first write failed is removed). */
br_status_t br_board_record_open(const br_run_settings_t *s, br_board_run_t *run, br_error_t *err);

/* Benches of the record in the suite's order. */
void br_board_record_order(br_run_record_t *rec, const br_suite_t *suite);

/* A bench of the record not measured is an infrastructure error for the
 * run (README's exit codes), naming the first one. */
br_status_t br_board_record_unmeasured(const br_board_run_t *run, br_error_t *err);

/* The run ended with st (err saying why when not BR_OK): its record
 * complete, failed or interrupted, and kept on disk. */
void br_board_record_finish(br_board_run_t *run, br_status_t st, const br_error_t *err);

/* --- baseline and gate (board_gate.c) --- */

/* The baseline's path for run: --baseline, which must exist, else
 * RESULTS/baselines/<suite>/<board>.json; *exists says whether it is there. */
br_status_t br_board_baseline_path(const br_run_settings_t *s, br_board_run_t *run, bool *exists,
                                   br_error_t *err);

/* Writes run's record as the baseline of its suite on its board (check:
 * only when it passed), notices saying what was kept and written. */
void br_board_baseline_write(const br_run_settings_t *s, br_board_run_t *run);

/* --- the plan sized by --min-detectable (run_plan_spread.c) --- */

/* The iterations per bench that bring the shift test's interval down to
 * s->min_detectable_percent of each noisy figure of the baseline of run's
 * suite and board (its record's header filled in), set in plan; notices
 * say what was chosen or why nothing was. BR_ERR_USAGE without a baseline. */
br_status_t br_run_plan_spread(const br_run_settings_t *s, br_board_run_t *run, br_run_plan_t *plan,
                               br_error_t *err);

#endif
