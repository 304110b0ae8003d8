#include "profile/profile_run.h"

#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "debug/server_kind.h"

#include "elf/elf_file.h"
#include "run/runner.h"
#include "measure/span.h"
#include "measure/stack_region.h"
#include "profile/exact.h"
#include "profile/exec_run.h"
#include "profile/lines.h"
#include "profile/pcsr_sampler.h"
#include "profile/sampler.h"
#include "profile/thumb_frame.h"

void br_profile_options_default(br_profile_options_t *o)
{
	memset(o, 0, sizeof(*o));
	o->max_steps = 0;
	o->exec_log = true;
	o->interval = BR_PROFILE_DEFAULT_INTERVAL;
	o->duration_s = BR_PROFILE_DEFAULT_DURATION_S;
	o->stack_window = BR_PROFILE_DEFAULT_STACK_WINDOW;
	o->unwind = BR_UNWIND_AUTO;
	o->counter = br_counter_qemu_tim2();
	o->timeout_ms = BR_MEASURE_DEFAULT_TIMEOUT_MS;
	o->load = BR_BOARD_LOAD_DEFAULT;
}

static br_status_t check_options(const br_profile_options_t *o, br_error_t *err)
{
	if ((o->from == NULL) != (o->to == NULL))
		return br_error_set(err, BR_ERR_USAGE, "--from and --to go together");
	if (o->from != NULL && o->function != NULL)
		return br_error_set(err, BR_ERR_USAGE,
		                    "--function profiles each call, --from/--to the time from "
		                    "reaching one to reaching the other: give one");
	if (o->exact && o->from == NULL && o->function == NULL)
		return br_error_set(err, BR_ERR_USAGE,
		                    "--exact steps one pass of a region: give --from X --to Y or "
		                    "--function NAME");
	if (o->pcsr && o->exact)
		return br_error_set(err, BR_ERR_USAGE,
		                    "--pcsr samples the running core, --exact steps it: give one");
	if (o->pcsr && (o->from != NULL || o->function != NULL))
		return br_error_set(
		    err, BR_ERR_USAGE,
		    "--pcsr gives a flat profile (the sampled PC, no call chain), "
		    "so it cannot tell which samples are inside --function or "
		    "--from/--to: it profiles everything; drop the region or --pcsr");
	if (!o->exact && !(o->duration_s > 0))
		return br_error_set(err, BR_ERR_USAGE, "--duration must be more than 0 seconds");
	return BR_OK;
}

static br_status_t resolve_region(const br_profile_options_t *o, const br_elf_t *elf,
                                  br_span_t *span, br_profile_t *out, br_error_t *err)
{
	memset(span, 0, sizeof(*span));
	br_status_t st = BR_OK;
	if (o->function != NULL) {
		st = br_span_function(elf, o->function, span, err);
		snprintf(out->region, sizeof(out->region), "function %s", o->function);
	} else if (o->from != NULL) {
		st = br_span_range(elf, o->from, o->to, span, err);
		snprintf(out->region, sizeof(out->region), "from %s to %s", o->from, o->to);
	} else {
		snprintf(out->region, sizeof(out->region), "%s",
		         o->pcsr ? "everything from reset (DWT_PCSR: flat, no call chains)"
		                 : "everything from reset");
	}
	return st;
}

static br_status_t profile_target(const br_profile_options_t *o, const br_elf_t *elf,
                                  const br_span_t *span, br_target_t *t,
                                  const br_counter_state_t *counter, br_profile_t *out,
                                  br_error_t *err)
{
	if (o->exact) {
		snprintf(out->counter, sizeof(out->counter), "%s", counter->counter.name);
		br_exact_options_t eo = {
		    .elf = elf,
		    .span = span,
		    .counter = counter,
		    .max_steps = o->max_steps != 0 ? o->max_steps : BR_EXACT_DEFAULT_MAX_STEPS,
		    .timeout_ms = o->timeout_ms,
		};
		return br_exact_run(t, &eo, out, err);
	}
	if (o->pcsr) {
		br_pcsr_options_t po = {
		    .elf = elf, .duration_s = o->duration_s, .rate_hz = o->rate_hz};
		return br_pcsr_sample(t, &po, out, err);
	}
	br_sampler_options_t so = {
	    .elf = elf,
	    .span = o->from != NULL || o->function != NULL ? span : NULL,
	    .duration_s = o->duration_s,
	    .rate_hz = o->rate_hz,
	    .stack_window = o->stack_window,
	    .unwind = o->unwind,
	    .timeout_ms = o->timeout_ms,
	};
	br_stack_region_t region;
	br_error_t ignored;
	if (br_stack_region_from_elf(elf, &region, &ignored) == BR_OK) {
		so.stack_top = region.low + region.size;
		so.stack_low = region.low;
	}
	return br_sampler_run(t, &so, out, err);
}

