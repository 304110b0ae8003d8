/*
 * DWT_PCSR sampling without halting (profile/pcsr_sampler.h).
 */
#include "profile/pcsr_sampler.h"

#include <string.h>

#include "common/clock.h"
#include "debug/cortex_m.h"
#include "debug/target_background.h"
#include "profile/frame_names.h"
#include "profile/pacing.h"

#define NS_PER_S 1000000000LL
/* CPUID PartNo of the cores whose DWT_PCSR comes only with a DWT of at
 * least one comparator (their TRMs: Cortex-M0 DDI 0432C 6.1.3, Cortex-M0+
 * DDI 0484C 7.1.3, Cortex-M23 DDI 0550C 7.1.3). */
static const uint32_t dwt_optional_parts[] = {0xC20U, 0xC60U, 0xD20U};

/* What the core says before it runs: named, with a DWT, TRCENA set. */
static br_status_t prepare_core(br_target_t *t, br_error_t *err)
{
	br_cortex_m_info_t info;
	memset(&info, 0, sizeof(info));
	br_status_t st = br_cortex_m_identify(t, &info, err);
	if (st != BR_OK)
		return st;
	uint32_t dwt_ctrl = 0;
	st = br_target_read_u32(t, BR_DWT_CTRL, &dwt_ctrl, err);
	if (st != BR_OK)
		return br_error_prefix(err, "reading DWT_CTRL");
	for (size_t i = 0; i < sizeof(dwt_optional_parts) / sizeof(dwt_optional_parts[0]); i++)
		if (info.partno == dwt_optional_parts[i] &&
		    dwt_ctrl >> BR_DWT_CTRL_NUMCOMP_SHIFT == 0U)
			return br_error_set(
			    err, BR_ERR_TARGET,
			    "--pcsr: this %s was built without a DWT (DWT_CTRL "
			    "0x%08x: no comparators), so it has no DWT_PCSR; sample "
			    "by halting instead (drop --pcsr)",
			    info.core, dwt_ctrl);
	uint32_t demcr = 0;
	st = br_target_read_u32(t, BR_DEMCR, &demcr, err);
	if (st == BR_OK && (demcr & BR_DEMCR_TRCENA) == 0U)
		st = br_target_write_u32(t, BR_DEMCR, demcr | BR_DEMCR_TRCENA, err);
	if (st != BR_OK)
		return br_error_prefix(err, "setting DEMCR.TRCENA (the DWT's power)");
	return BR_OK;
}

/* The first reads, with the core running: is there a sampled PC at all? */
static br_status_t probe_pcsr(br_target_t *t, br_error_t *err)
{
	unsigned zeros = 0, unsampled = 0, refused = 0;
	for (unsigned done = 0; done < BR_PCSR_PROBE_READS; done += BR_PCSR_READS_PER_WRITE) {
		uint32_t v[BR_PCSR_READS_PER_WRITE];
		bool ok[BR_PCSR_READS_PER_WRITE];
		br_status_t st = br_target_background_read_u32s(t, BR_DWT_PCSR, v, ok,
		                                                BR_PCSR_READS_PER_WRITE, err);
		if (st != BR_OK)
			return br_error_prefix(err, "reading DWT_PCSR");
		for (unsigned i = 0; i < BR_PCSR_READS_PER_WRITE; i++) {
			if (!ok[i])
				refused++;
			else if (v[i] == 0U)
				zeros++;
			else if (v[i] == BR_DWT_PCSR_NOT_SAMPLED)
				unsampled++;
			else
				return BR_OK;
		}
	}
	if (refused == BR_PCSR_PROBE_READS)
		return br_error_set(err, BR_ERR_TARGET,
		                    "--pcsr: the server refused every read of DWT_PCSR (0x%08x) "
		                    "while the core ran",
		                    BR_DWT_PCSR);
	if (unsampled > 0)
		return br_error_set(err, BR_ERR_TARGET,
		                    "--pcsr: DWT_PCSR read 0xFFFFFFFF %u times and never a PC: the "
		                    "core is halted, or runs where non-invasive debug is not "
		                    "permitted",
		                    unsampled);
	return br_error_set(err, BR_ERR_TARGET,
	                    "--pcsr: DWT_PCSR reads 0 (%u of %u reads): this core implements "
	                    "no PC sampling (an emulator such as QEMU implements no DWT); "
	                    "sample by halting instead (drop --pcsr)",
	                    zeros, BR_PCSR_PROBE_READS);
}

/* Counts one read: a PC (its function, flat) or a lost sample. */
static void count_read(br_frame_names_t *names, uint32_t value, bool ok, br_profile_t *out)
{
	out->samples_taken++;
	if (!ok || value == BR_DWT_PCSR_NOT_SAMPLED || value == 0U) {
		out->samples_lost++;
		return;
	}
	uint32_t pc = value & ~1U;
	uint32_t frame = br_frame_names_of(names, pc, NULL);
	br_profile_add_sequence(out, br_profile_add_chain(out, &frame, 1, 1));
	br_profile_add_pc(out, pc, frame, 1);
	out->counted++;
}

br_status_t br_pcsr_sample(br_target_t *t, const br_pcsr_options_t *o, br_profile_t *out,
                           br_error_t *err)
{
	if (!br_target_background_supported(t))
		return br_error_set(err, BR_ERR_USAGE,
		                    "--pcsr reads DWT_PCSR while the core runs, which %s cannot "
		                    "do%s; sample by halting instead (drop --pcsr)",
		                    t->flavour->description,
		                    strcmp(t->flavour->name, BR_FLAVOUR_QEMU_NAME) == 0
		                        ? " (its gdbstub stops the machine on any packet, and "
		                          "QEMU implements no DWT)"
		                        : " (OpenOCD can)");
	out->pcsr = true;
	br_status_t st = prepare_core(t, err);
	if (st != BR_OK)
		return st;
	st = br_target_background_run(t, err);
	if (st != BR_OK)
		return st;
	st = probe_pcsr(t, err);
	br_frame_names_t names;
	br_frame_names_init(&names, o->elf, out);
	unsigned long writes_before = rsp_client_counters(t->rsp)->write_calls;
	int64_t start = br_clock_ns();
	int64_t end = start + (int64_t)(o->duration_s * (double)NS_PER_S);
	br_pacing_t pacing;
	br_pacing_start(&pacing, o->rate_hz, start);
	size_t per_write = o->rate_hz > 0 ? 1U : BR_PCSR_READS_PER_WRITE;
	while (st == BR_OK && br_clock_ns() < end) {
		br_pacing_wait(&pacing);
		uint32_t v[BR_PCSR_READS_PER_WRITE];
		bool ok[BR_PCSR_READS_PER_WRITE];
		st = br_target_background_read_u32s(t, BR_DWT_PCSR, v, ok, per_write, err);
		for (size_t i = 0; st == BR_OK && i < per_write; i++)
			count_read(&names, v[i], ok[i], out);
	}
	out->seconds = (double)(br_clock_ns() - start) / (double)NS_PER_S;
	out->server_writes = rsp_client_counters(t->rsp)->write_calls - writes_before;
	br_frame_names_free(&names);
	br_error_t halt_err;
	br_status_t hst = br_target_background_halt(t, st == BR_OK ? err : &halt_err);
	return st != BR_OK ? st : hst;
}
