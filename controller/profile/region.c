#include "profile/region.h"

br_status_t br_profile_run_to(br_target_t *t, uint32_t addr, int timeout_ms, br_error_t *err)
{
	br_status_t st = br_target_breakpoint_insert(t, addr, BR_BREAKPOINT_AUTO, err);
	if (st == BR_OK)
		st = br_target_resume(t, err);
	if (st == BR_OK)
		st = br_target_wait_stop(t, timeout_ms, NULL, err);
	if (st != BR_OK)
		return br_error_prefix(err, "running to 0x%08x", addr);
	uint32_t pc = 0;
	st = br_target_pc(t, &pc, err);
	if (st == BR_OK && (pc & ~1U) != addr)
		st = br_error_set(err, BR_ERR_TARGET,
		                  "the core stopped at 0x%08x, not at the breakpoint at 0x%08x", pc,
		                  addr);
	if (st == BR_OK)
		st = br_target_breakpoint_remove(t, addr, err);
	return st;
}

br_status_t br_profile_region_end(br_target_t *t, const br_span_t *span,
                                  br_profile_region_end_t *end, br_error_t *err)
{
	end->sp = 0;
	end->check_sp = span->kind == BR_SPAN_FUNCTION;
	if (span->kind == BR_SPAN_RANGE) {
		end->pc = span->to.address;
		return BR_OK;
	}
	uint32_t lr = 0;
	br_status_t st = br_target_reg_read(t, BR_TARGET_REG_LR, &lr, err);
	if (st == BR_OK)
		st = br_target_reg_read(t, BR_TARGET_REG_SP, &end->sp, err);
	end->pc = lr & ~1U;
	return st;
}

bool br_profile_region_ended(const br_profile_region_end_t *end, uint32_t pc, uint32_t sp)
{
	return (pc & ~1U) == end->pc && (!end->check_sp || sp >= end->sp);
}
