/*
 * Attaching to a server (negotiation, the halted program, the target
 * description and the memory map it offers), detaching and killing: the
 * session's two ends, above run control (a running core is halted first).
 */
#include "debug/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchrack/debug_regs.h"
#include "common/xalloc.h"
#include "rsp/quote.h"
#include "debug/target_private.h"

/* qXfer reads: a chunk the smallest PacketSize here (QEMU's 4096) carries. */
#define TARGET_XFER_CHUNK 0x7f0U
#define TARGET_XFER_MAX_CHUNKS 64
/* The largest XML document read (target.xml with its annexes, a memory map). */
#define TARGET_XFER_MAX_BYTES (TARGET_XFER_CHUNK * TARGET_XFER_MAX_CHUNKS)
/* Process id to detach when no stop reply named one (GDB's default). */
#define TARGET_DEFAULT_PID 1U
/* How long 'k' may take to be answered or to close the connection. */
#define TARGET_KILL_TIMEOUT_MS 2000

/*
 * Reads a whole qXfer object (object "features" or "memory-map", annex)
 * into a new NUL-terminated buffer. Returns BR_OK with *out (caller frees).
 */
static br_status_t read_xfer(br_target_t *t, const char *object, const char *annex, char **out,
                             size_t *out_len, br_error_t *err)
{
	char *buf = xmalloc(TARGET_XFER_MAX_BYTES + 1U);
	size_t used = 0;
	for (int i = 0; i < TARGET_XFER_MAX_CHUNKS; i++) {
		char req[160];
		snprintf(req, sizeof(req), "qXfer:%s:read:%s:%zx,%x", object, annex, used,
		         TARGET_XFER_CHUNK);
		const char *reply;
		size_t len;
		br_status_t st = rsp_client_transact(t->rsp, req, &reply, &len, err);
		if (st != BR_OK) {
			free(buf);
			return st;
		}
		if (len == 0 || (reply[0] != 'm' && reply[0] != 'l') ||
		    used + len - 1U > TARGET_XFER_MAX_BYTES) {
			char q[RSP_QUOTE_BUFFER_BYTES];
			free(buf);
			return br_error_set(err, BR_ERR_PROTOCOL, "reading %s %s: reply %s", object,
			                    annex, rsp_quote(reply, len, q, sizeof(q)));
		}
		memcpy(buf + used, reply + 1, len - 1U);
		used += len - 1U;
		if (reply[0] == 'l') {
			buf[used] = '\0';
			*out = buf;
			*out_len = used;
			return BR_OK;
		}
	}
	free(buf);
	return br_error_set(err, BR_ERR_PROTOCOL, "%s %s is longer than %u bytes", object, annex,
	                    (unsigned)TARGET_XFER_MAX_BYTES);
}

/* Reads target.xml and the annexes it includes into t->tdesc. */
static br_status_t read_tdesc(br_target_t *t, br_error_t *err)
{
	br_tdesc_init(&t->tdesc);
	char *xml = NULL;
	size_t len = 0;
	br_status_t st = read_xfer(t, "features", "target.xml", &xml, &len, err);
	if (st != BR_OK)
		return st;
	br_tdesc_scan(&t->tdesc, xml, len);
	free(xml);
	for (size_t i = 0; i < t->tdesc.include_count; i++) {
		char annex[64];
		snprintf(annex, sizeof(annex), "%s", t->tdesc.includes[i]);
		st = read_xfer(t, "features", annex, &xml, &len, err);
		if (st != BR_OK)
			return st;
		br_tdesc_scan(&t->tdesc, xml, len);
		free(xml);
	}
	return BR_OK;
}

static br_status_t read_memory_map(br_target_t *t, br_error_t *err)
{
	char *xml = NULL;
	size_t len = 0;
	br_status_t st = read_xfer(t, "memory-map", "", &xml, &len, err);
	if (st != BR_OK)
		return st;
	br_memory_map_t map;
	st = br_memory_map_parse(xml, len, &map, err);
	free(xml);
	if (st != BR_OK)
		return st;
	if (map.count > 0) {
		t->memory_map = map;
		t->memory_map_from_server = true;
	}
	return BR_OK;
}

