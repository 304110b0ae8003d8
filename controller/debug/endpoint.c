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
	ep->kind = BR_SERVER_KIND_QEMU;
	ep->launch.params[BR_QEMU_KEY_MACHINE] = BR_QEMU_DEFAULT_MACHINE;
}

void br_endpoint_set_kind(br_endpoint_t *ep, br_server_kind_id_t kind)
{
	if (ep->kind != kind)
		memset(ep->launch.params, 0, sizeof(ep->launch.params));
	ep->kind = kind;
}

const br_server_kind_t *br_endpoint_kind(const br_endpoint_t *ep)
{
	return br_server_kind_get(ep->kind);
}

const br_flavour_t *br_endpoint_flavour(const br_endpoint_t *ep)
{
	const char *name = ep->flavour != NULL ? ep->flavour : br_endpoint_kind(ep)->flavour;
	return name != NULL ? br_flavour_find(name) : br_flavour_generic();
}

/* Launches or connects as the kind says; fills transport and the description. */
static br_status_t reach(const br_endpoint_t *ep, br_session_t *s, rsp_transport_t *transport,
                         br_error_t *err)
{
	const br_server_kind_t *kind = br_endpoint_kind(ep);
	char what[sizeof(s->description)];
	br_status_t st = BR_ERR_USAGE;
	switch (kind->reach) {
	case BR_SERVER_REACH_LAUNCH:
		st = br_server_launch(kind, &ep->launch, &s->server, transport, err);
		br_server_kind_describe(kind, &ep->launch, what, sizeof(what));
		break;
	case BR_SERVER_REACH_TCP:
		if (ep->host == NULL || ep->port == 0)
			return br_error_set(err, BR_ERR_USAGE, "a %s server needs HOST:PORT",
			                    kind->name);
		/* A server being started by someone else may not listen yet. */
		st = rsp_transport_tcp_connect_retry(transport, ep->host, ep->port,
		                                     ENDPOINT_CONNECT_TIMEOUT_MS, NULL, NULL, err);
		snprintf(what, sizeof(what), "%s", br_endpoint_flavour(ep)->description);
		break;
	case BR_SERVER_REACH_SERIAL:
		if (ep->device == NULL)
			return br_error_set(err, BR_ERR_USAGE, "a %s probe needs a device",
			                    kind->name);
		st = rsp_transport_serial_open(transport, ep->device, ep->baud, err);
		if (st == BR_OK)
			snprintf(s->description, sizeof(s->description), "%s on %s",
			         br_endpoint_flavour(ep)->description, ep->device);
		return st;
	}
	if (st != BR_OK)
		return st;
	size_t n = strlen(what);
	memcpy(s->description, what, n + 1);
	snprintf(s->description + n, sizeof(s->description) - n, " at %s", transport->peer);
	return BR_OK;
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
