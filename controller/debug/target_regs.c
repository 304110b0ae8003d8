/*
 * Core registers through p/P (GDB manual, "Packets"), numbered as the
 * server's target description says.
 */
#include <stdio.h>
#include <string.h>

#include "rsp/hex.h"
#include "rsp/quote.h"
#include "debug/target.h"
#include "debug/target_private.h"

br_status_t br_target_reg_reply(const char *reply, size_t len, unsigned regno, uint32_t *value,
                                br_error_t *err)
{
	const char *cursor = reply;
	if (len == 8U && rsp_hex_le_u32(&cursor, reply + len, value))
		return BR_OK;
	char q[RSP_QUOTE_BUFFER_BYTES];
	rsp_quote(reply, len, q, sizeof(q));
	if (len == 0U)
		return br_error_set(err, BR_ERR_PROTOCOL,
		                    "reading register %u: the server answered nothing (QEMU does "
		                    "until target.xml is read)",
		                    regno);
	return br_error_set(err, len >= 1U && reply[0] == 'E' ? BR_ERR_TARGET : BR_ERR_PROTOCOL,
	                    "reading register %u: reply %s", regno, q);
}

static br_status_t check_regno(unsigned regno, br_error_t *err)
{
	if (regno >= BR_TARGET_CORE_REGS)
		return br_error_set(err, BR_ERR_USAGE, "no core register %u (0..15, 16 = xPSR)",
		                    regno);
	return BR_OK;
}

br_status_t br_target_reg_read(br_target_t *t, unsigned regno, uint32_t *value, br_error_t *err)
{
	br_status_t st = check_regno(regno, err);
	if (st != BR_OK)
		return st;
	if (regno == BR_TARGET_REG_PC && t->pc_known && !t->running) {
		*value = t->pc;
		return BR_OK;
	}
	char req[16];
	snprintf(req, sizeof(req), "p%x", br_target_regnum(t, regno));
	const char *reply;
	size_t len;
	st = rsp_client_transact(t->rsp, req, &reply, &len, err);
	if (st != BR_OK)
		return st;
	st = br_target_reg_reply(reply, len, regno, value, err);
	if (st == BR_OK && regno == BR_TARGET_REG_PC) {
		t->pc = *value;
		t->pc_known = true;
	}
	return st;
}

br_status_t br_target_reg_write(br_target_t *t, unsigned regno, uint32_t value, br_error_t *err)
{
	br_status_t st = check_regno(regno, err);
	if (st != BR_OK)
		return st;
	char req[32];
	int n = snprintf(req, sizeof(req), "P%x=", br_target_regnum(t, regno));
	rsp_hex_le_u32_encode(value, req + n, sizeof(req) - (size_t)n);
	const char *reply;
	size_t len;
	st = rsp_client_transact(t->rsp, req, &reply, &len, err);
	if (st != BR_OK)
		return st;
	if (regno == BR_TARGET_REG_PC)
		br_target_forget_halt(t);
	char what[48];
	snprintf(what, sizeof(what), "writing register %u", regno);
	return br_target_expect_ok(what, reply, len, err);
}

br_status_t br_target_regs_read(br_target_t *t, br_target_regs_t *regs, br_error_t *err)
{
	for (unsigned i = 0; i < BR_TARGET_CORE_REGS; i++) {
		br_status_t st = br_target_reg_read(t, i, &regs->r[i], err);
		if (st != BR_OK)
			return st;
	}
	return BR_OK;
}

br_status_t br_target_pc(br_target_t *t, uint32_t *pc, br_error_t *err)
{
	return br_target_reg_read(t, BR_TARGET_REG_PC, pc, err);
}