/* The profile from QEMU's execution log (exec_run.h). */
static br_status_t profile_exec_log(const br_profile_options_t *o, const br_elf_t *elf,
                                    const br_span_t *span, br_target_t *t, br_exec_fifo_t *f,
                                    br_profile_t *out, br_error_t *err)
{
	bool region = o->from != NULL || o->function != NULL;
	br_exec_run_options_t xo = {
	    .log =
	        {
	            .elf = elf,
	            .span = region ? span : NULL,
	            .max_steps =
	                o->max_steps != 0 ? o->max_steps : BR_PROFILE_LOG_DEFAULT_MAX_STEPS,
	            .sample_every = o->exact ? 0 : (o->interval > 0 ? o->interval : 1U),
	            .seed = (uint64_t)br_clock_ns(),
	        },
	    .duration_s = o->duration_s,
	    .timeout_ms = o->timeout_ms,
	    .progress = o->progress,
	    .progress_ctx = o->progress_ctx,
	};
	out->step_limit = xo.log.max_steps;
	out->exec_log = true;
	out->interval = xo.log.sample_every;
	return br_exec_run(t, f, &xo, out, err);
}

/* Whether the profile reads the board's counter: --exact over the debug port
 * does (its cross-check of the region's length, exact.h); sampling and QEMU's
 * execution log count without one. */
static bool reads_counter(const br_profile_options_t *o, bool use_log)
{
	return o->exact && !use_log;
}

/* The profile on the board ep reaches, through the runner; from QEMU's
 * execution log when fifo is not NULL. A counter the profile does not read
 * is not started (br_runner_options_t.no_counter): QEMU's icount would put
 * QEMU in record mode, where a running core answers no interrupt, and both
 * sampling and the end of an execution log's pass stop the core by one. */
static br_status_t profile_on_board(const br_profile_options_t *o, const br_elf_t *elf,
                                    const br_span_t *span, const br_endpoint_t *ep,
                                    br_exec_fifo_t *fifo, br_profile_t *out, br_error_t *err)
{
	br_runner_options_t ro = {
	    .endpoint = ep,
	    .elf_path = o->elf_path,
	    .load = o->load,
	    .counter = o->counter,
	    .no_counter = !reads_counter(o, fifo != NULL),
	    .output = o->link.output,
	    .output_ctx = o->link.output_ctx,
	    .load_progress = o->link.load_progress,
	    .load_progress_ctx = o->link.load_progress_ctx,
	};
	br_runner_t r;
	br_status_t st = br_runner_open(&ro, &r, err);
	snprintf(out->server, sizeof(out->server), "%s", r.server);
	if (st != BR_OK)
		return st;
	/* Halting a real core in real time draws samples uniformly over time;
	 * QEMU's host time is not its instructions' (README: measured). */
	const br_flavour_t *fl = r.session.target.flavour;
	out->bias_known = fl != NULL && strcmp(fl->name, BR_FLAVOUR_QEMU_NAME) != 0;
	st = fifo != NULL ? profile_exec_log(o, elf, span, &r.session.target, fifo, out, err)
	                  : profile_target(o, elf, span, &r.session.target, &r.counter, out, err);
	if (st != BR_OK)
		br_runner_explain(&r, err);
	br_runner_close(&r);
	return st;
}

/* The WFI/WFE instructions among those counted (each distinct PC looked at once). */
static uint64_t sleeps_counted(const br_profile_t *p, const br_elf_t *elf)
{
	uint64_t n = 0;
	for (size_t i = 0; i < p->pcs_cap; i++)
		if (p->pcs[i].count > 0 && br_thumb_is_sleep(elf, p->pcs[i].pc))
			n += p->pcs[i].count;
	return n;
}

/* What is read from the ELF once the counting is done: the source lines,
 * and (exact) how often the core slept. */
