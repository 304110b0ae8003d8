/* benchrack's own profile record (format.h; README.md has the shape). */
#include "profile/format.h"

#include <stdlib.h>

#include "results/contract.h"
#include "results/json_writer.h"

static void figure(br_json_t *j, const char *key, uint64_t v)
{
	br_json_key(j, key);
	br_json_uint(j, v);
}

/* The record's provenance and what it counted. */
static void write_head(br_json_t *j, const br_profile_t *p, const char *version)
{
	br_json_key(j, "kind");
	br_json_string(j, BR_CONTRACT_PROFILE);
	br_json_key(j, "schema_version");
	br_json_uint(j, BR_CONTRACT_PROFILE_VERSION);
	br_json_key(j, "benchrack_version");
	br_json_string(j, version);
	br_json_key(j, "mode");
	br_json_string(j, p->mode == BR_PROFILE_EXACT ? "exact" : "sampled");
	br_json_key(j, "elf");
	br_json_string(j, p->elf_path);
	br_json_key(j, "board");
	br_json_string(j, p->board);
	br_json_key(j, "server");
	br_json_string(j, p->server);
	br_json_key(j, "region");
	br_json_string(j, p->region);
	br_json_key(j, "unit");
	br_json_string(j, p->unit);
	figure(j, "counted", p->counted);
	br_json_key(j, "seconds");
	br_json_double(j, p->seconds);
	br_json_key(j, "source");
	br_json_string(j, p->pcsr ? "dwt_pcsr" : p->exec_log ? "qemu_exec_log" : "debug_port");
}

/* An exact profile's counter figures. */
static void write_exact(br_json_t *j, const br_profile_t *p)
{
	br_json_key(j, "counter");
	br_json_string(j, p->counter);
	br_json_key(j, "counter_delta");
	if (p->counter_known)
		br_json_uint(j, p->counter_delta);
	else
		br_json_null(j);
	figure(j, "step_limit", p->step_limit);
	figure(j, "sleeps", p->sleeps);
}

/* A sampled profile's figures: samples taken, lost and why, the cost, unwinding. */
static void write_sampled(br_json_t *j, const br_profile_t *p)
{
	br_json_key(j, "sampling");
	br_json_string(j, p->pcsr ? "dwt_pcsr" : "halting");
	br_json_key(j, "rate_hz");
	if (p->rate_hz > 0)
		br_json_double(j, p->rate_hz);
	else
		br_json_null(j);
	figure(j, "samples_taken", p->samples_taken);
	figure(j, "samples_lost", p->samples_lost);
	br_json_key(j, "samples_lost_reasons");
	br_json_object_begin(j);
	figure(j, "stack_not_read", p->lost_stack_not_read);
	figure(j, "at_region_end", p->lost_at_region_end);
	br_json_object_end(j);
	figure(j, "region_passes", p->region_passes);
	br_json_key(j, "interval_instructions");
	if (p->exec_log)
		br_json_uint(j, p->interval);
	else
		br_json_null(j);
	br_json_key(j, "bias_known");
	br_json_bool(j, p->exec_log || p->bias_known);
	figure(j, "outside_region", p->outside_region);
	figure(j, "server_writes", p->server_writes);
	br_json_key(j, "sample_cost_seconds");
	if (p->sample_cost_known) {
		br_json_object_begin(j);
		br_json_key(j, "median");
		br_json_double(j, p->sample_cost_median_s);
		br_json_key(j, "p90");
		br_json_double(j, p->sample_cost_p90_s);
		br_json_key(j, "mean");
		br_json_double(j, p->sample_cost_mean_s);
		br_json_object_end(j);
	} else {
		br_json_null(j);
	}
	br_json_key(j, "unwind");
	br_json_object_begin(j);
	figure(j, "cfi_frames", p->unwind.cfi);
	figure(j, "frame_record_frames", p->unwind.frame_record);
	figure(j, "link_register_frames", p->unwind.link_register);
	figure(j, "exception_frames", p->unwind.exception);
	figure(j, "failed_chains", p->unwind.failed_chains);
	br_json_object_end(j);
}

static void write_functions(br_json_t *j, const br_profile_t *p)
{
	br_profile_frame_figures_t f;
	br_profile_frame_figures_compute(p, &f);
	br_json_key(j, "functions");
	br_json_array_begin(j);
	for (size_t i = 0; i < p->nframes; i++) {
		br_json_object_begin(j);
		br_json_key(j, "name");
		br_json_string(j, p->frames[i].name);
		figure(j, "address", p->frames[i].address);
		br_json_key(j, "file");
		br_json_string_or_null(j, p->frames[i].file);
		figure(j, "line", p->frames[i].line);
		figure(j, "self", f.self[i]);
		figure(j, "total", f.total[i]);
		if (p->mode == BR_PROFILE_SAMPLED) {
			br_json_key(j, "self_share_error");
			br_json_double(j, f.self_err[i]);
			br_json_key(j, "total_share_error");
			br_json_double(j, f.total_err[i]);
		}
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_profile_frame_figures_free(&f);
}

static void write_lines_and_chains(br_json_t *j, const br_profile_t *p)
{
	br_json_key(j, "lines");
	br_json_array_begin(j);
	for (size_t i = 0; i < p->nlines; i++) {
		br_json_object_begin(j);
		br_json_key(j, "file");
		br_json_string(j, p->lines[i].file);
		figure(j, "line", p->lines[i].line);
		br_json_key(j, "function");
		br_json_string(j, p->frames[p->lines[i].frame].name);
		figure(j, "self", p->lines[i].count);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_key(j, "chains");
	br_json_array_begin(j);
	for (size_t i = 0; i < p->nchains; i++) {
		br_json_object_begin(j);
		br_json_key(j, "frames");
		br_json_array_begin(j);
		for (size_t d = 0; d < p->chains[i].depth; d++)
			br_json_string(j, p->frames[p->chains[i].frames[d]].name);
		br_json_array_end(j);
		figure(j, "count", p->chains[i].count);
		br_json_object_end(j);
	}
	br_json_array_end(j);
}

void br_profile_write_json(FILE *out, const br_profile_t *p, const char *version)
{
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	write_head(&j, p, version);
	if (p->mode == BR_PROFILE_EXACT)
		write_exact(&j, p);
	else
		write_sampled(&j, p);
	write_functions(&j, p);
	write_lines_and_chains(&j, p);
	br_json_object_end(&j);
	br_json_finish(&j);
}
