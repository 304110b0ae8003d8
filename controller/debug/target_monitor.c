/*
 * Monitor commands (qRcmd, GDB manual "General Query Packets") and reset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "rsp/console.h"
#include "rsp/hex.h"
#include "rsp/quote.h"
#include "debug/target.h"
#include "debug/target_private.h"

/* A monitor command may take long (a reset, a flash erase): keepalives from
 * the server stretch this further (rsp/client.h). */
#define TARGET_MONITOR_TIMEOUT_MS 10000
/* Longest monitor command text. */
#define TARGET_MONITOR_MAX_COMMAND 256U

br_status_t br_target_monitor(br_target_t *t, const char *command, char *out, size_t cap,
                              br_error_t *err)
{
	size_t clen = strlen(command);
	if (clen > TARGET_MONITOR_MAX_COMMAND)
		return br_error_set(err, BR_ERR_USAGE, "monitor command too long");
	char req[8 + 2U * TARGET_MONITOR_MAX_COMMAND + 1U];
	int h = snprintf(req, sizeof(req), "qRcmd,");
	rsp_hex_encode(command, clen, req + h, sizeof(req) - (size_t)h);
	size_t used = 0;
	if (out != NULL && cap > 0)
		out[0] = '\0';
	const char *reply;
	size_t len;
	br_status_t st = rsp_client_request(t->rsp, req, strlen(req), TARGET_MONITOR_TIMEOUT_MS,
	                                    &reply, &len, err);
	for (;;) {
		if (st != BR_OK)
			return br_error_prefix(err, "monitor %s", command);
		if (len == 2U && memcmp(reply, "OK", 2) == 0)
			return BR_OK; /* shape 1: O... then OK */
		if (len == 3U && reply[0] == 'E' && rsp_all_hex(reply + 1, 2)) {
			/* shape 2: O... then E nn */
			return br_error_set(err, BR_ERR_TARGET, "monitor %s failed (%.3s)%s%s",
			                    command, reply, out != NULL && used > 0 ? ": " : "",
			                    out != NULL ? out : "");
		}
		if (len == 0U)
			return br_error_set(err, BR_ERR_PROTOCOL,
			                    "monitor %s: the server has no monitor commands",
			                    command);
		if (rsp_reply_is_console(reply, len)) {
			rsp_console_append(reply, len, out, cap, &used);
			st = rsp_client_receive(t->rsp, TARGET_MONITOR_TIMEOUT_MS, &reply, &len,
			                        err);
			continue;
		}
		if (len % 2U == 0U && rsp_all_hex(reply, len)) {
			/* shape 3: a bare hex result (OpenOCD's version, mdw) */
			rsp_hex_text_append(reply, len, out, cap, &used);
			return BR_OK;
		}
		char q[RSP_QUOTE_BUFFER_BYTES];
		return br_error_set(err, BR_ERR_PROTOCOL, "monitor %s: unexpected reply %s",
		                    command, rsp_quote(reply, len, q, sizeof(q)));
	}
}

br_status_t br_target_reset(br_target_t *t, br_error_t *err)
{
	if (t->flavour->reset_command == NULL)
		return br_error_set(err, BR_ERR_USAGE,
		                    "%s: no known way to reset through this server; name the "
		                    "server's flavour (%s)",
		                    t->flavour->description, br_flavour_names());
	char text[512];
	br_status_t st = br_target_monitor(t, t->flavour->reset_command, text, sizeof(text), err);
	br_target_forget_halt(t);
	return st;
}
