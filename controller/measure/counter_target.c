#include "measure/counter_target.h"

#include <stddef.h>
#include <string.h>

/* After the enable writes: the counter exists (none of its absent bits)
 * and its running bits took (a locked or debug-denied block ignores
 * writes). */
static br_status_t counter_enabled_check(br_target_t *t, const br_counter_t *c, br_error_t *err)
{
	uint32_t v = 0;
	br_status_t st = br_target_read_u32(t, c->running_address, &v, err);
	if (st != BR_OK)
		return br_error_prefix(err, "checking that counter %s started", c->name);
	if ((v & c->absent_mask) != 0)
		return br_error_set(err, BR_ERR_USAGE,
		                    "counter %s: register 0x%08x reads 0x%08x: %s", c->name,
		                    c->running_address, v, c->absent_text);
	if ((v & c->running_mask) != c->running_mask)
		return br_error_set(err, BR_ERR_TARGET,
		                    "counter %s: enabling it did not take: register 0x%08x reads "
		                    "0x%08x after the writes (bits 0x%08x clear); the block may be "
		                    "locked (the Cortex-M7's DWT_LAR: is the board file's core "
		                    "right?) or closed to the debugger (ARMv8-M: Secure debug not "
		                    "allowed)",
		                    c->name, c->running_address, v, c->running_mask);
	return BR_OK;
}

br_status_t br_counter_start(br_target_t *t, const br_counter_t *c, br_counter_state_t *state,
                             br_error_t *err)
{
	br_counter_state_init(state, c);
	bool running = false;
	if (c->running_address != 0) {
		uint32_t v = 0;
		br_status_t st = br_target_read_u32(t, c->running_address, &v, err);
		if (st != BR_OK)
			return br_error_prefix(err, "checking whether counter %s runs", c->name);
		running = (v & c->running_mask) == c->running_mask;
	}
	for (size_t i = 0; !running && i < c->enable_count; i++) {
		const br_counter_write_t *w = &c->enable[i];
		uint32_t v = 0;
		br_status_t st = br_target_read_u32(t, w->address, &v, err);
		if (st == BR_OK && (v & w->mask) != w->value)
			st = br_target_write_u32(t, w->address, (v & ~w->mask) | w->value, err);
		if (st != BR_OK)
			return br_error_prefix(err, "enabling counter %s (register 0x%08x)",
			                       c->name, w->address);
		if ((v & w->mask) != w->value)
			state->writes_made++;
	}
	if (!running && c->running_address != 0) {
		br_status_t st = counter_enabled_check(t, c, err);
		if (st != BR_OK)
			return st;
	}
	if (c->reload_address != 0) {
		uint32_t reload = 0;
		br_status_t st = br_target_read_u32(t, c->reload_address, &reload, err);
		if (st != BR_OK)
			return br_error_prefix(err, "reading the period of counter %s", c->name);
		reload &= br_counter_mask(c);
		if (reload != 0) {
			state->period = (uint64_t)reload + 1U;
			if (c->clock_hz != 0)
				state->wrap_seconds = (double)state->period / (double)c->clock_hz;
		}
	}
	return BR_OK;
}

br_status_t br_counter_read(br_target_t *t, const br_counter_state_t *state, uint64_t *value,
                            br_error_t *err)
{
	if (br_counter_is_monitor(&state->counter)) {
		char text[BR_COUNTER_ICOUNT_TEXT];
		br_status_t st =
		    br_target_monitor(t, BR_COUNTER_ICOUNT_MONITOR, text, sizeof(text), err);
		if (st != BR_OK)
			return br_error_prefix(err, "reading counter %s", state->counter.name);
		if (!br_counter_icount_parse(text, value))
			return br_counter_icount_refused(text, err);
		return BR_OK;
	}
	uint32_t v = 0;
	br_status_t st = br_target_read_u32(t, state->counter.address, &v, err);
	if (st != BR_OK)
		return br_error_prefix(err, "reading counter %s", state->counter.name);
	*value = v & br_counter_mask(&state->counter);
	return BR_OK;
}

br_status_t br_counter_icount_refused(const char *text, br_error_t *err)
{
	size_t n = strcspn(text, "\r\n");
	return br_error_set(err, BR_ERR_INFRA,
	                    "counter icount: QEMU's monitor answered '%s' %.*s'%s: its "
	                    "instruction count is only there in record mode (QEMU started "
	                    "with -icount shift=0,rr=record,rrfile=FILE, as benchrack launches "
	                    "it for counter icount)",
	                    BR_COUNTER_ICOUNT_MONITOR, (int)(n > 120 ? 120 : n), text,
	                    n > 120 ? "..." : "");
}

br_status_t br_counter_not_counting(const br_counter_state_t *state, const char *what,
                                    br_error_t *err)
{
	const br_counter_t *c = &state->counter;
	const char *hint = c->kind == BR_COUNTER_DWT
	                       ? " (QEMU implements no DWT: there, use --counter icount; on a "
	                         "board, check that the debug probe can write DEMCR and DWT_CTRL)"
	                       : " (on QEMU, use --counter icount: QEMU's own exact "
	                         "instruction count; the host cannot start a timer there)";
	return br_error_set(err, BR_ERR_TARGET,
	                    "counter %s at 0x%08x is not counting: it did not advance while %s, so "
	                    "no figure is reported%s",
	                    c->name, c->address, what, hint);
}
