#include "measure/measure_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "elf/elf_file.h"
#include "elf/elf_symbols.h"
#include "measure/counter_target.h"
#include "rsp/transport.h"

#define MEASURE_NS_PER_S 1e9

void br_measure_options_default(br_measure_options_t *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->iterations = BR_MEASURE_DEFAULT_ITERATIONS;
	opts->warmup = BR_MEASURE_DEFAULT_WARMUP;
	opts->counter = br_counter_qemu_tim2();
	opts->breakpoint_kind = BR_BREAKPOINT_AUTO;
	opts->timeout_ms = BR_MEASURE_DEFAULT_TIMEOUT_MS;
}

br_status_t br_measure_endpoint(const br_measure_options_t *opts, br_endpoint_t *ep, char *host,
                                size_t host_cap, br_error_t *err)
{
	const br_link_options_t *l = &opts->link;
	if (opts->endpoint != NULL) {
		*ep = *opts->endpoint;
	} else {
		br_endpoint_init(ep);
		if (l->qemu_program != NULL)
			ep->launch.program = l->qemu_program;
		if (l->machine != NULL)
			ep->launch.params[BR_QEMU_KEY_MACHINE] = l->machine;
		ep->launch.extra_args = l->qemu_args;
		ep->launch.extra_arg_count = l->qemu_arg_count;
		ep->flavour = l->flavour;
		if (l->remote != NULL) {
			ep->kind = BR_SERVER_KIND_REMOTE;
			ep->host = host;
			br_status_t st =
			    rsp_transport_parse_hostport(l->remote, host, host_cap, &ep->port, err);
			if (st != BR_OK)
				return st;
		}
	}
	if (br_endpoint_kind(ep)->takes_image && ep->launch.kernel == NULL)
		ep->launch.kernel = opts->elf_path;
	return BR_OK;
}

/* The combinations of what-to-measure options that mean something. */
static br_status_t check_options(const br_measure_options_t *o, br_error_t *err)
{
	if ((o->from == NULL) != (o->to == NULL))
		return br_error_set(err, BR_ERR_USAGE, "--from and --to go together");
	if (o->from != NULL && o->function != NULL)
		return br_error_set(err, BR_ERR_USAGE,
		                    "--function measures calls, --from/--to a range: give one");
	if (o->from == NULL && o->function == NULL && o->bench == NULL)
		return br_error_set(err, BR_ERR_USAGE,
		                    "nothing to measure: give --from X --to Y, --function NAME, or "
		                    "--bench NAME for a stub firmware");
	if (o->iterations == 0)
		return br_error_set(err, BR_ERR_USAGE, "at least one iteration is needed");
	if (o->bench != NULL && o->from == NULL && o->function == NULL &&
	    o->iterations > BR_CB_MAX_SAMPLES)
		return br_error_set(err, BR_ERR_USAGE,
		                    "%u iterations: the stub keeps at most %u samples per bench",
		                    o->iterations, BR_CB_MAX_SAMPLES);
	if (o->stack && o->from == NULL && o->function == NULL)
		return br_error_set(err, BR_ERR_USAGE,
		                    "--stack paints for breakpoint sessions; a stub bench always "
		                    "reports its stack");
	return BR_OK;
}

