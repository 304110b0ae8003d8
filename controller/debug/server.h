/*
 * gdbservers that benchrack launches as child processes (the launched kinds
 * of debug/server_kind_table.h: QEMU, OpenOCD): on 127.0.0.1, on a free port,
 * started with the command line their kind's builder makes, ready when a
 * connection succeeds (connect-retry with a deadline, never a fixed sleep),
 * stopped cleanly, with their stderr kept so that an error can quote the
 * server's own reason. What differs between kinds is in their rows; nothing
 * here names one.
 */
#ifndef BENCHRACK_TARGET_SERVER_H
#define BENCHRACK_TARGET_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "debug/server_kind.h"
#include "rsp/transport.h"

#define BR_SERVER_HOST "127.0.0.1"
#define BR_SERVER_READY_TIMEOUT_MS 10000
#define BR_SERVER_STDERR_TAIL 512U
/* QEMU's record file (record mode), in the server's rr_dir. */
#define BR_SERVER_RR_FILE "replay.bin"

typedef struct br_server {
	pid_t pid; /* 0 when not running */
	uint16_t port;
	char name[32];      /* "qemu-system-arm", for messages */
	char log_path[256]; /* the server's stderr and stdout */
	char rr_dir[64];    /* QEMU record mode: the temporary directory of its
	                       record file, removed with it by br_server_stop ("": none) */
	int exit_status;    /* as waitpid reports it, once exited */
	bool exited;
} br_server_t;

/*
 * Starts the server of a launched kind (debug/server_kind.h) on 127.0.0.1 at
 * a free port: opts's program (or the kind's), found on PATH, with the
 * command line the kind's builder makes from opts. A missing program is
 * BR_ERR_INFRA saying what to install (the row's install). The port is bound
 * by benchrack first: a server that listens on the inherited socket (QEMU)
 * can be given no port another launch takes; one that binds it itself
 * (OpenOCD) and loses a race for it is started again on another, up to 3
 * times. Readiness is proven by connecting (br_server_connect): on success
 * *transport is that connection (QEMU's gdbstub serves one client), and the
 * server runs until br_server_stop; when it exits first, BR_ERR_INFRA quotes
 * its own last lines. In record mode a refusal of it is explained
 * (br_server_record_refused).
 */
br_status_t br_server_launch(const br_server_kind_t *kind, const br_server_launch_t *opts,
                             br_server_t *server, rsp_transport_t *transport, br_error_t *err);

/*
 * Connects to the launched server, retrying until it accepts or
 * BR_SERVER_READY_TIMEOUT_MS passes or the process exits; in the last two
 * cases the error quotes the end of the server's own output.
 */
br_status_t br_server_connect(br_server_t *server, rsp_transport_t *transport, br_error_t *err);

/* True while the child process has not exited (reaps it when it has). */
bool br_server_alive(br_server_t *server);

/*
 * Copies the last part of the server's output (at most cap-1 bytes, one line,
 * newlines turned into " | ") into buf, for error messages.
 */
void br_server_log_tail(const br_server_t *server, char *buf, size_t cap);

/*
 * Copies into buf (at most cap-1 bytes) the server's own verdict from
 * anywhere in its output: the first line holding "fatal:" (QEMU's "qemu:
 * fatal: Lockup: ...", printed before a register dump that fills the tail),
 * else the first holding "Error:" (OpenOCD). "" when there is none.
 */
void br_server_fatal_line(const br_server_t *server, char *buf, size_t cap);

/* Stops the server: SIGTERM, then SIGKILL if it has not exited within a
 * short deadline; reaps it and removes its log (and a record file with its
 * directory). Safe on a stopped server. */
void br_server_stop(br_server_t *server);

/* Ends a launched server at once (SIGKILL), for one that cannot wind down:
 * QEMU in record mode ignores SIGTERM while its guest runs (measured on
 * QEMU 7.2: still alive 8 s after it), so br_server_stop would wait out its
 * grace. br_server_stop still reaps it and removes its files. */
void br_server_kill(br_server_t *server);

/* When said (a launched QEMU's last words) is QEMU refusing record mode on
 * a machine of two cores, prefixes err with what that means for counting
 * (BR_ERR_INFRA); otherwise leaves err alone. */
void br_server_record_refused(const char *said, br_error_t *err);

/*
 * Finds program on PATH (or checks it when it contains '/'). Returns true and
 * the full path in out when it is an executable file.
 */
bool br_server_find_program(const char *program, char *out, size_t cap);

#endif
