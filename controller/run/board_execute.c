/*
 * The execution step of one board's run (board_run_private.h): the plan's
 * stub benches on one runner, then its entries for unmodified firmware at
 * breakpoints, each kept in the record as it finishes. Every count, timeout
 * and budget comes from the plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "results/run_json.h"
#include "run/board_run_private.h"
#include "run/elf_entry.h"
#include "run/provenance.h"
#include "run/run_checks.h"
#include "run/runner.h"

#define BOARD_RUN_STARVED_BYTES 160U
#define BOARD_RUN_TIMEOUT_REASON_BYTES 251U /* a timed-out bench's reason: 250 characters */

static br_status_t on_bench_done(void *ctx, const br_suite_bench_request_t *req,
                                 const br_stub_result_t *r, br_error_t *err)
{
	(void)err;
	br_board_record_stub(ctx, req, r);
	return BR_OK;
}

/* A bench that did not come back within its timeout (run_checks.h): on a
 * board that answers (*answered), kept as the bench's record ("did not
 * finish", where the core was, or that the host was overloaded), the run
 * going on with the benches after it. */
static br_status_t classify_timeout(br_runner_t *runner, br_board_run_t *run,
                                    const br_board_keeper_t *k, int timeout_ms, bool *answered,
                                    br_error_t *err)
{
	const char *bench = k->current;
	char what[BR_CB_NAME_BYTES + 16U];
	snprintf(what, sizeof(what), "bench %s", bench);
	br_server_sched_t now;
	br_server_sched_read(&runner->session.server, &now);
	char starved[BOARD_RUN_STARVED_BYTES];
	bool host_starved = br_server_sched_starved(&runner->session.server, &k->sched_start, &now,
	                                            starved, sizeof(starved));
	br_status_t st = br_run_classify_timeout(runner, run->record.elf_path, what, timeout_ms,
	                                         host_starved ? starved : NULL, err);
	if (st != BR_ERR_TIMEOUT && !(st == BR_ERR_INFRA && host_starved))
		return st;
	*answered = true;
	/* The reason is the message after "bench NAME ": a silent server's
	 * message (BR_ERR_INFRA, the host starved) does not start with it, and
	 * is named here so that the run's error says which bench. */
	size_t named = strlen(what);
	if (strncmp(err->message, what, named) != 0 || err->message[named] != ' ')
		br_error_prefix(err, "%s", what);
	const char *rest = err->message + named;
	rest += strspn(rest, ": ");
	char reason[BOARD_RUN_TIMEOUT_REASON_BYTES];
	snprintf(reason, sizeof(reason), "%s", rest);
	br_board_record_not_run(run, bench, "stub", reason);
	run->bench_timed_out = true;
	return st;
}

/* The suite stopped at the bench k->current (err says why): it and every
 * bench after it are kept as not run, with the reason, never as figures. */
static void mark_unfinished(br_board_keeper_t *k, const br_suite_bench_request_t *reqs,
                            size_t count, const br_error_t *err)
{
	if (k->current == NULL)
		return;
	const char *stopped = k->current;
	if (!br_board_record_has(&k->run->record, stopped))
		br_board_record_not_run(k->run, stopped, "stub", err->message);
	for (size_t i = (size_t)k->current_index + 1U; i < count; i++) {
		char why[BR_RECORD_TEXT];
		snprintf(why, sizeof(why), "not reached: the suite stopped at bench %.100s",
		         stopped);
		if (!br_board_record_has(&k->run->record, reqs[i].name))
			br_board_record_not_run(k->run, reqs[i].name, "stub", why);
	}
	br_board_record_keep(k);
}

