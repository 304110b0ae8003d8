/*
 * OpenOCD's dialect, against a real OpenOCD 0.12 serving a fake target with
 * its dummy adapter (dummy.cfg), launched by the target layer: no-ack mode,
 * binary X writes, qCRC, the three shapes of qRcmd replies, keepalives during
 * a long command, the 1020-character checksum bug (shown on a raw request,
 * avoided by the target's reads), Z1 refused, a second client closed at once,
 * detach. Each checked fact is a column of the openocd flavour row.
 *
 * usage: test_openocd_dialect OPENOCD DUMMY_CFG
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "rsp/client.h"
#include "rsp/crc32.h"
#include "debug/endpoint.h"

#define BUG_READ_BYTES 510U

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s OPENOCD DUMMY_CFG\n", argv[0]);
		return 2;
	}
	br_endpoint_t ep;
	br_endpoint_init(&ep);
	br_endpoint_set_kind(&ep, BR_SERVER_KIND_OPENOCD);
	ep.launch.program = argv[1];
	ep.launch.params[BR_OPENOCD_KEY_INTERFACE] = argv[2];
	br_session_t s;
	br_error_t err;
	if (br_session_open(&ep, &s, &err) != BR_OK) {
		fprintf(stderr, "cannot start OpenOCD: %s\n", err.message);
		return 1;
	}
	br_target_t *t = &s.target;
	const br_flavour_t *fl = br_flavour_openocd();
	CHECK(t->flavour == fl);
	printf("attached: %s\n", s.description);

	/* No-ack mode offered and taken; PacketSize 0x4000. */
	CHECK(rsp_client_features(t->rsp)->no_ack_mode && rsp_client_no_ack(t->rsp));
	CHECK(rsp_client_features(t->rsp)->packet_size == 0x4000U);

	/* Binary writes: the empty-X probe is accepted, the write answers OK. */
	uint8_t data[8] = {'$', '#', '}', '*', 0, 1, 2, 3};
	CHECK_MSG(br_target_mem_write(t, 0x1000U, data, sizeof(data), &err) == BR_OK, "%s",
	          err.message);
	CHECK(t->x_packet == 1);

	/* qCRC: the server's checksum of what it reads equals ours of the same bytes. */
	uint8_t mem[16];
	uint32_t crc = 0;
	CHECK(br_target_mem_read(t, 0x0U, mem, sizeof(mem), &err) == BR_OK);
	CHECK_MSG(br_target_mem_crc(t, 0x0U, sizeof(mem), &crc, &err) == BR_OK, "%s", err.message);
	CHECK_MSG(crc == rsp_crc32_update(RSP_CRC32_SEED, mem, sizeof(mem)),
	          "qCRC 0x%08x, local 0x%08x", crc, rsp_crc32_update(RSP_CRC32_SEED, mem, 16));
	CHECK(t->qcrc_packet == 1);

	/* qRcmd, shape 1: O packets then OK. */
	char text[4096];
	CHECK_MSG(br_target_monitor(t, "help reset", text, sizeof(text), &err) == BR_OK, "%s",
	          err.message);
	CHECK(strstr(text, "reset") != NULL);
	/* Shape 2: O packets then E nn — an error quoting the server's text. */
	CHECK(br_target_monitor(t, "bogus_command", text, sizeof(text), &err) == BR_ERR_TARGET);
	CHECK_MSG(strstr(err.message, "invalid command name") != NULL, "%s", err.message);
	/* Shape 3: a bare hex result (after a keepalive). */
	CHECK_MSG(br_target_monitor(t, "version", text, sizeof(text), &err) == BR_OK, "%s",
	          err.message);
	CHECK_MSG(strstr(text, "Open On-Chip Debugger") != NULL, "version: %s", text);
	CHECK(br_target_monitor(t, "mdw 0", text, sizeof(text), &err) == BR_OK);
	CHECK_MSG(strstr(text, "0x00000000:") != NULL, "mdw: %s", text);

	/* Keepalives: empty O packets while a command runs long; the wait goes on. */
	unsigned long keepalives = rsp_client_counters(t->rsp)->keepalives;
	CHECK_MSG(br_target_monitor(t, "sleep 1200", text, sizeof(text), &err) == BR_OK, "%s",
	          err.message);
	CHECK_MSG(rsp_client_counters(t->rsp)->keepalives > keepalives, "no keepalive seen");

	/* The 1020-character bug avoided: a 510-byte read is split, nothing damaged. */
	static uint8_t big[BUG_READ_BYTES];
	CHECK(fl->broken_reply_chars == 1020U);
	CHECK_MSG(br_target_mem_read(t, 0x0U, big, sizeof(big), &err) == BR_OK, "%s", err.message);
	CHECK(rsp_client_counters(t->rsp)->rerequests == 0);

	/* Hardware breakpoints run out (limits_hardware_breakpoints): the fake
	 * ARM7TDMI has 2 watchpoint units; the third Z1 is refused with an error
	 * naming the comparators, never taken silently. */
	br_status_t zst = BR_OK;
	unsigned inserted = 0;
	for (uint32_t a = 0x100U; a <= 0x400U && zst == BR_OK; a += 0x100U) {
		zst = br_target_breakpoint_insert(t, a, BR_BREAKPOINT_HARDWARE, &err);
		inserted += zst == BR_OK ? 1U : 0U;
	}
	CHECK(fl->limits_hardware_breakpoints);
	CHECK_MSG(zst == BR_ERR_TARGET && inserted == 2U, "Z1: %u inserted, then status %d: %s",
	          inserted, (int)zst, err.message);
	CHECK(strstr(err.message, "comparators") != NULL);
	CHECK(br_target_breakpoint_remove_all(t, &err) == BR_OK);

	/* A second client on the same port is accepted and closed at once. */
	rsp_transport_t second;
	CHECK(rsp_transport_tcp_connect(&second, BR_SERVER_HOST, s.server.port, 2000, &err) ==
	      BR_OK);
	uint8_t byte;
	size_t got = 0;
	CHECK(rsp_transport_read(&second, &byte, 1, &got, 2000, &err) == BR_ERR_INFRA);
	rsp_transport_close(&second);

	/* Detach, then show the bug on a raw connection: m of 510 bytes always
	 * comes back with a broken checksum, even when asked again. */
	CHECK_MSG(br_target_detach(t, &err) == BR_OK, "%s", err.message);
	s.open = false;
	rsp_client_t *c = NULL;
	bool connected = false;
	/* OpenOCD closes the detached connection asynchronously; until it has,
	 * a new client counts as a second one and is closed: retry briefly. */
	for (int attempt = 0; attempt < 50 && !connected; attempt++) {
		rsp_transport_t raw;
		if (rsp_transport_tcp_connect(&raw, BR_SERVER_HOST, s.server.port, 2000, &err) !=
		    BR_OK)
			break;
		c = rsp_client_open(&raw);
		connected = rsp_client_negotiate(c, &err) == BR_OK;
		if (!connected) {
			rsp_client_close(c);
			c = NULL;
			struct timespec pause = {0, 20000000L};
			nanosleep(&pause, NULL);
		}
	}
	CHECK_MSG(connected && rsp_client_no_ack(c), "reconnecting: %s", err.message);
	if (!connected)
		return check_finish();
	const char *reply;
	size_t len;
	CHECK(rsp_client_transact(c, "m0,1fe", &reply, &len, &err) == BR_ERR_PROTOCOL);
	CHECK_MSG(rsp_client_counters(c)->rerequests == RSP_CLIENT_RESEND_LIMIT, "%lu re-requests",
	          rsp_client_counters(c)->rerequests);
	printf("raw m0,1fe: %s\n", err.message);
	rsp_client_close(c);
	br_session_close(&s, false);
	return check_finish();
}
