/*
 * Breakpoints (GDB manual, "Packets": Z0/z0 software, Z1/z1 hardware): the
 * kind per memory region, and the FPB's comparator budget checked at set-up.
 * Read watchpoints (Z3/z3), which the target does not keep in its table.
 */
#include <stdio.h>
#include <string.h>

#include "rsp/hex.h"
#include "debug/target.h"
#include "debug/target_private.h"

/* Thumb instructions: the kind field of Z0/Z1 is 2 (GDB manual, "ARM Breakpoint Kinds"). */
#define TARGET_THUMB_BREAKPOINT_KIND 2U
/* The type field of Z3: a read watchpoint. */
#define TARGET_READ_WATCHPOINT_TYPE 3U

int br_target_breakpoint_index(const br_target_t *t, uint32_t address)
{
	for (size_t i = 0; i < t->breakpoint_count; i++) {
		if (t->breakpoints[i].address == address)
			return (int)i;
	}
	return -1;
}

void br_target_breakpoint_packet(char *buf, size_t cap, char op, br_breakpoint_kind_t kind,
                                 uint32_t address)
{
	const uint64_t values[] = {kind == BR_BREAKPOINT_HARDWARE ? 1U : 0U, address,
	                           TARGET_THUMB_BREAKPOINT_KIND};
	rsp_hex_request(op, values, 3, buf, cap);
}

br_breakpoint_kind_t br_target_breakpoint_kind(const br_target_t *t, uint32_t address,
                                               br_breakpoint_kind_t kind)
{
	if (kind != BR_BREAKPOINT_AUTO)
		return kind;
	const br_region_t *r = br_memory_map_find(&t->memory_map, address);
	if (r != NULL && (r->kind == BR_REGION_FLASH || r->kind == BR_REGION_ROM))
		return BR_BREAKPOINT_HARDWARE;
	return BR_BREAKPOINT_SOFTWARE;
}

unsigned br_target_hw_breakpoints_used(const br_target_t *t)
{
	unsigned n = 0;
	for (size_t i = 0; i < t->breakpoint_count; i++)
		n += t->breakpoints[i].kind == BR_BREAKPOINT_HARDWARE ? 1U : 0U;
	return n;
}

br_status_t br_target_breakpoints_check(const br_target_t *t, const uint32_t *addresses,
                                        size_t count, br_breakpoint_kind_t kind, br_error_t *err)
{
	size_t fresh = 0;
	unsigned hardware = 0;
	for (size_t i = 0; i < count; i++) {
		bool seen = br_target_breakpoint_index(t, addresses[i]) >= 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = addresses[j] == addresses[i];
		if (seen)
			continue;
		fresh++;
		if (br_target_breakpoint_kind(t, addresses[i], kind) == BR_BREAKPOINT_HARDWARE)
			hardware++;
	}
	if (t->breakpoint_count + fresh > BR_TARGET_MAX_BREAKPOINTS)
		return br_error_set(err, BR_ERR_USAGE,
		                    "%zu breakpoints are needed, benchrack keeps at most %u",
		                    t->breakpoint_count + fresh, BR_TARGET_MAX_BREAKPOINTS);
	unsigned used = br_target_hw_breakpoints_used(t);
	if (t->hw_breakpoint_limit != 0U && used + hardware > t->hw_breakpoint_limit)
		return br_error_set(err, BR_ERR_USAGE,
		                    "%u hardware breakpoints are needed (flash), but the core has "
		                    "%u FPB comparators%s: measure fewer points at once, or move "
		                    "the code to RAM",
		                    used + hardware, t->hw_breakpoint_limit,
		                    used > 0 ? " and some are in use" : "");
	return BR_OK;
}

/* Sends a Z or z request (req), which must be answered OK; what (after the
 * verb of op) names it in the error. *answered: a non-empty reply came. */