/* Everything learned from the ELF before a server starts. */
static br_status_t read_elf(const br_measure_options_t *o, br_measure_raw_t *out,
                            br_stub_layout_t *layout, br_error_t *err)
{
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(o->elf_path, &elf, err);
	if (st != BR_OK)
		return st;
	br_elf_build_id(elf, out->build_id, sizeof(out->build_id), NULL);
	st = br_elf_sizes_compute(elf, &out->sizes, err);
	br_elf_symbol_t cb;
	bool has_stub = br_elf_symbol_find(elf, BR_CONTROL_BLOCK_SYMBOL, &cb, NULL) == BR_OK;
	if (st == BR_OK && o->bench != NULL && !has_stub)
		st = br_error_set(
		    err, BR_ERR_USAGE,
		    "%s has no benchrack stub (no %s): --bench needs a suite firmware; "
		    "measure this one's code with --from/--to or --function",
		    o->elf_path, BR_CONTROL_BLOCK_SYMBOL);
	else if (st == BR_OK && o->bench != NULL)
		st = br_stub_layout_from_elf(elf, layout, err);
	else if (st == BR_OK && has_stub)
		st =
		    br_error_set(err, BR_ERR_USAGE,
		                 "%s is a stub firmware: its code runs only when the host asks for "
		                 "a bench; add --bench NAME",
		                 o->elf_path);
	if (st == BR_OK && (o->from != NULL || o->function != NULL))
		st = br_halt_proof_from_elf(elf, o->elf_path,
		                            o->endpoint != NULL ? &o->endpoint->memory_map : NULL,
		                            &out->proof, err);
	if (st == BR_OK && o->from != NULL)
		st = br_span_range(elf, o->from, o->to, &out->span, err);
	else if (st == BR_OK && o->function != NULL)
		st = br_span_function(elf, o->function, &out->span, err);
	if (st == BR_OK && o->stack) {
		out->stack_painted = true;
		if (o->stack_region != NULL)
			out->stack_region = *o->stack_region;
		else
			st = br_stack_region_from_elf(elf, &out->stack_region, err);
	}
	br_elf_close(elf);
	return st;
}

/* Copies a stub result's samples into the raw arrays, each marked measured
 * (run/ applies the wrap check to the batch, with r->host_seconds); wall is
 * the host time the request took, from writing it to reading back. */
static void keep_stub_samples(br_measure_raw_t *out, const br_stub_result_t *r, double wall)
{
	out->count = r->count;
	out->ticks = xcalloc(r->count == 0 ? 1U : r->count, sizeof(out->ticks[0]));
	out->measured = xcalloc(r->count == 0 ? 1U : r->count, sizeof(out->measured[0]));
	for (uint32_t i = 0; i < r->count; i++) {
		out->ticks[i] = r->samples[i];
		out->measured[i] = true;
	}
	out->wall_seconds = wall;
}

/* Copies a breakpoint session's samples into the raw arrays. */
static void keep_bp_samples(br_measure_raw_t *out)
{
	out->count = out->bp.count;
	out->ticks = xcalloc(out->count == 0 ? 1U : out->count, sizeof(out->ticks[0]));
	out->measured = xcalloc(out->count == 0 ? 1U : out->count, sizeof(out->measured[0]));
	for (size_t i = 0; i < out->count; i++) {
		out->ticks[i] = out->bp.samples[i].ticks;
		out->measured[i] = out->bp.samples[i].measured;
	}
	out->wall_seconds = out->bp.wall_seconds;
	br_calibration_from_resume(out->bp.samples, out->bp.count, &out->calibration);
}

static br_status_t run_breakpoints(const br_measure_options_t *o, br_target_t *t,
                                   br_measure_raw_t *out, br_error_t *err)
{
	br_bp_options_t bo = {
	    .counter = &out->counter,
	    .samples = o->iterations,
	    .warmup = o->warmup,
	    .timeout_ms = o->timeout_ms,
	    .kind = o->breakpoint_kind,
	    .stack = out->stack_painted ? &out->stack_region : NULL,
	    .proof = &out->proof,
	    .idle_check_ms = o->fewer_ok ? BR_MEASURE_IDLE_CHECK_MS : 0,
	};
	br_status_t st = br_bp_session_run(t, &out->span, &bo, &out->bp, err);
	keep_bp_samples(out);
	if (st == BR_ERR_TIMEOUT && out->bp.ran_out && out->count > 0 && o->fewer_ok)
		st = BR_OK; /* the samples taken are the result; the report says how many */
	return st;
}

/* The stub's bench: alone in batch mode (calibrated by the empty bench), or
 * with a breakpoint session measuring a region of it. */
