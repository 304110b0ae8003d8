#include "measure/suite_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "measure/stub_layout.h"

void br_suite_options_default(br_suite_options_t *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->default_iterations = BR_SUITE_DEFAULT_ITERATIONS;
	opts->default_warmup = BR_SUITE_DEFAULT_WARMUP;
	opts->bench_timeout_ms = BR_SUITE_DEFAULT_BENCH_TIMEOUT_MS;
}

/* Every bench asked for by name must be in the firmware's table. */
static br_status_t select_benches(const br_suite_options_t *opts, const br_stub_session_t *session,
                                  br_error_t *err)
{
	if (opts->benches == NULL)
		return BR_OK;
	if (opts->bench_count > BR_CB_MAX_BENCHES)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%zu benches asked for; a suite has at most %u",
		                    opts->bench_count, BR_CB_MAX_BENCHES);
	for (size_t k = 0; k < opts->bench_count; k++) {
		if (br_stub_bench_index(session, opts->benches[k].name) >= 0)
			continue;
		char have[BR_STUB_BENCH_NAMES_JOINED];
		br_stub_bench_names_join(session->bench_names, session->bench_count, have,
		                         sizeof(have));
		return br_error_set(err, BR_ERR_INPUT,
		                    "bench '%s' is not in the firmware %s (it has: %s); add it to "
		                    "the firmware's suite table or remove it from the suite file",
		                    opts->benches[k].name, opts->elf_path, have);
	}
	return BR_OK;
}

br_status_t br_suite_measure(const br_suite_options_t *opts, br_target_t *target, br_error_t *err)
{
	br_stub_session_t session;
	br_status_t st = br_stub_session_open(&session, target, opts->layout,
	                                      BR_SUITE_DEFAULT_START_TIMEOUT_MS, err);
	if (st == BR_OK)
		st = select_benches(opts, &session, err);
	if (st != BR_OK)
		return st;
	size_t count = opts->benches != NULL ? opts->bench_count : session.bench_count;
	br_stub_result_t *result = xcalloc(1, sizeof(*result)); /* large: off the stack */
	for (size_t k = 0; k < count && st == BR_OK; k++) {
		br_suite_bench_request_t req;
		if (opts->benches != NULL) {
			req = opts->benches[k];
		} else {
			req.name = session.bench_names[k];
			req.iterations = opts->default_iterations;
			req.warmup = opts->default_warmup;
		}
		int index = br_stub_bench_index(&session, req.name);
		if (opts->progress != NULL)
			opts->progress(opts->progress_ctx, (unsigned)k, (unsigned)count, req.name);
		st = br_stub_run(&session, (uint32_t)index, req.iterations, req.warmup,
		                 opts->counter, opts->bench_timeout_ms, result, err);
		if (st == BR_OK && opts->bench_done != NULL)
			st = opts->bench_done(opts->bench_done_ctx, &req, result, err);
	}
	free(result);
	return st;
}
