/*
 * How to reach a board, as data, and a session on it: launch a server (a
 * launched kind of debug/server_kind_table.h: QEMU, OpenOCD) or attach to one
 * already running at host:port or on a serial device, then attach the target layer with the right
 * flavour, memory map and comparator count. config/ fills a br_endpoint_t from a board file;
 * `benchrack probe` fills one from its options.
 */
#ifndef BENCHRACK_TARGET_ENDPOINT_H
#define BENCHRACK_TARGET_ENDPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "debug/memory_map.h"
#include "debug/server.h"
#include "debug/server_kind.h"
#include "debug/target.h"

typedef struct br_endpoint {
	/* How the server is reached: a row of debug/server_kind_table.h. */
	br_server_kind_id_t kind;
	/* Which server answers: a br_flavour_t name. NULL: the kind's flavour
	 * (qemu for QEMU, openocd for OPENOCD, bmp for SERIAL), else generic. */
	const char *flavour;
	br_server_launch_t launch; /* a launched kind: its program, keys and arguments */
	const char *host;          /* TCP: host:port */
	uint16_t port;
	const char *device; /* SERIAL: /dev/ttyACM0 */
	unsigned baud;      /* SERIAL: 0 for the default */
	/* The board's memory regions (count 0: none; the server's map is used
	 * when it offers one and the board gives none). */
	br_memory_map_t memory_map;
	/* The board's FPB comparator count (0: unknown). */
	unsigned hw_breakpoints;
	/* Per-request timeout in ms (0: RSP_CLIENT_DEFAULT_TIMEOUT_MS). */
	int timeout_ms;
} br_endpoint_t;

typedef struct br_session {
	br_server_t server; /* pid 0 when nothing was launched */
	br_target_t target;
	bool open;
	char description[192]; /* "qemu-system-arm -M netduinoplus2 at 127.0.0.1:40123" */
} br_session_t;

/* Sets every field to its default: kind QEMU on machine
 * BR_QEMU_DEFAULT_MACHINE, the kind's program. */
void br_endpoint_init(br_endpoint_t *ep);

/* Makes ep of kind, the values of the previous kind's keys forgotten when
 * it was another. */
void br_endpoint_set_kind(br_endpoint_t *ep, br_server_kind_id_t kind);

/* The row of ep's kind. */
const br_server_kind_t *br_endpoint_kind(const br_endpoint_t *ep);

/* The flavour ep names or implies; NULL when the name is unknown. */
const br_flavour_t *br_endpoint_flavour(const br_endpoint_t *ep);

/*
 * Launches or connects as ep says and attaches. On failure nothing stays
 * running, and when a launched server died its own last words are quoted
 * (BR_ERR_INFRA). An unknown flavour name is BR_ERR_USAGE.
 */
br_status_t br_session_open(const br_endpoint_t *ep, br_session_t *s, br_error_t *err);

/*
 * Ends the session: detaches when detach is true (the target runs on),
 * otherwise just closes the connection; then stops a launched server. Safe
 * on a session that failed to open.
 */
void br_session_close(br_session_t *s, bool detach);

/*
 * When the last error may be explained by the launched server dying, adds its
 * last words to err. Call after a failure during the session.
 */
void br_session_explain(br_session_t *s, br_error_t *err);

#endif
