/*
 * gdbservers that benchrack launches as child processes (QEMU, OpenOCD): on
 * 127.0.0.1, on a free port, ready when a connection succeeds (connect-retry
 * with a deadline, never a fixed sleep), stopped cleanly, with their stderr
 * kept so that an error can quote the server's own reason.
 */
#ifndef BENCHRACK_TARGET_SERVER_H
#define BENCHRACK_TARGET_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "rsp/transport.h"

#define BR_SERVER_HOST "127.0.0.1"
#define BR_SERVER_READY_TIMEOUT_MS 10000
#define BR_SERVER_STDERR_TAIL 512U
/* Extra arguments a board adds to a launched server's command line. */
#define BR_SERVER_MAX_EXTRA_ARGS 16U

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

typedef struct br_qemu_options {
	const char *program; /* qemu-system-arm, a name on PATH or a path */
	const char *machine; /* -M, e.g. netduinoplus2 */
	const char *kernel;  /* the firmware ELF QEMU loads; NULL: none (empty flash) */
	bool semihosting;    /* -semihosting-config enable=on,target=gdb */
	/* Record mode, for QEMU's exact instruction count (measure/counter.h,
	 * icount): -icount shift=0,rr=record,rrfile=FILE, FILE in a temporary
	 * directory of its own that br_server_stop removes. Refused by QEMU on
	 * its dual-core machines (BR_ERR_INFRA saying so). */
	bool record;
	const char *const *extra_args; /* appended after the rest (a board's args), or NULL */
	size_t extra_arg_count;        /* at most BR_SERVER_MAX_EXTRA_ARGS are used */
} br_qemu_options_t;

typedef struct br_openocd_options {
	const char *program;           /* openocd, a name on PATH or a path */
	const char *interface_cfg;     /* -f, e.g. interface/stlink.cfg (NULL: none) */
	const char *target_cfg;        /* -f, e.g. target/stm32f4x.cfg (NULL: none) */
	const char *serial;            /* the probe's serial number (adapter serial), or NULL */
	const char *const *extra_args; /* after the configuration files (a board's args), or NULL */
	size_t extra_arg_count;        /* at most BR_SERVER_MAX_EXTRA_ARGS are used */
} br_openocd_options_t;

/*
 * Starts QEMU halted (-S) with -icount shift=0 (one virtual nanosecond per
 * instruction) and its gdbstub on 127.0.0.1 at a free port, the firmware
 * loaded by -kernel. A missing program is BR_ERR_INFRA naming the package to
 * install. The port is bound by benchrack and handed to QEMU as an open
 * socket, so no concurrent launch can be given it and a connection reaches
 * this QEMU only. Readiness is proven by connecting: on success *transport is that
 * connection (QEMU's gdbstub serves one client), and the server runs until
 * br_server_stop.
 */
br_status_t br_server_launch_qemu(const br_qemu_options_t *opts, br_server_t *server,
                                  rsp_transport_t *transport, br_error_t *err);

/*
 * Starts OpenOCD with its gdb server on 127.0.0.1 at a free port, telnet and
 * tcl servers off, failed memory reads reported as errors
 * (gdb_report_data_abort enable: otherwise they read as zeros), the
 * interface and target configuration files and the probe's serial as given.
 * Readiness is proven by connecting; when OpenOCD exits first (no probe:
 * "Error: open failed"), BR_ERR_INFRA quotes its own last lines. On success
 * *transport is the connection.
 */
br_status_t br_server_launch_openocd(const br_openocd_options_t *opts, br_server_t *server,
                                     rsp_transport_t *transport, br_error_t *err);

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
