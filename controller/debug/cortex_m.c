#include "debug/cortex_m.h"

#include <stddef.h>

typedef struct core_part {
	uint32_t partno;
	const char *name;
} core_part_t;

/* CPUID PartNo values (ARM implementer 0x41), from each core's TRM. */
static const core_part_t core_parts[] = {
    {0xC20U, "Cortex-M0"},  {0xC60U, "Cortex-M0+"}, {0xC21U, "Cortex-M1"},  {0xC23U, "Cortex-M3"},
    {0xC24U, "Cortex-M4"},  {0xC27U, "Cortex-M7"},  {0xD20U, "Cortex-M23"}, {0xD21U, "Cortex-M33"},
    {0xD22U, "Cortex-M55"}, {0xD23U, "Cortex-M85"}, {0xD24U, "Cortex-M52"},
};

#define CORTEX_M7_PARTNO 0xC27U
#define CORTEX_M0_PARTNO 0xC20U
#define CORTEX_M0PLUS_PARTNO 0xC60U
/* An erased flash word. */
#define ERASED_WORD 0xFFFFFFFFU

const char *br_cortex_m_core_name(uint32_t partno)
{
	for (size_t i = 0; i < sizeof(core_parts) / sizeof(core_parts[0]); i++) {
		if (core_parts[i].partno == partno)
			return core_parts[i].name;
	}
	return NULL;
}

void br_cortex_m_decode_cpuid(uint32_t cpuid, br_cortex_m_info_t *info)
{
	info->cpuid = cpuid;
	info->implementer = cpuid >> BR_CPUID_IMPLEMENTER_SHIFT;
	info->variant = (cpuid >> BR_CPUID_VARIANT_SHIFT) & BR_CPUID_NIBBLE_MASK;
	info->partno = (cpuid >> BR_CPUID_PARTNO_SHIFT) & BR_CPUID_PARTNO_MASK;
	info->revision = cpuid & BR_CPUID_NIBBLE_MASK;
	info->core = info->implementer == BR_CPUID_IMPLEMENTER_ARM
	                 ? br_cortex_m_core_name(info->partno)
	                 : NULL;
}

unsigned br_cortex_m_fpb_comparators(uint32_t fpb_ctrl)
{
	unsigned low = (fpb_ctrl >> BR_FPB_NUM_CODE_LOW_SHIFT) & BR_CPUID_NIBBLE_MASK;
	unsigned high = (fpb_ctrl >> BR_FPB_NUM_CODE_HIGH_SHIFT) & BR_FPB_NUM_CODE_HIGH_MASK;
	return high << 4 | low;
}

br_status_t br_cortex_m_identify(br_target_t *t, br_cortex_m_info_t *info, br_error_t *err)
{
	uint32_t cpuid = 0;
	br_status_t st = br_target_read_u32(t, BR_SCB_CPUID, &cpuid, err);
	if (st != BR_OK)
		return br_error_prefix(err, "reading CPUID");
	br_cortex_m_decode_cpuid(cpuid, info);
	if (info->core == NULL)
		return br_error_set(err, BR_ERR_TARGET,
		                    "CPUID 0x%08x (implementer 0x%02x, part 0x%03x) is not a "
		                    "known ARM Cortex-M core",
		                    cpuid, info->implementer, info->partno);
	st = br_target_read_u32(t, BR_FPB_CTRL, &info->fpb_ctrl, err);
	if (st != BR_OK)
		return br_error_prefix(err, "reading FPB_CTRL");
	info->fpb_comparators = br_cortex_m_fpb_comparators(info->fpb_ctrl);
	if (info->partno == CORTEX_M0_PARTNO || info->partno == CORTEX_M0PLUS_PARTNO) {
		info->dwt_ctrl = 0;
		info->cyccnt = BR_CYCCNT_ABSENT;
		return BR_OK;
	}
	st = br_target_read_u32(t, BR_DWT_CTRL, &info->dwt_ctrl, err);
	if (st != BR_OK)
		return br_error_prefix(err, "reading DWT_CTRL");
	info->cyccnt =
	    (info->dwt_ctrl & BR_DWT_CTRL_NOCYCCNT) != 0U ? BR_CYCCNT_ABSENT : BR_CYCCNT_NOT_RUN;
	return BR_OK;
}

br_status_t br_cortex_m_check_cyccnt(br_target_t *t, br_cortex_m_info_t *info, unsigned steps,
                                     br_error_t *err)
{
	if (info->cyccnt == BR_CYCCNT_ABSENT)
		return BR_OK;
	uint32_t vtor = 0, reset = 0, demcr = 0, ctrl = 0;
	br_status_t st = br_target_read_u32(t, BR_SCB_VTOR, &vtor, err);
	if (st == BR_OK)
		st = br_target_read_u32(t, vtor + 4U, &reset, err);
	if (st != BR_OK)
		return br_error_prefix(err, "reading the reset vector");
	if (reset == 0U || reset == ERASED_WORD) {
		info->cyccnt = BR_CYCCNT_NOT_RUN;
		return BR_OK;
	}
	if (info->partno == CORTEX_M7_PARTNO)
		st = br_target_write_u32(t, BR_DWT_LAR, BR_DWT_LAR_KEY, err);
	if (st == BR_OK)
		st = br_target_read_u32(t, BR_DEMCR, &demcr, err);
	if (st == BR_OK)
		st = br_target_write_u32(t, BR_DEMCR, demcr | BR_DEMCR_TRCENA, err);
	if (st == BR_OK)
		st = br_target_read_u32(t, BR_DWT_CTRL, &ctrl, err);
	if (st == BR_OK)
		st = br_target_write_u32(t, BR_DWT_CTRL, ctrl | BR_DWT_CTRL_CYCCNTENA, err);
	if (st == BR_OK)
		st = br_target_read_u32(t, BR_DWT_CYCCNT, &info->cyccnt_before, err);
	for (unsigned i = 0; st == BR_OK && i < steps; i++)
		st = br_target_step(t, err);
	if (st == BR_OK)
		st = br_target_read_u32(t, BR_DWT_CYCCNT, &info->cyccnt_after, err);
	if (st != BR_OK)
		return br_error_prefix(err, "checking DWT_CYCCNT");
	info->cyccnt =
	    info->cyccnt_after != info->cyccnt_before ? BR_CYCCNT_COUNTING : BR_CYCCNT_NOT_COUNTING;
	return BR_OK;
}

const char *br_cyccnt_state_name(br_cyccnt_state_t state)
{
	switch (state) {
	case BR_CYCCNT_ABSENT:
		return "absent";
	case BR_CYCCNT_NOT_COUNTING:
		return "absent/not counting";
	case BR_CYCCNT_COUNTING:
		return "counting";
	case BR_CYCCNT_NOT_RUN:
		break;
	}
	return "not checked (no firmware to run)";
}
