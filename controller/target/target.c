#include "target/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#include "rsp/hex.h"

/* Room for "M" + 8 address digits + ',' + 8 length digits + ':' in a write packet. */
#define TARGET_MEM_HEADER_BYTES 20U
/* Thumb instructions are 2 bytes: the kind field of Z0/Z1 (GDB manual, "ARM Breakpoint Kinds"). */
#define TARGET_THUMB_BREAKPOINT_KIND 2U
/* The XML target description; read once so that p/P work on QEMU. */
#define TARGET_XML_CHUNK 0x7f0U
#define TARGET_XML_MAX_CHUNKS 64

static br_status_t expect_ok(const char *what, const char *reply, br_error_t *err)
{
	if (strcmp(reply, "OK") == 0)
		return BR_OK;
	if (reply[0] == '\0')
		return br_error_set(err, BR_ERR_PROTOCOL, "%s: the server does not support it",
				    what);
	return br_error_set(err, BR_ERR_TARGET, "%s: the server answered '%.32s'", what, reply);
}

static br_status_t read_target_xml(br_target_t *t, br_error_t *err)
{
	uint32_t offset = 0;
	for (int i = 0; i < TARGET_XML_MAX_CHUNKS; i++) {
		char req[96];
		snprintf(req, sizeof(req), "qXfer:features:read:target.xml:%x,%x", offset,
			 TARGET_XML_CHUNK);
		const char *reply;
		size_t len;
		br_status_t st = rsp_client_transact(&t->rsp, req, &reply, &len, err);
		if (st != BR_OK)
			return st;
		if (len == 0 || (reply[0] != 'm' && reply[0] != 'l'))
			return br_error_set(err, BR_ERR_PROTOCOL,
					    "reading target.xml: unexpected reply '%.32s'", reply);
		offset += (uint32_t)(len - 1);
		if (reply[0] == 'l')
			return BR_OK;
	}
	return br_error_set(err, BR_ERR_PROTOCOL, "target.xml longer than expected");
}

br_status_t br_target_attach(br_target_t *t, const rsp_transport_t *transport,
			     const br_flavour_t *flavour, br_error_t *err)
{
	memset(t, 0, sizeof(*t));
	t->flavour = flavour;
	rsp_client_init(&t->rsp, transport);
	br_status_t st = rsp_client_negotiate(&t->rsp, err);
	if (st != BR_OK)
		goto fail;
	const char *reply;
	size_t len;
	st = rsp_client_transact(&t->rsp, "?", &reply, &len, err);
	if (st != BR_OK)
		goto fail;
	if (flavour->registers_need_target_xml && t->rsp.features.xfer_features) {
		st = read_target_xml(t, err);
		if (st != BR_OK)
			goto fail;
	}
	return BR_OK;
fail:
	rsp_client_close(&t->rsp);
	return br_error_prefix(err, "attaching to %s", transport->peer);
}

void br_target_close(br_target_t *t)
{
	rsp_client_close(&t->rsp);
}

br_status_t br_target_detach(br_target_t *t, br_error_t *err)
{
	const char *reply;
	size_t len;
	br_status_t st = rsp_client_transact(&t->rsp, t->flavour->detach_packet, &reply, &len, err);
	rsp_client_close(&t->rsp);
	return st;
}

static size_t read_chunk_bytes(const br_target_t *t)
{
	size_t chunk = rsp_client_max_payload(&t->rsp) / 2U;
	if (t->flavour->max_read_bytes != 0 && chunk > t->flavour->max_read_bytes)
		chunk = t->flavour->max_read_bytes;
	return chunk;
}

br_status_t br_target_mem_read(br_target_t *t, uint32_t address, void *buf, size_t len,
			       br_error_t *err)
{
	uint8_t *out = buf;
	size_t chunk = read_chunk_bytes(t);
	while (len > 0) {
		size_t n = len < chunk ? len : chunk;
		char req[32];
		snprintf(req, sizeof(req), "m%x,%zx", address, n);
		const char *reply;
		size_t rlen;
		br_status_t st = rsp_client_transact(&t->rsp, req, &reply, &rlen, err);
		if (st != BR_OK)
			return st;
		const char *cursor = reply;
		if (rlen != 2U * n || !rsp_hex_bytes(&cursor, reply + rlen, out, n)) {
			if (reply[0] == 'E')
				return br_error_set(err, BR_ERR_TARGET,
						    "reading %zu bytes at 0x%08x failed (%.8s)", n,
						    address, reply);
			return br_error_set(err, BR_ERR_PROTOCOL,
					    "reading %zu bytes at 0x%08x: malformed reply '%.32s'",
					    n, address, reply);
		}
		out += n;
		address += (uint32_t)n;
		len -= n;
	}
	return BR_OK;
}

