#include "measure/suite_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "elf/elf_build_id.h"
#include "elf/elf_file.h"
#include "debug/server.h"

#define SUITE_DEFAULT_QEMU "qemu-system-arm"
#define SUITE_DEFAULT_MACHINE "netduinoplus2"

void br_suite_options_default(br_suite_options_t *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->qemu_program = SUITE_DEFAULT_QEMU;
	opts->machine = SUITE_DEFAULT_MACHINE;
	opts->counter = br_counter_qemu_tim2();
	opts->iterations = BR_SUITE_DEFAULT_ITERATIONS;
	opts->warmup = BR_SUITE_DEFAULT_WARMUP;
	opts->bench_timeout_ms = BR_SUITE_DEFAULT_BENCH_TIMEOUT_MS;
}

/* A counter whose every delta in the run is zero is not counting: refuse its
 * figures. Over the whole run, not per bench: on a slow clock (SysTick at
 * 25 MHz under QEMU's 1 GHz icount) a one-instruction bench legitimately
 * measures 0 ticks every time. */
static br_status_t check_counting(const br_counter_t *counter, const br_suite_raw_t *raw,
				  br_error_t *err)
{
	for (size_t k = 0; k < raw->count; k++) {
		for (uint32_t i = 0; i < raw->results[k].count; i++) {
			if (raw->results[k].samples[i] != 0)
				return BR_OK;
		}
	}
	return br_error_set(err, BR_ERR_TARGET,
			    "counter %s at 0x%08x did not advance during any bench: it is not "
			    "counting on this board, so no figure is reported; choose a counter "
			    "that runs here (on QEMU: TIM2)",
			    counter->name, counter->address);
}

/* Every bench asked for by name must be in the firmware's table. */
static br_status_t select_benches(const br_suite_options_t *opts, const br_stub_session_t *session,
				  br_error_t *err)
{
	if (opts->benches == NULL)
		return BR_OK;
	if (opts->bench_count > BR_CB_MAX_BENCHES)
		return br_error_set(err, BR_ERR_INPUT, "%zu benches asked for; a suite has at most %u",
				    opts->bench_count, BR_CB_MAX_BENCHES);
	for (size_t k = 0; k < opts->bench_count; k++) {
		if (br_stub_bench_index(session, opts->benches[k]) >= 0)
			continue;
		char have[BR_CB_MAX_BENCHES * (BR_CB_NAME_BYTES + 2U)] = "";
		size_t n = 0;
		for (uint32_t i = 0; i < session->bench_count && n < sizeof(have); i++)
			n += (size_t)snprintf(have + n, sizeof(have) - n, "%s%s", i > 0 ? ", " : "",
					      session->bench_names[i]);
		return br_error_set(err, BR_ERR_INPUT,
				    "bench '%s' is not in the firmware %s (it has: %s); add it to "
				    "the firmware's suite table or remove it from the suite file",
				    opts->benches[k], opts->elf_path, have);
	}
	return BR_OK;
}

static br_status_t measure_on_target(const br_suite_options_t *opts,
				     const br_stub_layout_t *layout, br_target_t *target,
				     br_suite_raw_t *out, br_error_t *err)
{
	br_stub_session_t session;
	br_status_t st = br_stub_session_open(&session, target, layout,
					      BR_SUITE_DEFAULT_START_TIMEOUT_MS, err);
	if (st != BR_OK)
		return st;
	st = select_benches(opts, &session, err);
	if (st != BR_OK)
		return st;
	uint32_t count = opts->benches != NULL ? (uint32_t)opts->bench_count : session.bench_count;
	out->results = xcalloc(count == 0 ? 1U : count, sizeof(out->results[0]));
	for (uint32_t k = 0; k < count; k++) {
		uint32_t i = opts->benches != NULL
				     ? (uint32_t)br_stub_bench_index(&session, opts->benches[k])
				     : k;
		const char *name = session.bench_names[i];
		if (opts->progress != NULL)
			opts->progress(opts->progress_ctx, k, count, name);
		br_stub_result_t *r = &out->results[out->count];
		st = br_stub_run(&session, i, opts->iterations, opts->warmup, opts->counter,
				 opts->bench_timeout_ms, r, err);
		if (st != BR_OK)
			return st;
		memcpy(out->names[out->count], name, BR_CB_NAME_BYTES);
		out->count++;
		if (opts->bench_done != NULL)
			opts->bench_done(opts->bench_done_ctx, name, r);
	}
	return check_counting(opts->counter, out, err);
}

br_status_t br_suite_measure(const br_suite_options_t *opts, br_suite_raw_t *out,
			     br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(opts->elf_path, &elf, err);
	if (st != BR_OK)
		return st;
	br_stub_layout_t layout;
	st = br_stub_layout_from_elf(elf, &layout, err);
	if (st == BR_OK)
		br_elf_build_id(elf, out->build_id, sizeof(out->build_id), NULL);
	br_elf_close(elf);
	if (st != BR_OK)
		return st;

	br_qemu_options_t qopts = {
		.program = opts->qemu_program,
		.machine = opts->machine,
		.kernel = opts->elf_path,
		.semihosting = false,
		.extra_args = opts->qemu_args,
		.extra_arg_count = opts->qemu_arg_count,
	};
	snprintf(out->server, sizeof(out->server), "%s -M %s", opts->qemu_program, opts->machine);
	br_server_t server;
	rsp_transport_t transport;
	st = br_server_launch_qemu(&qopts, &server, &transport, err);
	if (st != BR_OK)
		return st;
	br_target_t target;
	st = br_target_attach(&target, &transport, br_flavour_qemu(), err);
	if (st == BR_OK) {
		target.output = opts->output;
		target.output_ctx = opts->output_ctx;
		st = measure_on_target(opts, &layout, &target, out, err);
		br_target_close(&target);
	}
	if (st != BR_OK && !br_server_alive(&server)) {
		char tail[BR_SERVER_STDERR_TAIL];
		br_server_log_tail(&server, tail, sizeof(tail));
		br_error_prefix(err, "%s died%s%s", server.name, tail[0] ? " saying: " : "", tail);
	}
	br_server_stop(&server);
	return st;
}

void br_suite_raw_free(br_suite_raw_t *raw)
{
	free(raw->results);
	raw->results = NULL;
	raw->count = 0;
}
