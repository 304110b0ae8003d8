/*
 * The kinds of server a board file's `server: kind:` names: how benchrack
 * reaches the gdbserver in front of a board (launches it as a child process,
 * or attaches at host:port or on a serial device), and everything that
 * differs between kinds, each a column of br_server_kind_t. The rows are
 * debug/server_kind_table.h, one per kind. From them come the board schema's
 * kinds and each kind's keys (config/board.c), the "expected one of" of
 * errors, the default flavour, the descriptions of a board and a session,
 * the launched program's command line (the row's builder), and the
 * readiness wait and stop every launched kind shares (debug/server.h).
 *
 * Adding a kind is its row there, plus, for a launched kind, the file of its
 * command-line builder and that file's line in debug/meson.build: three
 * files (tests/unit/target/server_kind_row/ builds the tree with one
 * kind more and launches and attaches through it).
 */
#ifndef BENCHRACK_DEBUG_SERVER_KIND_H
#define BENCHRACK_DEBUG_SERVER_KIND_H

#include <stdbool.h>
#include <stddef.h>

#include "debug/server_cmdline.h"

/* How a kind's server is reached. */
typedef enum br_server_reach {
	/* benchrack starts its program on 127.0.0.1 at a free port (board keys
	 * program, the row's keys, args) and connects when it listens */
	BR_SERVER_REACH_LAUNCH,
	/* already running at host:port (board keys host, port, flavour) */
	BR_SERVER_REACH_TCP,
	/* a probe speaking RSP on a serial device (board keys device, flavour) */
	BR_SERVER_REACH_SERIAL,
} br_server_reach_t;

/* The most kinds the table may hold (config/board.c's schema room). */
#define BR_SERVER_KIND_MAX 16U

/* What a key's value says about the physical probe a launched server drives
 * (rack/board_identity.h: boards on one probe are locked as one). */
typedef enum br_server_key_identity {
	BR_SERVER_KEY_NO_IDENTITY,
	BR_SERVER_KEY_PROBE,       /* names the probe (a serial number): "probe-VALUE" */
	BR_SERVER_KEY_FIRST_PROBE, /* without a probe key, the first probe of this
	                              (an interface script): "probe-first-BASENAME" */
} br_server_key_identity_t;

/* A board key of a launched kind: a string, handed to its builder as
 * opts->params[i], i its place in the row's keys. */
typedef struct br_server_key {
	const char *name; /* as the board file spells it */
	bool required;
	const char *form; /* the expected value in words, for messages */
	const char *flag; /* shown before its value in descriptions ("-M"); NULL: not shown */
	br_server_key_identity_t identity;
} br_server_key_t;

/* One row of debug/server_kind_table.h; a column left out is 0, false or NULL. */
typedef struct br_server_kind {
	const char *name; /* the board file's kind: */
	br_server_reach_t reach;
	/* The flavour of its gdbserver (a debug/flavour_table.h name); NULL: the
	 * board must name one (its flavour key is required). A board of a kind
	 * that is reached (TCP, SERIAL) may name another; the default when
	 * nothing names one is the generic flavour. */
	const char *flavour;
	/* LAUNCH only. */
	const char *title;             /* "QEMU": "the QEMU program", "extra QEMU arguments" */
	const char *program;           /* started when nothing names one, found on PATH */
	const char *install;           /* what to do when it is missing ("install QEMU (...)") */
	br_server_cmdline_fn *cmdline; /* its command line */
	br_server_key_t keys[BR_SERVER_LAUNCH_PARAMS]; /* board keys besides program and args */
	const char *args_example; /* after the args key's form: ", e.g. [-d, guest_errors]" */
	bool takes_image;         /* it loads the firmware itself (QEMU -kernel ELF) */
	bool emulated;            /* an emulator: no probe to lock, its timers tick per
	                             instruction, its gdbstub the qemu flavour's */
} br_server_kind_t;

#include "debug/server_kind_table.h"

/* The kinds' ids, in row order (BR_SERVER_KIND_QEMU, ...). Code compiled
 * against one table is linked with another that has rows more (the row
 * test), so only server_kind.c counts them: use br_server_kind_count(). */
#define BR_SERVER_KIND_ID_ROW(id, ...) BR_SERVER_KIND_##id,
typedef enum br_server_kind_id { BR_SERVER_KIND_ROWS(BR_SERVER_KIND_ID_ROW) } br_server_kind_id_t;
#undef BR_SERVER_KIND_ID_ROW

/* The number of rows. */
size_t br_server_kind_count(void);

/* Row id (id < br_server_kind_count()). */
const br_server_kind_t *br_server_kind_get(br_server_kind_id_t id);

/* The row called name, its id in *id when id is not NULL; NULL when none is. */
const br_server_kind_t *br_server_kind_find(const char *name, br_server_kind_id_t *id);

/* The kinds' names in row order, NULL-terminated (the board schema's enum
 * names: a board's kind is an index into it). */
extern const char *const br_server_kind_names[];

/* The kind's name ("?" for an id past the rows). */
const char *br_server_kind_name(br_server_kind_id_t id);

/*
 * Writes what a launched server of kind runs with opts into buf: its program
 * (opts's or the kind's) followed by each key given whose row has a flag, as
 * "FLAG VALUE": "qemu-system-arm -M netduinoplus2".
 */
void br_server_kind_describe(const br_server_kind_t *kind, const br_server_launch_t *opts,
                             char *buf, size_t cap);

#endif