br_status_t br_target_mem_write(br_target_t *t, uint32_t address, const void *buf, size_t len,
				br_error_t *err)
{
	const uint8_t *in = buf;
	size_t max_payload = rsp_client_max_payload(&t->rsp);
	if (max_payload <= TARGET_MEM_HEADER_BYTES + 2U)
		return br_error_set(err, BR_ERR_PROTOCOL, "packet size too small for a write");
	size_t chunk = (max_payload - TARGET_MEM_HEADER_BYTES) / 2U;
	char *packet = xmalloc(max_payload + 1U);
	br_status_t st = BR_OK;
	while (len > 0) {
		size_t n = len < chunk ? len : chunk;
		int h = snprintf(packet, max_payload + 1U, "M%x,%zx:", address, n);
		rsp_hex_encode(in, n, packet + h, max_payload + 1U - (size_t)h);
		packet[(size_t)h + 2U * n] = '\0';
		const char *reply;
		size_t rlen;
		st = rsp_client_transact(&t->rsp, packet, &reply, &rlen, err);
		if (st != BR_OK)
			break;
		if (strcmp(reply, "OK") != 0) {
			st = br_error_set(err, BR_ERR_TARGET,
					  "writing %zu bytes at 0x%08x failed ('%.16s')", n, address,
					  reply);
			break;
		}
		in += n;
		address += (uint32_t)n;
		len -= n;
	}
	free(packet);
	return st;
}

br_status_t br_target_read_u32(br_target_t *t, uint32_t address, uint32_t *value, br_error_t *err)
{
	uint8_t b[4];
	br_status_t st = br_target_mem_read(t, address, b, sizeof(b), err);
	if (st != BR_OK)
		return st;
	*value = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return BR_OK;
}

br_status_t br_target_write_u32(br_target_t *t, uint32_t address, uint32_t value, br_error_t *err)
{
	uint8_t b[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
			(uint8_t)(value >> 24)};
	return br_target_mem_write(t, address, b, sizeof(b), err);
}

br_status_t br_target_reg_read(br_target_t *t, unsigned regno, uint32_t *value, br_error_t *err)
{
	char req[16];
	snprintf(req, sizeof(req), "p%x", regno);
	const char *reply;
	size_t len;
	br_status_t st = rsp_client_transact(&t->rsp, req, &reply, &len, err);
	if (st != BR_OK)
		return st;
	const char *cursor = reply;
	if (len != 8U || !rsp_hex_le_u32(&cursor, reply + len, value))
		return br_error_set(err, BR_ERR_PROTOCOL, "reading register %u: reply '%.16s'",
				    regno, reply);
	return BR_OK;
}

static int breakpoint_index(const br_target_t *t, uint32_t address)
{
	for (size_t i = 0; i < t->breakpoint_count; i++) {
		if (t->breakpoints[i].address == address)
			return (int)i;
	}
	return -1;
}

static br_status_t send_breakpoint(br_target_t *t, char op, br_breakpoint_kind_t kind,
				   uint32_t address, br_error_t *err)
{
	char req[40];
	snprintf(req, sizeof(req), "%c%d,%x,%u", op, (int)kind, address,
		 TARGET_THUMB_BREAKPOINT_KIND);
	const char *reply;
	size_t len;
	br_status_t st = rsp_client_transact(&t->rsp, req, &reply, &len, err);
	if (st != BR_OK)
		return st;
	char what[64];
	snprintf(what, sizeof(what), "%s %s breakpoint at 0x%08x",
		 op == 'Z' ? "inserting" : "removing",
		 kind == BR_BREAKPOINT_HARDWARE ? "hardware" : "software", address);
	return expect_ok(what, reply, err);
}

br_status_t br_target_breakpoint_insert(br_target_t *t, uint32_t address,
					br_breakpoint_kind_t kind, br_error_t *err)
{
	if (breakpoint_index(t, address) >= 0)
		return BR_OK;
	if (t->breakpoint_count == BR_TARGET_MAX_BREAKPOINTS)
		return br_error_set(err, BR_ERR_USAGE, "more than %u breakpoints",
				    BR_TARGET_MAX_BREAKPOINTS);
	br_status_t st = send_breakpoint(t, 'Z', kind, address, err);
	if (st != BR_OK)
		return st;
	t->breakpoints[t->breakpoint_count].address = address;
	t->breakpoints[t->breakpoint_count].kind = kind;
	t->breakpoint_count++;
	return BR_OK;
}

