#include "debug/reset_halt.h"

#include <stdbool.h>

#include "benchrack/debug_regs.h"
#include "common/clock.h"
#include "debug/target_private.h"

#define XPSR_THUMB (1U << 24)
#define THUMB_BIT 1U
#define RESET_HALT_WAIT_MS 2000
#define RESET_TEXT_BYTES 512U
/* SP and PC: the first two words of a vector table. */
#define VECTOR_BYTES 8U

/* The generic path: vector catch on reset, a system reset request, and the
 * halt awaited in DHCSR; the vector catch is cleared again afterwards. A
 * core whose DHCSR shows no debugger (C_DEBUGEN clear: an emulator that
 * does not model the debug registers) is not reset this way: *by_vector
 * says that SP and PC must be written from the vector table instead. */
static br_status_t reset_generic(br_target_t *t, bool *by_vector, br_error_t *err)
{
	uint32_t dhcsr = 0;
	br_status_t st = br_target_read_u32(t, BR_DHCSR, &dhcsr, err);
	if (st != BR_OK)
		return br_error_prefix(err, "reading DHCSR");
	*by_vector = (dhcsr & BR_DHCSR_C_DEBUGEN) == 0U;
	if (*by_vector)
		return BR_OK;
	uint32_t demcr = 0;
	st = br_target_read_u32(t, BR_DEMCR, &demcr, err);
	if (st == BR_OK)
		st = br_target_write_u32(t, BR_DEMCR, demcr | BR_DEMCR_VC_CORERESET, err);
	if (st == BR_OK)
		st = br_target_write_u32(t, BR_SCB_AIRCR, BR_AIRCR_VECTKEY | BR_AIRCR_SYSRESETREQ,
		                         err);
	if (st != BR_OK)
		return br_error_prefix(err, "resetting through AIRCR.SYSRESETREQ");
	int64_t deadline = br_clock_ms() + RESET_HALT_WAIT_MS;
	do {
		st = br_target_read_u32(t, BR_DHCSR, &dhcsr, err);
	} while (st == BR_OK && (dhcsr & BR_DHCSR_S_HALT) == 0U && br_clock_ms() < deadline);
	if (st == BR_OK && (dhcsr & BR_DHCSR_S_HALT) == 0U)
		st = br_error_set(err, BR_ERR_TARGET,
		                  "the core did not halt at its reset vector within %d ms "
		                  "(DHCSR 0x%08x): vector catch is not working through this server",
		                  RESET_HALT_WAIT_MS, dhcsr);
	if (st == BR_OK)
		st = br_target_write_u32(t, BR_DEMCR, demcr & ~BR_DEMCR_VC_CORERESET, err);
	return st;
}

br_status_t br_target_reset_halt(br_target_t *t, bool *reset, br_error_t *err)
{
	const br_flavour_t *f = t->flavour;
	br_status_t st = br_target_breakpoint_remove_all(t, err);
	if (st != BR_OK)
		return st;
	*reset = true;
	if (f->reset_halt_command != NULL) {
		char text[RESET_TEXT_BYTES];
		st = br_target_monitor(t, f->reset_halt_command, text, sizeof(text), err);
		if (st != BR_OK)
			return br_error_prefix(err, "monitor %s", f->reset_halt_command);
	} else {
		bool by_vector = false;
		st = reset_generic(t, &by_vector, err);
		if (st != BR_OK)
			return st;
		*reset = !by_vector;
	}
	br_target_forget_halt(t);
	return BR_OK;
}

br_status_t br_target_start_at_vector(br_target_t *t, const br_reset_vector_t *vec, br_error_t *err)
{
	br_status_t st = br_target_reg_write(t, BR_TARGET_REG_SP, vec->sp, err);
	if (st == BR_OK)
		st = br_target_reg_write(t, BR_TARGET_REG_PC, vec->pc & ~THUMB_BIT, err);
	if (st == BR_OK)
		st = br_target_reg_write(t, BR_TARGET_REG_XPSR, XPSR_THUMB, err);
	br_target_forget_halt(t);
	if (st != BR_OK)
		return br_error_prefix(err, "writing SP and PC from the vector table");
	return BR_OK;
}

/* Reads a little-endian word of target memory. */
static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

br_status_t br_target_check_at_vector(br_target_t *t, const br_reset_vector_t *vec, uint32_t table,
                                      br_error_t *err)
{
	uint32_t sp = 0, pc = 0;
	br_status_t st = br_target_reg_read(t, BR_TARGET_REG_SP, &sp, err);
	if (st == BR_OK)
		st = br_target_reg_read(t, BR_TARGET_REG_PC, &pc, err);
	if (st != BR_OK)
		return br_error_prefix(err, "reading SP and PC after the reset");
	if (sp != vec->sp || pc != (vec->pc & ~THUMB_BIT))
		return br_error_set(
		    err, BR_ERR_TARGET,
		    "after the reset the core is at PC 0x%08x with SP 0x%08x, but the "
		    "image's vector table says PC 0x%08x, SP 0x%08x: the reset did not "
		    "start this image (is it at the boot address?)",
		    pc, sp, vec->pc & ~THUMB_BIT, vec->sp);
	uint8_t words[VECTOR_BYTES];
	st = br_target_mem_read(t, table, words, sizeof(words), err);
	if (st != BR_OK)
		return br_error_prefix(err, "reading the vector table at 0x%08x", table);
	if (le32(words) != vec->sp || le32(words + 4) != vec->pc)
		return br_error_set(err, BR_ERR_TARGET,
		                    "after the reset the vector table at 0x%08x holds SP 0x%08x, "
		                    "PC 0x%08x, not the image's (SP 0x%08x, PC 0x%08x): the "
		                    "board's memory does not hold this image",
		                    table, le32(words), le32(words + 4), vec->sp, vec->pc);
	return BR_OK;
}