static br_status_t run_bench(const br_measure_options_t *o, const br_stub_layout_t *layout,
                             br_target_t *t, br_measure_raw_t *out, br_error_t *err)
{
	br_stub_session_t session;
	br_status_t st =
	    br_stub_session_open(&session, t, layout, BR_MEASURE_START_TIMEOUT_MS, err);
	if (st != BR_OK)
		return st;
	int index = br_stub_bench_index(&session, o->bench);
	if (index < 0)
		return br_error_set(err, BR_ERR_USAGE, "%s has no bench called '%s'", o->elf_path,
		                    o->bench);
	snprintf(out->bench, sizeof(out->bench), "%s", o->bench);
	out->bench_argument = o->bench_argument;
	out->stub = xcalloc(1, sizeof(*out->stub));
	br_stub_request_t req = {
	    .bench_index = (uint32_t)index,
	    .iterations = o->iterations,
	    .warmup = o->warmup,
	    .argument = o->bench_argument,
	    .counter = &out->counter.counter,
	    .guard = out->mode == BR_MEASURE_STUB ? &out->counter : NULL,
	};
	if (out->mode == BR_MEASURE_BREAKPOINT) {
		/* One pass of the bench body per sample, and one to spare. */
		req.iterations = 1;
		req.warmup = o->warmup + o->iterations + 1U;
		req.breakpoints_measure = true;
		st = br_stub_request_write(&session, &req, err);
		if (st == BR_OK)
			st = run_breakpoints(o, t, out, err);
		/* A core nobody can stop (breakpoint_session.h, left_running) runs
		 * the bench on: its samples stay, its results cannot be read. */
		if (st == BR_OK && out->bp.left_running)
			return br_error_set(err, BR_ERR_TIMEOUT,
			                    "ran %zu of %u times within the timeout, and bench %s, "
			                    "still running, cannot be finished to read its stack "
			                    "and heap",
			                    out->bp.count, o->iterations, o->bench);
		if (st == BR_OK)
			st = br_stub_request_finish(&session, o->timeout_ms, out->stub, err);
		return st;
	}
	int empty = br_stub_bench_index(&session, BR_CALIBRATION_EMPTY_BENCH);
	if (empty >= 0) {
		br_stub_request_t cal = req;
		cal.bench_index = (uint32_t)empty;
		cal.argument = 0;
		st = br_stub_run_request(&session, &cal, o->timeout_ms, out->stub, err);
		if (st != BR_OK)
			return br_error_prefix(err, "calibrating");
		br_calibration_from_stub(out->stub, &out->calibration);
	}
	int64_t t0 = br_clock_ns();
	st = br_stub_run_request(&session, &req, o->timeout_ms, out->stub, err);
	double wall = (double)(br_clock_ns() - t0) / MEASURE_NS_PER_S;
	if (st == BR_OK)
		keep_stub_samples(out, out->stub, wall);
	return st;
}

br_status_t br_measure_prepare(const br_measure_options_t *opts, br_measure_raw_t *out,
                               br_stub_layout_t *layout, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	memset(layout, 0, sizeof(*layout));
	br_calibration_none(&out->calibration);
	out->asked = opts->iterations;
	br_status_t st = check_options(opts, err);
	if (st != BR_OK)
		return st;
	out->mode =
	    opts->from != NULL || opts->function != NULL ? BR_MEASURE_BREAKPOINT : BR_MEASURE_STUB;
	return read_elf(opts, out, layout, err);
}

br_status_t br_measure_take(const br_measure_options_t *opts, const br_stub_layout_t *layout,
                            br_target_t *target, const br_counter_state_t *counter,
                            br_measure_raw_t *out, br_error_t *err)
{
	out->counter = *counter;
	if (out->mode == BR_MEASURE_BREAKPOINT) {
		/* the marker as the target's memory map picks it (the runner armed
		 * the same one): flash by the map, not by the segment's flags */
		br_status_t st = br_halt_proof_arm(target, opts->elf_path, &out->proof, err);
		if (st != BR_OK)
			return st;
	}
	if (opts->bench != NULL)
		return run_bench(opts, layout, target, out, err);
	return run_breakpoints(opts, target, out, err);
}

void br_measure_raw_free(br_measure_raw_t *raw)
{
	free(raw->ticks);
	free(raw->measured);
	free(raw->stub);
	raw->ticks = NULL;
	raw->measured = NULL;
	raw->stub = NULL;
	raw->count = 0;
	br_bp_result_free(&raw->bp);
	br_calibration_free(&raw->calibration);
}