/* The options of one pass of the stub benches on runner, reporting to k. */
static void stub_suite_options(const br_run_plan_t *plan, const br_stub_layout_t *layout,
                               br_runner_t *runner, br_board_keeper_t *k, br_suite_options_t *opts)
{
	br_suite_options_default(opts);
	opts->elf_path = k->run->record.elf_path;
	opts->layout = layout;
	opts->counter = &runner->counter;
	opts->default_iterations = plan->iterations.value;
	opts->default_warmup = plan->warmup.value;
	opts->bench_timeout_ms = (int)plan->timeout_ms.value;
	opts->progress = br_board_on_progress;
	opts->progress_ctx = k;
	opts->bench_done = on_bench_done;
	opts->bench_done_ctx = k;
}

/* The stub benches among entries[first, first + count): their requests
 * (*n of them, the caller's to free). */
static br_suite_bench_request_t *stub_requests(const br_run_plan_t *plan, size_t first,
                                               size_t count, size_t *n)
{
	br_suite_bench_request_t *reqs = xcalloc(count + 1U, sizeof(*reqs));
	*n = 0;
	for (size_t i = first; i < first + count && i < plan->entry_count; i++) {
		const br_plan_entry_t *e = &plan->entries[i];
		if (e->kind != BR_SUITE_ENTRY_STUB)
			continue;
		br_suite_bench_request_t req = {
		    .name = e->name, .iterations = e->iterations.value, .warmup = e->warmup.value};
		reqs[(*n)++] = req;
	}
	return reqs;
}

/* One pass of the stub benches from k->offset on a runner opened with ro:
 * *again says whether the runner must be opened again for the benches
 * after one that did not finish on a board that answered (*answered). */
static br_status_t stub_pass(const br_run_plan_t *plan, const br_runner_options_t *ro,
                             const br_stub_layout_t *layout, const br_suite_bench_request_t *reqs,
                             size_t count, br_board_keeper_t *k, bool *answered, bool *again,
                             br_error_t *err)
{
	br_board_run_t *run = k->run;
	bool suite = plan->suite != NULL;
	br_runner_t runner;
	br_status_t st = br_runner_open(ro, &runner, err);
	for (size_t i = k->offset; st != BR_OK && suite && i < count; i++) {
		if (!br_board_record_has(&run->record, reqs[i].name))
			br_board_record_not_run(run, reqs[i].name, "stub", err->message);
	}
	if (st != BR_OK)
		return st;
	k->counter = &runner.counter;
	k->server = &runner.session.server;
	br_suite_options_t opts;
	stub_suite_options(plan, layout, &runner, k, &opts);
	opts.benches = suite ? reqs + k->offset : NULL;
	opts.bench_count = count - k->offset;
	k->current = NULL;
	st = br_suite_measure(&opts, br_runner_target(&runner), err);
	if (st == BR_ERR_TIMEOUT && k->current != NULL)
		st = classify_timeout(&runner, run, k, opts.bench_timeout_ms, answered, err);
	*again = *answered && suite && k->current_index + 1U < count;
	if (st != BR_OK && !*again) {
		br_runner_explain(&runner, err);
		mark_unfinished(k, reqs, suite ? count : 0, err);
	}
	br_runner_close(&runner);
	k->server = NULL;
	return st;
}