/* Black Magic Probe: scan for the target, then attach to the first one. */
static br_status_t scan_and_attach(br_target_t *t, br_error_t *err)
{
	br_status_t st = br_target_monitor(t, t->flavour->scan_command, NULL, 0, err);
	if (st != BR_OK)
		return br_error_prefix(err, "monitor %s", t->flavour->scan_command);
	const char *reply;
	size_t len;
	st = rsp_client_transact(t->rsp, "vAttach;1", &reply, &len, err);
	if (st != BR_OK)
		return st;
	if (len == 0 || reply[0] == 'E')
		return br_error_set(err, BR_ERR_INFRA, "the probe found no target to attach to");
	return BR_OK;
}

br_status_t br_target_attach(br_target_t *t, const rsp_transport_t *transport,
                             const br_flavour_t *flavour, br_error_t *err)
{
	return br_target_attach_within(t, transport, flavour, 0, err);
}

br_status_t br_target_attach_within(br_target_t *t, const rsp_transport_t *transport,
                                    const br_flavour_t *flavour, int first_answer_ms,
                                    br_error_t *err)
{
	memset(t, 0, sizeof(*t));
	t->flavour = flavour;
	t->x_packet = -1;
	t->qcrc_packet = -1;
	t->pid = TARGET_DEFAULT_PID;
	br_tdesc_init(&t->tdesc);
	t->rsp = rsp_client_open(transport);
	rsp_client_set_sync_address(t->rsp, BR_SCB_CPUID);
	rsp_client_set_defer_acks(t->rsp, flavour->pipelines_in_ack_mode);
	const char *reply;
	size_t len;
	t->stop = xmalloc(sizeof(*t->stop));
	rsp_stop_reply_t *stop = t->stop;
	if (first_answer_ms > 0)
		rsp_client_set_timeout(t->rsp, first_answer_ms);
	br_status_t st = rsp_client_negotiate(t->rsp, err);
	rsp_client_set_timeout(t->rsp, RSP_CLIENT_DEFAULT_TIMEOUT_MS);
	if (st == BR_OK && flavour->scan_command != NULL)
		st = scan_and_attach(t, err);
	if (st == BR_OK)
		st = rsp_client_transact(t->rsp, "?", &reply, &len, err);
	if (st == BR_OK) {
		st = rsp_stop_reply_parse(reply, len, stop, err);
		if (st == BR_OK && stop->kind == RSP_STOP_SIGNAL)
			br_target_note_stop(t, stop);
		else if (st == BR_OK)
			st = br_error_set(err, BR_ERR_INFRA,
			                  "the server reports no halted program ('%.16s')", reply);
	}
	if (st == BR_OK && rsp_client_features(t->rsp)->xfer_features)
		st = read_tdesc(t, err);
	if (st == BR_OK && rsp_client_features(t->rsp)->xfer_memory_map)
		st = read_memory_map(t, err);
	if (st != BR_OK) {
		br_target_close(t);
		return br_error_prefix(err, "attaching to %s", transport->peer);
	}
	return BR_OK;
}

void br_target_close(br_target_t *t)
{
	rsp_client_close(t->rsp);
	t->rsp = NULL;
	free(t->stop);
	t->stop = NULL;
}

br_status_t br_target_detach(br_target_t *t, br_error_t *err)
{
	br_status_t st = BR_OK;
	if (t->running)
		st = br_target_halt(t, rsp_client_timeout(t->rsp), err);
	if (st == BR_OK)
		st = br_target_breakpoint_remove_all(t, err);
	if (st == BR_OK) {
		char req[32] = "D";
		if (t->flavour->detach_needs_pid && rsp_client_features(t->rsp)->multiprocess)
			snprintf(req, sizeof(req), "D;%x", t->pid);
		const char *reply;
		size_t len;
		st = rsp_client_transact(t->rsp, req, &reply, &len, err);
		if (st == BR_OK)
			st = br_target_expect_ok("detaching", reply, len, err);
	}
	br_target_close(t);
	return st;
}

br_status_t br_target_kill(br_target_t *t, br_error_t *err)
{
	br_status_t st = BR_OK;
	if (t->running)
		st = br_target_halt(t, rsp_client_timeout(t->rsp), err);
	if (st == BR_OK)
		st = rsp_client_send(t->rsp, "k", 1, err);
	if (st == BR_OK) {
		/* The manual gives 'k' no reply; QEMU sends W00 and exits, others
		 * close the connection or say nothing. All three mean killed. */
		const char *reply;
		size_t len;
		br_error_t ignored;
		(void)rsp_client_receive(t->rsp, TARGET_KILL_TIMEOUT_MS, &reply, &len, &ignored);
		t->exited = true;
	}
	br_target_close(t);
	return st;
}