static void profile_finish(br_profile_t *out, const br_elf_t *elf)
{
	br_profile_resolve_lines(out, elf);
	if (out->mode == BR_PROFILE_EXACT)
		out->sleeps = sleeps_counted(out, elf);
}

br_status_t br_profile_run(const br_profile_options_t *o, br_profile_t *out, br_error_t *err)
{
	br_profile_data_init(out, o->exact ? BR_PROFILE_EXACT : BR_PROFILE_SAMPLED);
	snprintf(out->elf_path, sizeof(out->elf_path), "%s", o->elf_path);
	snprintf(out->unit, sizeof(out->unit), "%s",
	         o->exact  ? "instructions (single-stepped)"
	         : o->pcsr ? "samples (DWT_PCSR, flat)"
	                   : "samples");
	out->rate_hz = o->rate_hz;
	br_status_t st = check_options(o, err);
	if (st != BR_OK)
		return st;
	br_elf_t *elf = NULL;
	st = br_elf_open(o->elf_path, &elf, err);
	if (st != BR_OK)
		return st;
	br_span_t span;
	st = resolve_region(o, elf, &span, out, err);
	br_endpoint_t ep;
	char host[BR_MEASURE_HOST_BYTES];
	br_measure_options_t mo;
	br_measure_options_default(&mo);
	mo.elf_path = o->elf_path;
	mo.link = o->link;
	mo.endpoint = o->endpoint;
	if (st == BR_OK)
		st = br_measure_endpoint(&mo, &ep, host, sizeof(host), err);
	if (st == BR_OK && o->pcsr && ep.kind == BR_SERVER_KIND_QEMU)
		st = br_error_set(err, BR_ERR_USAGE,
		                  "--pcsr reads DWT_PCSR while the core runs: QEMU implements no "
		                  "DWT and its gdbstub stops the machine on any packet; give a "
		                  "real board behind OpenOCD (--board), or sample by halting "
		                  "instead (drop --pcsr)");
	if (st == BR_OK)
		snprintf(out->board, sizeof(out->board), "%s",
		         ep.kind == BR_SERVER_KIND_QEMU ? ep.launch.params[BR_QEMU_KEY_MACHINE]
		                                        : br_server_kind_name(ep.kind));
	bool use_log = st == BR_OK && ep.kind == BR_SERVER_KIND_QEMU && o->exec_log && !o->pcsr;
	if (use_log && !o->exact && o->rate_hz > 0)
		st = br_error_set(
		    err, BR_ERR_USAGE,
		    "--rate paces samples in host time; from QEMU's execution log (the "
		    "default on the QEMU benchrack launches) samples are taken at "
		    "instruction counts: give --interval N, or --no-exec-log to "
		    "halt the core at a --rate");
	br_exec_fifo_t fifo;
	memset(&fifo, 0, sizeof(fifo));
	fifo.fd = -1;
	const char *args[BR_SERVER_MAX_EXTRA_ARGS];
	if (use_log && st == BR_OK) {
		st = br_exec_fifo_open(&fifo, err);
		size_t n = 0;
		for (; n < ep.launch.extra_arg_count && n < BR_SERVER_MAX_EXTRA_ARGS; n++)
			args[n] = ep.launch.extra_args[n];
		if (st == BR_OK && n + BR_EXEC_QEMU_ARGS > BR_SERVER_MAX_EXTRA_ARGS)
			st = br_error_set(err, BR_ERR_USAGE,
			                  "the board's %zu QEMU arguments leave no room for the "
			                  "execution log's %u: give --no-exec-log",
			                  n, BR_EXEC_QEMU_ARGS);
		for (size_t i = 0; st == BR_OK && i < BR_EXEC_QEMU_ARGS; i++)
			args[n++] = fifo.args[i];
		ep.launch.extra_args = args;
		ep.launch.extra_arg_count = n;
		snprintf(out->unit, sizeof(out->unit), "%s",
		         o->exact ? "instructions (QEMU's execution log)"
		                  : "samples (QEMU's execution log, at instruction counts)");
	}
	if (st == BR_OK)
		st = profile_on_board(o, elf, &span, &ep, use_log ? &fifo : NULL, out, err);
	br_exec_fifo_close(&fifo);
	profile_finish(out, elf);
	br_elf_close(elf);
	return st;
}
