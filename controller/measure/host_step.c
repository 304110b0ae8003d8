#include "measure/host_step.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The bytes read at a site: a 32-bit encoding's two halfwords. */
#define HOST_STEP_CODE_BYTES 4U
#define HOST_STEP_INSTRUCTIONS_UNIT "instructions"

/* thumb_insn.h's register numbers are target.h's (r0..r15, then xPSR). */
_Static_assert(BR_THUMB_SP == BR_TARGET_REG_SP && BR_THUMB_LR == BR_TARGET_REG_LR &&
                   BR_THUMB_PC == BR_TARGET_REG_PC && BR_THUMB_XPSR == BR_TARGET_REG_XPSR &&
                   BR_THUMB_REGS == BR_TARGET_CORE_REGS,
               "register numbering");

__attribute__((format(printf, 2, 3))) static void host_step_off(br_host_step_t *hs, const char *fmt,
                                                                ...)
{
	hs->on = false;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(hs->why_off, sizeof(hs->why_off), fmt, ap);
	va_end(ap);
}

void br_host_step_setup(br_host_step_t *hs, br_target_t *t, const br_counter_t *c,
                        const uint32_t *addresses, size_t n, br_breakpoint_kind_t kind)
{
	memset(hs, 0, sizeof(*hs));
	hs->kind = kind;
	if (!t->flavour->retranslates_on_breakpoint_change) {
		host_step_off(hs, "%s loses no translated code at a breakpoint change",
		              t->flavour->description);
		return;
	}
	if (c->unit == NULL || strncmp(c->unit, HOST_STEP_INSTRUCTIONS_UNIT,
	                               strlen(HOST_STEP_INSTRUCTIONS_UNIT)) != 0) {
		host_step_off(hs,
		              "the counter counts %s: no figure stands in for an instruction the "
		              "host executes",
		              c->unit != NULL ? c->unit : "an unknown unit");
		return;
	}
	uint32_t mask = 1U << BR_TARGET_REG_XPSR;
	for (size_t i = 0; i < n && i < BR_HOST_STEP_SITES; i++) {
		br_host_step_site_t *s = &hs->sites[hs->nsites++];
		uint8_t code[HOST_STEP_CODE_BYTES];
		s->address = addresses[i];
		if (br_target_mem_read(t, addresses[i], code, sizeof(code), NULL) != BR_OK) {
			host_step_off(hs, "the instruction at 0x%08x could not be read",
			              addresses[i]);
			return;
		}
		if (!br_thumb_insn_decode(code, sizeof(code), &s->insn)) {
			char bytes[16];
			snprintf(bytes, sizeof(bytes), "%02x%02x %02x%02x", code[1], code[0],
			         code[3], code[2]);
			host_step_off(hs,
			              "the instruction at 0x%08x (%s) is not one the host executes",
			              addresses[i], bytes);
			return;
		}
		mask |= s->insn.reads;
	}
	for (unsigned r = 0; r < BR_TARGET_CORE_REGS; r++) {
		if (r == BR_TARGET_REG_PC || (mask & (1U << r)) == 0U)
			continue;
		if (hs->nregs == BR_TARGET_BATCH_REGS) {
			host_step_off(hs, "the instructions at the breakpoints read more registers "
			                  "than a halt's write carries");
			return;
		}
		hs->regs[hs->nregs++] = r;
	}
	hs->on = true;
}

br_host_step_site_t *br_host_step_site(br_host_step_t *hs, uint32_t address)
{
	for (size_t i = 0; i < hs->nsites; i++)
		if (hs->sites[i].address == address)
			return &hs->sites[i];
	return NULL;
}

size_t br_host_step_add_reads(const br_host_step_t *hs, br_target_batch_t *b)
{
	size_t first = b->nregs;
	for (size_t i = 0; i < hs->nregs && b->nregs < BR_TARGET_BATCH_REGS; i++)
		b->regs[b->nregs++] = hs->regs[i];
	return first;
}

bool br_host_step_prepare(const br_host_step_t *hs, const br_host_step_site_t *site,
                          const br_target_batch_t *read, size_t first, br_thumb_effect_t *e,
                          br_target_batch_t *b)
{
	uint32_t in[BR_THUMB_REGS] = {0};
	for (size_t i = 0; i < hs->nregs; i++)
		in[hs->regs[i]] = read->reg_values[first + i];
	in[BR_THUMB_PC] = site->address;
	if (!br_thumb_insn_execute(&site->insn, in, e))
		return false;
	b->write_address = e->mem_address;
	b->write_buf = e->mem;
	b->write_len = e->mem_len;
	b->nwregs = 0;
	for (unsigned r = 0; r < BR_THUMB_REGS; r++) {
		bool pc = r == BR_THUMB_PC;
		if (!pc && (e->changed & (1U << r)) == 0U)
			continue;
		if (b->nwregs == BR_TARGET_BATCH_WREGS)
			return false;
		b->wregs[b->nwregs] = r;
		b->wreg_values[b->nwregs++] = e->r[r];
	}
	return true;
}

/* Compares the core after a real step with what the host made of the
 * state before it; false with why_off set on the first difference. */
static bool host_step_agrees(br_host_step_t *hs, const br_host_step_site_t *site,
                             const br_thumb_effect_t *e, const br_target_regs_t *after,
                             const uint8_t *mem)
{
	for (unsigned r = 0; r < BR_THUMB_REGS; r++) {
		if (after->r[r] == e->r[r])
			continue;
		host_step_off(hs, "%s at 0x%08x: a real step left r%u 0x%08x, the host made 0x%08x",
		              site->insn.text, site->address, r, after->r[r], e->r[r]);
		return false;
	}
	if (e->mem_len > 0 && memcmp(mem, e->mem, e->mem_len) != 0) {
		host_step_off(
		    hs, "%s at 0x%08x: a real step stored other bytes at 0x%08x than the host",
		    site->insn.text, site->address, e->mem_address);
		return false;
	}
	return true;
}

br_status_t br_host_step_real(br_host_step_t *hs, br_target_t *t, br_host_step_site_t *site,
                              br_error_t *err)
{
	bool check = hs->on && !site->checked;
	br_target_regs_t before, after;
	br_thumb_effect_t e;
	bool predicted = false;
	br_status_t st = BR_OK;
	if (check)
		st = br_target_regs_read(t, &before, err);
	if (st == BR_OK && check) {
		before.r[BR_TARGET_REG_PC] = site->address;
		predicted = br_thumb_insn_execute(&site->insn, before.r, &e);
	}
	if (st == BR_OK)
		st = br_target_breakpoint_remove(t, site->address, err);
	if (st == BR_OK)
		st = br_target_step(t, err);
	if (st != BR_OK)
		return br_error_prefix(err, "stepping off the breakpoint at 0x%08x", site->address);
	if (predicted) {
		uint8_t mem[BR_THUMB_WRITE_MAX];
		st = br_target_regs_read(t, &after, err);
		if (st == BR_OK && e.mem_len > 0)
			st = br_target_mem_read(t, e.mem_address, mem, e.mem_len, err);
		if (st != BR_OK)
			return br_error_prefix(err, "checking the host's execution of %s at 0x%08x",
			                       site->insn.text, site->address);
		site->checked = host_step_agrees(hs, site, &e, &after, mem);
		hs->checks += site->checked ? 1U : 0U;
		hs->check_failed = !site->checked;
	}
	if (!hs->on)
		return BR_OK;
	return br_target_breakpoint_insert(t, site->address, hs->kind, err);
}
