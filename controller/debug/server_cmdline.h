/*
 * A launched server's command line: what it is started with (the options
 * every launched kind takes, and the values of its kind's board keys), the
 * argv one attempt runs, and the type of a kind's builder that fills it
 * (debug/server_kind.h: a row names its builder; debug/server.h runs it).
 */
#ifndef BENCHRACK_DEBUG_SERVER_CMDLINE_H
#define BENCHRACK_DEBUG_SERVER_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* The kind's board keys' values a launch may carry (server_kind.h's keys). */
#define BR_SERVER_LAUNCH_PARAMS 4U
/* Extra arguments a board adds to a launched server's command line. */
#define BR_SERVER_MAX_EXTRA_ARGS 16U
/* argv's room: a kind's own arguments, the extra ones and the NULL. */
#define BR_SERVER_MAX_ARGS (32U + BR_SERVER_MAX_EXTRA_ARGS)
/* Arguments a builder formats (a port, a socket's number, a file name). */
#define BR_SERVER_CMDLINE_TEXTS 2U
#define BR_SERVER_CMDLINE_TEXT_BYTES 160U

/* What a launched server is started with. */
typedef struct br_server_launch {
	const char *program; /* a name on PATH or a path; NULL: the kind's own */
	/* The kind's board keys' values, in the order of its row's keys (NULL:
	 * not given). */
	const char *params[BR_SERVER_LAUNCH_PARAMS];
	const char *kernel; /* the firmware ELF, for a kind that takes_image; NULL: none */
	bool semihosting;   /* QEMU: -semihosting-config enable=on,target=gdb */
	/* QEMU record mode, for its exact instruction count (measure/counter.h,
	 * icount): -icount shift=0,rr=record,rrfile=FILE, FILE in a temporary
	 * directory of its own that br_server_stop removes. Refused by QEMU on
	 * its dual-core machines (BR_ERR_INFRA saying so). */
	bool record;
	const char *const *extra_args; /* a board's args, placed by the builder, or NULL */
	size_t extra_arg_count;        /* at most BR_SERVER_MAX_EXTRA_ARGS */
} br_server_launch_t;

/* One attempt's command line: argv, the text it points into, and the socket
 * the server inherits. */
typedef struct br_server_cmdline {
	const char *argv[BR_SERVER_MAX_ARGS]; /* NULL-terminated by br_server_cmdline_push */
	size_t argc;
	size_t dropped; /* arguments past argv's room (the launch is refused) */
	char text[BR_SERVER_CMDLINE_TEXTS][BR_SERVER_CMDLINE_TEXT_BYTES];
	int inherit_fd; /* the held port's socket when the server listens on it, else -1 */
} br_server_cmdline_t;

struct br_server;

/*
 * A kind's builder: fills cl (argc 0, inherit_fd -1) with the command line of
 * the program at path, serving on server->port, whose bound socket held is
 * open (not listening). A server that can listen on an inherited socket
 * takes it (cl->inherit_fd = held): then no other process can take the port
 * in between; otherwise the socket is closed before the server starts.
 * Arguments go in with br_server_cmdline_push, the board's extra ones with
 * br_server_cmdline_extra. Errors: BR_ERR_INFRA (a temporary file), BR_ERR_INPUT.
 */
typedef br_status_t br_server_cmdline_fn(const br_server_launch_t *opts, const char *path,
                                         struct br_server *server, int held,
                                         br_server_cmdline_t *cl, br_error_t *err);

/* Appends arg to cl->argv (counted in cl->dropped when argv is full). */
void br_server_cmdline_push(br_server_cmdline_t *cl, const char *arg);

/* Appends opts's extra arguments. */
void br_server_cmdline_extra(br_server_cmdline_t *cl, const br_server_launch_t *opts);

#endif
