#include "measure/suite_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "elf/elf_build_id.h"
#include "elf/elf_file.h"
#include "target/server.h"

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

/* A counter whose every delta is zero is not counting: refuse its figures. */
static br_status_t check_counting(const br_counter_t *counter, const char *bench,
				  const br_stub_result_t *r, br_error_t *err)
{
	for (uint32_t i = 0; i < r->count; i++) {
		if (r->samples[i] != 0)
			return BR_OK;
	}
	return br_error_set(err, BR_ERR_TARGET,
			    "counter %s at 0x%08x did not advance during bench %s: it is not "
			    "counting on this board, so no figure is reported; choose a counter "
			    "that runs here (on QEMU: TIM2)",
			    counter->name, counter->address, bench);
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
	out->results = xcalloc(session.bench_count, sizeof(out->results[0]));
	for (uint32_t i = 0; i < session.bench_count; i++) {
		const char *name = session.bench_names[i];
		if (opts->progress != NULL)
			opts->progress(opts->progress_ctx, i, session.bench_count, name);
		br_stub_result_t *r = &out->results[out->count];
		st = br_stub_run(&session, i, opts->iterations, opts->warmup, opts->counter,
				 opts->bench_timeout_ms, r, err);
		if (st == BR_OK)
			st = check_counting(opts->counter, name, r, err);
		if (st != BR_OK)
			return st;
		memcpy(out->names[out->count], name, BR_CB_NAME_BYTES);
		out->count++;
	}
	return BR_OK;
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
