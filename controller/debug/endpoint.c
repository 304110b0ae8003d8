#include "debug/endpoint.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "rsp/transport.h"
#include "debug/cortex_m.h"

#define ENDPOINT_CONNECT_TIMEOUT_MS 5000
#define SESSION_EXIT_WAIT_MS 2000 /* a server whose connection ended exits within this */
#define SESSION_EXIT_POLL_NS 10000000L

void br_endpoint_init(br_endpoint_t *ep)
{
	memset(ep, 0, sizeof(*ep));
	ep->kind = BR_ENDPOINT_QEMU;
	ep->qemu.program = BR_QEMU_PROGRAM;
	ep->qemu.machine = "netduinoplus2";
	ep->openocd.program = BR_OPENOCD_PROGRAM;
}

const char *br_endpoint_kind_name(br_endpoint_kind_t kind)
{
	return (unsigned)kind <= BR_ENDPOINT_SERIAL ? br_server_kind_names[kind] : "?";
}

const br_flavour_t *br_endpoint_flavour(const br_endpoint_t *ep)
{
	if (ep->flavour != NULL)
		return br_flavour_find(ep->flavour);
	switch (ep->kind) {
	case BR_ENDPOINT_QEMU:
		return br_flavour_qemu();
	case BR_ENDPOINT_OPENOCD:
		return br_flavour_openocd();
	case BR_ENDPOINT_SERIAL:
		return br_flavour_get(BR_FLAVOUR_BMP);
	case BR_ENDPOINT_REMOTE:
		break;
	}
	return br_flavour_generic();
}

/* Launches or connects; fills transport and the description. */
static br_status_t reach(const br_endpoint_t *ep, br_session_t *s, rsp_transport_t *transport,
                         br_error_t *err)
{
	br_status_t st;
	switch (ep->kind) {
	case BR_ENDPOINT_QEMU:
		st = br_server_launch_qemu(&ep->qemu, &s->server, transport, err);
		if (st == BR_OK)
			snprintf(s->description, sizeof(s->description), "%s -M %s at %s",
			         ep->qemu.program, ep->qemu.machine, transport->peer);
		return st;
	case BR_ENDPOINT_OPENOCD:
		st = br_server_launch_openocd(&ep->openocd, &s->server, transport, err);
		if (st == BR_OK)
			snprintf(s->description, sizeof(s->description), "%s (%s, %s) at %s",
			         ep->openocd.program,
			         ep->openocd.interface_cfg != NULL ? ep->openocd.interface_cfg
			                                           : "-",
			         ep->openocd.target_cfg != NULL ? ep->openocd.target_cfg : "-",
			         transport->peer);
		return st;
	case BR_ENDPOINT_REMOTE:
		if (ep->host == NULL || ep->port == 0)
			return br_error_set(err, BR_ERR_USAGE, "a remote server needs HOST:PORT");
		/* A server being started by someone else may not listen yet. */
		st = rsp_transport_tcp_connect_retry(transport, ep->host, ep->port,
		                                     ENDPOINT_CONNECT_TIMEOUT_MS, NULL, NULL, err);
		if (st == BR_OK)
			snprintf(s->description, sizeof(s->description), "%s at %s",
			         br_endpoint_flavour(ep)->description, transport->peer);
		return st;
	case BR_ENDPOINT_SERIAL:
		if (ep->device == NULL)
			return br_error_set(err, BR_ERR_USAGE, "a serial probe needs a device");
		st = rsp_transport_serial_open(transport, ep->device, ep->baud, err);
		if (st == BR_OK)
			snprintf(s->description, sizeof(s->description), "%s on %s",
			         br_endpoint_flavour(ep)->description, ep->device);
		return st;
	}
	return br_error_set(err, BR_ERR_USAGE, "unknown endpoint kind");
}

br_status_t br_session_open(const br_endpoint_t *ep, br_session_t *s, br_error_t *err)
{
	memset(s, 0, sizeof(*s));
	const br_flavour_t *flavour = br_endpoint_flavour(ep);
	if (flavour == NULL)
		return br_error_set(err, BR_ERR_USAGE, "unknown server flavour '%s' (one of: %s)",
		                    ep->flavour, br_flavour_names());
	rsp_transport_t transport;
	br_status_t st = reach(ep, s, &transport, err);
	if (st != BR_OK) {
		br_server_stop(&s->server);
		return st;
	}
	st = br_target_attach(&s->target, &transport, flavour, err);
	if (st != BR_OK) {
		br_session_explain(s, err);
		br_server_stop(&s->server);
		return st;
	}
	if (ep->timeout_ms > 0)
		rsp_client_set_timeout(s->target.rsp, ep->timeout_ms);
	if (ep->memory_map.count > 0)
		br_target_set_memory_map(&s->target, &ep->memory_map);
	s->open = true;
	if (ep->hw_breakpoints > 0) {
		br_target_set_hw_breakpoint_limit(&s->target, ep->hw_breakpoints);
	} else if (flavour->limits_hardware_breakpoints) {
		/* No count from the board: the FPB says (FPB_CTRL.NUM_CODE), when
		 * CPUID shows a Cortex-M core whose debug registers can be trusted. */
		br_cortex_m_info_t info;
		br_error_t ignored;
		if (br_cortex_m_identify(&s->target, &info, &ignored) == BR_OK &&
		    info.fpb_comparators > 0U)
			br_target_set_hw_breakpoint_limit(&s->target, info.fpb_comparators);
		if (!rsp_client_usable(s->target.rsp)) {
			*err = ignored;
			br_session_close(s, false);
			return br_error_prefix(err, "reading the core's debug registers");
		}
	}
	return BR_OK;
}

void br_session_explain(br_session_t *s, br_error_t *err)
{
	if (s->server.pid == 0)
		return;
	/* A connection the server ended (W/X, EOF, reset) is most often the
	 * server going away: give it a moment to finish, so that its last
	 * words are read rather than missed by a race. */
	int64_t deadline = br_clock_ms() + SESSION_EXIT_WAIT_MS;
	while ((!s->open || !rsp_client_usable(s->target.rsp)) && br_server_alive(&s->server) &&
	       br_clock_remaining_ms(deadline) > 0)
		nanosleep(&(struct timespec){.tv_nsec = SESSION_EXIT_POLL_NS}, NULL);
	if (br_server_alive(&s->server))
		return;
	char tail[BR_SERVER_STDERR_TAIL];
	/* its own verdict when it printed one (QEMU's "qemu: fatal: ..." comes
	 * before a register dump that would fill the tail), else its last words */
	br_server_fatal_line(&s->server, tail, sizeof(tail));
	if (tail[0] == '\0')
		br_server_log_tail(&s->server, tail, sizeof(tail));
	br_error_prefix(err, "%s died%s%s", s->server.name, tail[0] != '\0' ? " saying: " : "",
	                tail);
	br_server_record_refused(tail, err);
	if (err->status != BR_ERR_USAGE && err->status != BR_ERR_INPUT)
		err->status = BR_ERR_INFRA;
}

void br_session_close(br_session_t *s, bool detach)
{
	if (s->open) {
		br_error_t ignored;
		if (detach && rsp_client_usable(s->target.rsp))
			(void)br_target_detach(&s->target, &ignored);
		else
			br_target_close(&s->target);
		s->open = false;
	}
	br_server_stop(&s->server);
}