br_status_t br_board_execute_stub(const br_run_settings_t *s, const br_run_plan_t *plan,
                                  size_t first, size_t count, br_board_run_t *run, br_error_t *err)
{
	br_elf_t *elf = NULL;
	br_stub_layout_t layout;
	br_status_t st = br_elf_open(run->record.elf_path, &elf, err);
	if (st != BR_OK)
		return st;
	st = br_stub_layout_from_elf(elf, &layout, err);
	br_elf_close(elf);
	if (st != BR_OK)
		return st;
	size_t n = 0;
	br_suite_bench_request_t *reqs = stub_requests(plan, first, count, &n);
	br_endpoint_t ep;
	st = br_run_settings_endpoint(s, &run->board, run->record.elf_path, &ep, err);
	br_runner_options_t ro = {
	    .endpoint = &ep,
	    .elf_path = run->record.elf_path,
	    .load = plan->load,
	    .counter = &plan->counter,
	    .output = s->firmware_output,
	    .output_ctx = s->firmware_output_ctx,
	    .load_progress = s->load_progress,
	    .load_progress_ctx = s->load_progress_ctx,
	    .load_done = s->load_done,
	    .load_done_ctx = s->load_done_ctx,
	};
	br_board_keeper_t k = {.s = s, .plan = plan, .run = run, .total = (unsigned)n};
	br_error_t first_err;
	br_status_t first_st = BR_OK;
	/* A bench that does not finish costs only itself: the board is started
	 * again (the firmware reset) for the benches after it. */
	while (st == BR_OK) {
		bool answered = false, again = false;
		st = stub_pass(plan, &ro, &layout, reqs, n, &k, &answered, &again, err);
		if (answered && first_st == BR_OK) {
			first_st = st;
			first_err = *err;
		}
		if (!again)
			break;
		br_board_record_keep(&k);
		k.offset = k.current_index + 1U;
		st = BR_OK;
	}
	if (st == BR_OK)
		st = br_run_check_counting(k.counter, k.counted, k.sampled, "any bench ran", err);
	if (st == BR_OK && k.save_failed) {
		*err = k.save_error;
		st = k.save_error.status;
	}
	if (st == BR_OK && first_st != BR_OK) {
		*err = first_err;
		st = first_st;
	}
	br_board_progress_done(s);
	free(reqs);
	return st;
}

br_status_t br_board_execute_entry(const br_run_settings_t *s, const br_run_plan_t *plan,
                                   const br_plan_entry_t *e, const char *elf, const char *commit,
                                   br_board_run_t *run, br_status_t *entry, br_error_t *why,
                                   br_error_t *err)
{
	br_bench_record_t *b = br_run_record_add_bench(&run->record);
	snprintf(b->name, sizeof(b->name), "%s", e->name);
	snprintf(b->mode, sizeof(b->mode), "%s", br_board_record_mode(e->kind));
	snprintf(b->elf_path, sizeof(b->elf_path), "%s", elf);
	b->budgets = e->budgets;
	br_elf_entry_options_t o = {
	    .settings = s,
	    .board = &run->board,
	    .plan = plan,
	    .entry = e,
	    .elf_path = elf,
	};
	br_error_clear(why);
	br_status_t st = br_run_provenance_firmware(elf, commit, &b->firmware, why);
	b->has_firmware = st == BR_OK;
	if (st == BR_OK)
		st = br_elf_entry_measure(&o, b, why);
	if (st != BR_OK) {
		b->status = BR_BENCH_NOT_RUN;
		snprintf(b->reason, sizeof(b->reason), "%.*s", (int)sizeof(b->reason) - 1,
		         why->message);
		br_error_prefix(why, "bench %s", e->name);
	}
	*entry = st;
	return br_run_json_save(&run->record, run->run_path, err);
}

br_status_t br_board_execute_entries(const br_run_settings_t *s, const br_run_plan_t *plan,
                                     br_board_run_t *run, br_error_t *err)
{
	size_t total = plan->entry_count - plan->stub_count, done = 0;
	br_status_t first = BR_OK;
	for (size_t i = 0; i < plan->entry_count; i++) {
		const br_plan_entry_t *e = &plan->entries[i];
		if (e->kind == BR_SUITE_ENTRY_STUB)
			continue;
		br_board_progress(s, (unsigned)done++, (unsigned)total, e->name);
		br_status_t entry = BR_OK;
		br_error_t why;
		br_status_t st = br_board_execute_entry(s, plan, e, e->bench->elf_path, s->commit,
		                                        run, &entry, &why, err);
		if (st != BR_OK)
			return st; /* the record could not be kept */
		if (entry != BR_OK && first == BR_OK) {
			/* this entry alone: the others are measured all the same */
			first = entry;
			*err = why;
		}
		/* a usage or input error is the same for every entry: said once */
		if (entry == BR_ERR_USAGE)
			return first;
	}
	br_board_progress_done(s);
	return first;
}
