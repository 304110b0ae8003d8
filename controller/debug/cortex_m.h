/*
 * What the core says about itself through memory-mapped debug registers
 * (ARMv7-M / ARMv8-M Architecture Reference Manuals): CPUID (B3.2.3), the
 * DWT cycle counter (C1.8) and the FPB's comparators (C1.11). Used by
 * `benchrack probe` and by whoever needs the comparator count.
 */
#ifndef BENCHRACK_TARGET_CORTEX_M_H
#define BENCHRACK_TARGET_CORTEX_M_H

#include <stdbool.h>
#include <stdint.h>

#include "benchrack/debug_regs.h"
#include "common/error.h"
#include "debug/target.h"

/* CPUID's fields (the registers: benchrack/debug_regs.h). */
#define BR_CPUID_IMPLEMENTER_SHIFT 24U
#define BR_CPUID_VARIANT_SHIFT 20U
#define BR_CPUID_PARTNO_SHIFT 4U
#define BR_CPUID_PARTNO_MASK 0xFFFU
#define BR_CPUID_NIBBLE_MASK 0xFU
#define BR_CPUID_IMPLEMENTER_ARM 0x41U

typedef enum br_cyccnt_state {
	BR_CYCCNT_ABSENT,       /* NOCYCCNT set, or no DWT (Cortex-M0/M0+) */
	BR_CYCCNT_NOT_COUNTING, /* claims to be there, but did not advance (QEMU) */
	BR_CYCCNT_COUNTING,     /* advanced across a short run */
	BR_CYCCNT_NOT_RUN,      /* there, but the core was not run (no firmware) */
} br_cyccnt_state_t;

typedef struct br_cortex_m_info {
	uint32_t cpuid;
	uint32_t implementer;
	uint32_t variant;
	uint32_t partno;
	uint32_t revision;
	const char *core; /* "Cortex-M4", or NULL when the part is unknown */
	uint32_t fpb_ctrl;
	unsigned fpb_comparators; /* NUM_CODE */
	uint32_t dwt_ctrl;
	br_cyccnt_state_t cyccnt;
	uint32_t cyccnt_before, cyccnt_after;
} br_cortex_m_info_t;

/* The core's name for a CPUID PartNo (ARM implementer), or NULL. */
const char *br_cortex_m_core_name(uint32_t partno);

/* Splits a CPUID value into info's CPUID fields and core name. */
void br_cortex_m_decode_cpuid(uint32_t cpuid, br_cortex_m_info_t *info);

/* NUM_CODE of an FPB_CTRL value: the number of instruction comparators. */
unsigned br_cortex_m_fpb_comparators(uint32_t fpb_ctrl);

/*
 * Reads CPUID, FPB_CTRL and DWT_CTRL of the halted core into info.
 * BR_ERR_TARGET when CPUID cannot be read or is not an ARM Cortex-M.
 */
br_status_t br_cortex_m_identify(br_target_t *t, br_cortex_m_info_t *info, br_error_t *err);

/*
 * Whether DWT_CYCCNT exists and advances: enables it (DEMCR.TRCENA,
 * DWT_CTRL.CYCCNTENA; on Cortex-M7 unlocks DWT_LAR first), reads it, runs
 * `steps` single steps, reads it again. The core runs only when the vector
 * table holds a reset vector (not 0, not erased flash): otherwise NOT_RUN.
 * Sets info->cyccnt and the two readings. Needs br_cortex_m_identify first.
 */
br_status_t br_cortex_m_check_cyccnt(br_target_t *t, br_cortex_m_info_t *info, unsigned steps,
                                     br_error_t *err);

/* "absent", "absent/not counting", "counting", "not checked (no firmware to run)". */
const char *br_cyccnt_state_name(br_cyccnt_state_t state);

#endif
