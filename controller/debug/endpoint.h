/*
 * How to reach a board, as data, and a session on it: launch a server (QEMU,
 * OpenOCD) or attach to one already running at host:port or on a serial
 * device, then attach the target layer with the right flavour, memory map
 * and comparator count. config/ fills a br_endpoint_t from a board file;
 * `benchrack probe` fills one from its options.
 */
#ifndef BENCHRACK_TARGET_ENDPOINT_H
#define BENCHRACK_TARGET_ENDPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/server_names.h"
#include "debug/memory_map.h"
#include "debug/server.h"
#include "debug/target.h"

/* In the order of BR_SERVER_KIND_LIST (common/server_names.h): launch
 * qemu-system-arm -M machine; launch openocd with an interface and a target
 * cfg; a server already running at host:port; a probe speaking RSP on a
 * serial device (Black Magic Probe). */
#define BR_ENDPOINT_KIND_ROW(id, name) BR_ENDPOINT_##id,
typedef enum br_endpoint_kind { BR_SERVER_KIND_LIST(BR_ENDPOINT_KIND_ROW) } br_endpoint_kind_t;
#undef BR_ENDPOINT_KIND_ROW

typedef struct br_endpoint {
	br_endpoint_kind_t kind;
	/* Which server answers: a br_flavour_t name. NULL: the qemu flavour for
	 * QEMU, openocd for OPENOCD, bmp for SERIAL, generic for REMOTE. */
	const char *flavour;
	br_qemu_options_t qemu;       /* QEMU */
	br_openocd_options_t openocd; /* OPENOCD */
	const char *host;             /* REMOTE */
	uint16_t port;                /* REMOTE */
	const char *device;           /* SERIAL: /dev/ttyACM0 */
	unsigned baud;                /* SERIAL: 0 for the default */
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

/* Sets every field to its default (kind QEMU, programs by name). */
void br_endpoint_init(br_endpoint_t *ep);

/* The kind's name in BR_SERVER_KIND_LIST. */
const char *br_endpoint_kind_name(br_endpoint_kind_t kind);

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
