#include "profile/profile_run.h"

#include <stdio.h>
#include <string.h>

#include "elf/elf_file.h"
#include "run/runner.h"
#include "measure/span.h"
#include "measure/stack_region.h"
#include "profile/exact.h"
#include "profile/lines.h"
#include "profile/pcsr_sampler.h"
#include "profile/sampler.h"

void br_profile_options_default(br_profile_options_t *o)
{
	memset(o, 0, sizeof(*o));
	o->max_steps = BR_EXACT_DEFAULT_MAX_STEPS;
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
		    .max_steps = o->max_steps,
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
	if (st == BR_OK && o->pcsr && ep.kind == BR_ENDPOINT_QEMU)
		st = br_error_set(err, BR_ERR_USAGE,
		                  "--pcsr reads DWT_PCSR while the core runs: QEMU implements no "
		                  "DWT and its gdbstub stops the machine on any packet; give a "
		                  "real board behind OpenOCD (--board), or sample by halting "
		                  "instead (drop --pcsr)");
	if (st == BR_OK)
		snprintf(out->board, sizeof(out->board), "%s",
		         ep.kind == BR_ENDPOINT_QEMU ? ep.qemu.machine
		                                     : br_endpoint_kind_name(ep.kind));
	if (st == BR_OK) {
		br_runner_options_t ro = {
		    .endpoint = &ep,
		    .elf_path = o->elf_path,
		    .load = o->load,
		    .counter = o->counter,
		    .output = o->link.output,
		    .output_ctx = o->link.output_ctx,
		    .load_progress = o->link.load_progress,
		    .load_progress_ctx = o->link.load_progress_ctx,
		};
		br_runner_t r;
		st = br_runner_open(&ro, &r, err);
		snprintf(out->server, sizeof(out->server), "%s", r.server);
		if (st == BR_OK) {
			st = profile_target(o, elf, &span, &r.session.target, &r.counter, out, err);
			if (st != BR_OK)
				br_runner_explain(&r, err);
			br_runner_close(&r);
		}
	}
	br_profile_resolve_lines(out, elf);
	br_elf_close(elf);
	return st;
}