static br_status_t send_z(br_target_t *t, const char *req, char op, const char *what,
                          bool *answered, br_error_t *err)
{
	const char *reply;
	size_t len;
	*answered = false;
	br_status_t st = rsp_client_transact(t->rsp, req, &reply, &len, err);
	if (st != BR_OK)
		return st;
	*answered = len > 0;
	char text[80];
	snprintf(text, sizeof(text), "%s %s", op == 'Z' ? "inserting" : "removing", what);
	return br_target_expect_ok(text, reply, len, err);
}

static br_status_t send_breakpoint(br_target_t *t, char op, br_breakpoint_kind_t kind,
                                   uint32_t address, br_error_t *err)
{
	char req[40];
	br_target_breakpoint_packet(req, sizeof(req), op, kind, address);
	char what[48];
	snprintf(what, sizeof(what), "a %s breakpoint at 0x%08x",
	         kind == BR_BREAKPOINT_HARDWARE ? "hardware" : "software", address);
	bool answered = false;
	br_status_t st = send_z(t, req, op, what, &answered, err);
	if (st != BR_OK && op == 'Z' && kind == BR_BREAKPOINT_HARDWARE && answered)
		br_error_prefix(err, "out of FPB comparators? (%u in use)",
		                br_target_hw_breakpoints_used(t));
	return st;
}

br_status_t br_target_breakpoint_insert(br_target_t *t, uint32_t address, br_breakpoint_kind_t kind,
                                        br_error_t *err)
{
	address &= ~1U;
	if (br_target_breakpoint_index(t, address) >= 0)
		return BR_OK;
	br_status_t st = br_target_breakpoints_check(t, &address, 1, kind, err);
	if (st != BR_OK)
		return st;
	kind = br_target_breakpoint_kind(t, address, kind);
	st = send_breakpoint(t, 'Z', kind, address, err);
	if (st != BR_OK)
		return st;
	t->breakpoints[t->breakpoint_count].address = address;
	t->breakpoints[t->breakpoint_count].kind = kind;
	t->breakpoint_count++;
	return BR_OK;
}

br_status_t br_target_breakpoint_remove(br_target_t *t, uint32_t address, br_error_t *err)
{
	address &= ~1U;
	int i = br_target_breakpoint_index(t, address);
	if (i < 0)
		return BR_OK;
	br_status_t st = send_breakpoint(t, 'z', t->breakpoints[i].kind, address, err);
	if (st != BR_OK)
		return st;
	t->breakpoints[i] = t->breakpoints[t->breakpoint_count - 1U];
	t->breakpoint_count--;
	return BR_OK;
}

br_status_t br_target_breakpoint_remove_all(br_target_t *t, br_error_t *err)
{
	while (t->breakpoint_count > 0) {
		br_status_t st = br_target_breakpoint_remove(
		    t, t->breakpoints[t->breakpoint_count - 1U].address, err);
		if (st != BR_OK)
			return st;
	}
	return BR_OK;
}

void br_target_watchpoint_packet(char *buf, size_t cap, char op, uint32_t address, uint32_t len)
{
	const uint64_t values[] = {TARGET_READ_WATCHPOINT_TYPE, address, len};
	rsp_hex_request(op, values, 3, buf, cap);
}

/* Z3/z3 (GDB manual, "Packets": a read watchpoint of len bytes at address). */
static br_status_t send_read_watchpoint(br_target_t *t, char op, uint32_t address, uint32_t len,
                                        br_error_t *err)
{
	char req[40];
	br_target_watchpoint_packet(req, sizeof(req), op, address, len);
	char what[48];
	snprintf(what, sizeof(what), "a read watchpoint at 0x%08x", address);
	bool answered = false;
	return send_z(t, req, op, what, &answered, err);
}

br_status_t br_target_read_watchpoint_insert(br_target_t *t, uint32_t address, uint32_t len,
                                             br_error_t *err)
{
	return send_read_watchpoint(t, 'Z', address, len, err);
}

br_status_t br_target_read_watchpoint_remove(br_target_t *t, uint32_t address, uint32_t len,
                                             br_error_t *err)
{
	return send_read_watchpoint(t, 'z', address, len, err);
}
