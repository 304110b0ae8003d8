/*
 * DWT_PCSR sampling (`benchrack profile --pcsr`): the PC of the running core
 * read from DWT_PCSR (0xE000101C; ARMv7-M ARM C1.8.7, ARMv6-M ARM C1.7.2)
 * over the debug port, never halting it — a flat profile: the function of
 * each sampled PC, no call chains (the stack cannot be read consistently
 * while the core runs). Needs a server that reads memory while the core runs
 * (debug/target_background.h: OpenOCD) and a core with a DWT; QEMU has
 * neither and is refused before anything is sent.
 *
 * Before sampling, with the core halted: CPUID names the core, DWT_CTRL's
 * NUMCOMP must not be 0 on ARMv6-M and ARMv8-M Baseline cores (Cortex-M0,
 * M0+, M23: their DWT_PCSR comes with the DWT), DEMCR.TRCENA is set (the
 * DWT is powered by it). Then the core runs in the background and the first
 * reads are checked: all 0 — no PC sampling here (DWT_PCSR reads as zero
 * where it is not implemented): refused; all 0xFFFFFFFF — the core cannot
 * be sampled (halted, or non-invasive debug not permitted): refused. While
 * sampling, a read of 0xFFFFFFFF or one the server refused counts as lost.
 *
 * rate_hz 0 reads as fast as the server answers (BR_PCSR_READS_PER_WRITE
 * reads in one write: consecutive samples are then microseconds apart, not
 * independent, which the batch-means error reflects); otherwise one read per
 * interval drawn uniformly from [T/2, 3T/2) as the halting sampler does.
 * Not run on hardware: no board is attached to any machine this was built
 * on; the path is tested against a fake server (tests/unit/profile).
 */
#ifndef BENCHRACK_PROFILE_PCSR_SAMPLER_H
#define BENCHRACK_PROFILE_PCSR_SAMPLER_H

#include "common/error.h"
#include "debug/target.h"
#include "elf/elf_file.h"
#include "profile/profile_data.h"

/* DWT_PCSR reads per write when sampling as fast as possible. */
#define BR_PCSR_READS_PER_WRITE 8U
/* Reads that must show one sampled PC before sampling starts. */
#define BR_PCSR_PROBE_READS 16U

typedef struct br_pcsr_options {
	const br_elf_t *elf;
	double duration_s;
	double rate_hz; /* 0: as fast as the server answers */
} br_pcsr_options_t;

/*
 * Samples DWT_PCSR of the halted core t for o->duration_s into out (a
 * profile initialised for BR_PROFILE_SAMPLED: every sample counts, its chain
 * is the sampled function alone) and leaves the core halted. BR_ERR_USAGE
 * when the server cannot read memory while the core runs; BR_ERR_TARGET when
 * the core has no DWT or DWT_PCSR gives no PC (see above); the target's
 * errors end it (what was sampled before is kept).
 */
br_status_t br_pcsr_sample(br_target_t *t, const br_pcsr_options_t *o, br_profile_t *out,
                           br_error_t *err);

#endif
