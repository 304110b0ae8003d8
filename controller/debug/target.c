/*
 * What every request of the target layer shares, below all of them: the
 * halted state (what is known of the halt, a resume or a stop reply noted),
 * register numbering, the check of an "OK" reply, and the board's memory map
 * and comparator count. Calls nothing of the other target_*.c files
 * (attaching is target_attach.c, run control target_run.c).
 */
#include "debug/target.h"

#include <string.h>

#include "rsp/quote.h"
#include "debug/target_private.h"

/* The signal of a breakpoint or step stop (GDB's SIGTRAP). */
#define TARGET_SIGTRAP 5U

uint32_t br_target_regnum(const br_target_t *t, unsigned i)
{
	if (i < BR_TDESC_CORE_REGS && t->tdesc.found[i])
		return t->tdesc.regnum[i];
	if (i == BR_TARGET_REG_XPSR)
		return t->flavour->xpsr_regnum;
	return i;
}

void br_target_forget_halt(br_target_t *t)
{
	t->pc_known = false;
}

void br_target_note_resume(br_target_t *t, const char *packet)
{
	t->running = true;
	t->stepping = packet[0] == 's';
	br_target_forget_halt(t);
}

void br_target_note_stop(br_target_t *t, const rsp_stop_reply_t *stop)
{
	t->running = false;
	t->halts++;
	uint64_t pc = 0;
	t->pc_known = rsp_stop_reply_register(stop, br_target_regnum(t, BR_TARGET_REG_PC), &pc);
	t->pc = (uint32_t)pc;
	bool watch = stop->reason == RSP_STOP_REASON_WATCH ||
	             stop->reason == RSP_STOP_REASON_RWATCH ||
	             stop->reason == RSP_STOP_REASON_AWATCH;
	if (!t->pc_known && t->flavour->only_breakpoints_trap && !t->stepping && !watch &&
	    stop->code == TARGET_SIGTRAP && t->breakpoint_count == 1U) {
		/* The one breakpoint is the only thing that traps (flavour.h), but
		 * a watchpoint's stop (which says so) is at the load's next PC. */
		t->pc = t->breakpoints[0].address;
		t->pc_known = true;
	}
	t->stepping = false;
	if (stop->has_pid)
		t->pid = stop->pid;
}

br_status_t br_target_expect_ok(const char *what, const char *reply, size_t len, br_error_t *err)
{
	if (len == 2U && memcmp(reply, "OK", 2) == 0)
		return BR_OK;
	if (len == 0U)
		return br_error_set(err, BR_ERR_PROTOCOL, "%s: the server does not support it",
		                    what);
	char q[RSP_QUOTE_BUFFER_BYTES];
	return br_error_set(err, BR_ERR_TARGET, "%s: the server answered %s", what,
	                    rsp_quote(reply, len, q, sizeof(q)));
}

void br_target_set_memory_map(br_target_t *t, const br_memory_map_t *map)
{
	t->memory_map = *map;
	t->memory_map_from_server = false;
}

void br_target_set_hw_breakpoint_limit(br_target_t *t, unsigned comparators)
{
	t->hw_breakpoint_limit = comparators;
}
