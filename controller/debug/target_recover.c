/*
 * Putting the server's replies back in step after a reply went missing or
 * came late (target.h, br_target_recover): the core stopped, the stream
 * synchronised on a marker, and every booked breakpoint set again.
 */
#include "debug/target.h"
#include "debug/target_private.h"

/* Takes the stop reply of a core that was asked to stop, dropping any other
 * reply that comes first (the stream is out of step). */
static br_status_t recover_stop(br_target_t *t, int timeout_ms, br_error_t *err)
{
	for (unsigned i = 0; i <= RSP_CLIENT_SYNC_DROP_MAX; i++) {
		const char *payload;
		size_t len;
		br_status_t st = rsp_client_receive(t->rsp, timeout_ms, &payload, &len, err);
		if (st != BR_OK)
			return st;
		br_error_t ignored;
		if (rsp_stop_reply_parse(payload, len, t->stop, &ignored) == BR_OK &&
		    t->stop->kind == RSP_STOP_SIGNAL) {
			br_target_note_stop(t, t->stop);
			return BR_OK;
		}
		rsp_client_count_stale_dropped(t->rsp);
	}
	return br_error_set(err, BR_ERR_PROTOCOL,
	                    "no stop reply among %u replies after stopping the core",
	                    RSP_CLIENT_SYNC_DROP_MAX);
}

br_status_t br_target_recover(br_target_t *t, uint32_t marker_address, const uint8_t *expected,
                              size_t len, int timeout_ms, br_error_t *err)
{
	br_status_t st = BR_OK;
	if (t->running) {
		st = rsp_client_interrupt(t->rsp, err);
		if (st == BR_OK)
			st = recover_stop(t, timeout_ms, err);
	}
	if (st == BR_OK && (len < 8U || len > BR_TARGET_MARKER_MAX))
		st = br_error_set(err, BR_ERR_USAGE, "a marker of 8 to 16 bytes is needed");
	if (st == BR_OK)
		st = rsp_client_sync(t->rsp, marker_address, expected, len, err);
	/* Which breakpoints the server holds is not known: set each booked one
	 * again (a removal of one it does not hold may be refused: no matter). */
	for (size_t i = 0; st == BR_OK && i < t->breakpoint_count; i++) {
		char packet[48];
		const char *r;
		size_t rlen;
		br_target_breakpoint_packet(packet, sizeof(packet), 'z', t->breakpoints[i].kind,
		                            t->breakpoints[i].address);
		st = rsp_client_transact(t->rsp, packet, &r, &rlen, err);
		br_target_breakpoint_packet(packet, sizeof(packet), 'Z', t->breakpoints[i].kind,
		                            t->breakpoints[i].address);
		if (st == BR_OK)
			st = rsp_client_transact(t->rsp, packet, &r, &rlen, err);
		if (st == BR_OK)
			st = br_target_expect_ok(packet, r, rlen, err);
	}
	if (st != BR_OK)
		return br_error_prefix(err, "putting the server's replies back in step");
	br_target_forget_halt(t);
	return BR_OK;
}