br_status_t br_target_breakpoint_remove(br_target_t *t, uint32_t address, br_error_t *err)
{
	int i = breakpoint_index(t, address);
	if (i < 0)
		return BR_OK;
	br_status_t st = send_breakpoint(t, 'z', t->breakpoints[i].kind, address, err);
	if (st != BR_OK)
		return st;
	t->breakpoints[i] = t->breakpoints[t->breakpoint_count - 1U];
	t->breakpoint_count--;
	return BR_OK;
}

br_status_t br_target_step(br_target_t *t, br_error_t *err)
{
	br_status_t st = rsp_client_send(&t->rsp, "s", 1, err);
	if (st != BR_OK)
		return st;
	rsp_stop_reply_t stop;
	return br_target_wait_stop(t, t->rsp.timeout_ms, &stop, err);
}

br_status_t br_target_resume(br_target_t *t, br_error_t *err)
{
	br_status_t st;
	if (!t->flavour->steps_over_breakpoints && t->breakpoint_count > 0) {
		uint32_t pc = 0;
		st = br_target_reg_read(t, BR_TARGET_REG_PC, &pc, err);
		if (st != BR_OK)
			return st;
		int i = breakpoint_index(t, pc);
		if (i >= 0) {
			br_breakpoint_kind_t kind = t->breakpoints[i].kind;
			st = br_target_breakpoint_remove(t, pc, err);
			if (st == BR_OK)
				st = br_target_step(t, err);
			if (st == BR_OK)
				st = br_target_breakpoint_insert(t, pc, kind, err);
			if (st != BR_OK)
				return br_error_prefix(err, "stepping over the breakpoint at 0x%08x",
						       pc);
		}
	}
	return rsp_client_send(&t->rsp, "c", 1, err);
}

/* Answers a File-I/O request (semihosting) while waiting for a stop. */
static br_status_t answer_fileio(br_target_t *t, const rsp_stop_reply_t *stop, br_error_t *err)
{
	char reply[32];
	if (strcmp(stop->fileio.name, "write") == 0 && stop->fileio.argc >= 3U) {
		uint32_t fd = stop->fileio.args[0].value;
		uint32_t addr = stop->fileio.args[1].value;
		uint32_t len = stop->fileio.args[2].value;
		char text[1024];
		uint32_t done = 0;
		while (done < len) {
			uint32_t n = len - done;
			if (n > sizeof(text))
				n = sizeof(text);
			br_status_t st = br_target_mem_read(t, addr + done, text, n, err);
			if (st != BR_OK)
				return st;
			if (t->output != NULL)
				t->output(t->output_ctx, (int)fd, text, n);
			done += n;
		}
		snprintf(reply, sizeof(reply), "F%x", len);
	} else {
		/* Unsupported call: -1 with errno ENOSYS (GDB manual, "Protocol-specific Representation of Datatypes"). */
		snprintf(reply, sizeof(reply), "F-1,58");
	}
	return rsp_client_send(&t->rsp, reply, strlen(reply), err);
}

br_status_t br_target_wait_stop(br_target_t *t, int timeout_ms, rsp_stop_reply_t *stop,
				br_error_t *err)
{
	for (;;) {
		const char *payload;
		size_t len;
		br_status_t st = rsp_client_receive(&t->rsp, timeout_ms, &payload, &len, err);
		if (st != BR_OK)
			return st;
		st = rsp_stop_reply_parse(payload, len, stop, err);
		if (st != BR_OK)
			return st;
		switch (stop->kind) {
		case RSP_STOP_OUTPUT:
			if (t->output != NULL)
				t->output(t->output_ctx, 1, stop->output.text, stop->output.len);
			continue;
		case RSP_STOP_FILEIO:
			st = answer_fileio(t, stop, err);
			if (st != BR_OK)
				return st;
			continue;
		case RSP_STOP_EXITED:
		case RSP_STOP_TERMINATED:
			t->exited = true;
			return br_error_set(err, BR_ERR_TARGET,
					    "the program ended (%s %d) instead of stopping",
					    stop->kind == RSP_STOP_EXITED ? "exit code" : "signal",
					    (int)stop->code);
		case RSP_STOP_ERROR:
			return br_error_set(err, BR_ERR_TARGET, "the server reported error %.8s",
					    payload);
		case RSP_STOP_SIGNAL:
			return BR_OK;
		}
	}
}
