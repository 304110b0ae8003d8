#include "run/run_measure.h"

#include <stdio.h>
#include <string.h>

#include "debug/server_sched.h"
#include "run/run_checks.h"
#include "run/runner.h"

#define RUN_MEASURE_WHAT_BYTES 96U
#define RUN_MEASURE_STARVED_BYTES 160U

/* The counting check on every sample, then the batch wrap check (stub mode;
 * a breakpoint session checked each halt's host time itself). */
static br_status_t check_samples(br_measure_raw_t *out, br_error_t *err)
{
	char what[RUN_MEASURE_WHAT_BYTES];
	if (out->mode == BR_MEASURE_STUB)
		snprintf(what, sizeof(what), "bench %s ran", out->bench);
	else
		snprintf(what, sizeof(what), "the region ran");
	bool counted = false;
	for (size_t i = 0; i < out->count && !counted; i++)
		counted = out->ticks[i] != 0;
	br_status_t st = br_run_check_counting(&out->counter, counted, out->count, what, err);
	if (st == BR_OK && out->mode == BR_MEASURE_STUB && out->stub != NULL)
		(void)br_run_check_wrap(&out->counter, out->stub, out->measured);
	return st;
}

/* A wait that timed out (st, err), or samples taken (BR_OK) before one that
 * left the core running: never blame the firmware for a server that went
 * silent; say where the core was (br_run_core_after_timeout). */
static br_status_t explain_timeout(br_runner_t *runner, const br_measure_options_t *opts,
                                   br_status_t st, br_error_t *err)
{
	char core[BR_ERROR_MESSAGE_BYTES / 2U];
	br_status_t where = br_run_core_after_timeout(runner, opts->elf_path, opts->timeout_ms,
	                                              core, sizeof(core), err);
	if (where != BR_OK || st == BR_OK)
		return where;
	char was[BR_ERROR_MESSAGE_BYTES / 2U];
	snprintf(was, sizeof(was), "%.*s", (int)sizeof(was) - 1, err->message);
	return br_error_set(err, BR_ERR_TIMEOUT, "%s; %s", was, core);
}

br_status_t br_run_measure(const br_measure_options_t *opts, const br_endpoint_t *ep,
                           br_board_load_t load, bool timeout_is_failure,
                           const br_image_hooks_t *hooks, br_measure_raw_t *out, br_error_t *err)
{
	br_stub_layout_t layout;
	br_status_t st = br_measure_prepare(opts, out, &layout, err);
	if (st != BR_OK)
		return st;
	br_endpoint_t here = *ep;
	if (br_endpoint_kind(&here)->takes_image && here.launch.kernel == NULL)
		here.launch.kernel = opts->elf_path;
	br_runner_options_t ro = {
	    .endpoint = &here,
	    .elf_path = opts->elf_path,
	    .load = load,
	    .counter = opts->counter,
	    .output = opts->link.output,
	    .output_ctx = opts->link.output_ctx,
	    .load_progress = opts->link.load_progress,
	    .load_progress_ctx = opts->link.load_progress_ctx,
	};
	if (hooks != NULL) {
		ro.load_progress = hooks->progress;
		ro.load_progress_ctx = hooks->progress_ctx;
		ro.load_done = hooks->loaded;
		ro.load_done_ctx = hooks->loaded_ctx;
	}
	br_runner_t runner;
	st = br_runner_open(&ro, &runner, err);
	snprintf(out->server, sizeof(out->server), "%s", runner.server);
	if (st != BR_OK)
		return st;
	br_server_sched_t before, after;
	br_server_sched_read(&runner.session.server, &before);
	st = br_measure_take(opts, &layout, br_runner_target(&runner), &runner.counter, out, err);
	char starved[RUN_MEASURE_STARVED_BYTES];
	br_server_sched_read(&runner.session.server, &after);
	bool host_starved =
	    st == BR_ERR_TIMEOUT && br_server_sched_starved(&runner.session.server, &before, &after,
	                                                    starved, sizeof(starved));
	if (st == BR_ERR_TIMEOUT && (timeout_is_failure || host_starved))
		st = br_run_classify_timeout(&runner, opts->elf_path,
		                             out->mode == BR_MEASURE_STUB ? "the bench"
		                                                          : "the region",
		                             opts->timeout_ms, host_starved ? starved : NULL, err);
	else if (st == BR_ERR_TIMEOUT || (st == BR_OK && br_runner_core_unstoppable(&runner)))
		st = explain_timeout(&runner, opts, st, err);
	if (st == BR_OK)
		st = check_samples(out, err);
	if (st != BR_OK)
		br_runner_explain(&runner, err);
	br_runner_close(&runner);
	return st;
}
