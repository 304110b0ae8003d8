/*
 * Status codes and the error context every controller library fills.
 * Libraries never print or exit: they return a br_status_t and, on failure,
 * leave a one-line message in a br_error_t. Only cli/ prints it.
 */
#ifndef BENCHRACK_COMMON_ERROR_H
#define BENCHRACK_COMMON_ERROR_H

#include <stddef.h>

typedef enum br_status {
	BR_OK = 0,
	BR_ERR_USAGE,     /* bad command line: exit 2 */
	BR_ERR_INPUT,     /* bad input file (ELF, config, baseline): exit 2 */
	BR_ERR_INFRA,     /* server, probe, board, transport: exit 3 */
	BR_ERR_TIMEOUT,   /* the target or server did not answer in time: exit 3 */
	BR_ERR_PROTOCOL,  /* the server answered something malformed or unexpected: exit 3 */
	BR_ERR_TARGET,    /* the firmware answered something we cannot stand behind: exit 3 */
	BR_ERR_REGRESSION /* a gate failed: exit 1 */
} br_status_t;

#define BR_ERROR_MESSAGE_BYTES 1024U

typedef struct br_error {
	br_status_t status;
	char message[BR_ERROR_MESSAGE_BYTES];
} br_error_t;

/* Clears err to BR_OK with an empty message. err may be NULL. */
void br_error_clear(br_error_t *err);

/* Copies from (an error kept aside, e.g. the first of several) into err,
 * which may be NULL, and returns from->status. */
br_status_t br_error_copy(br_error_t *err, const br_error_t *from);

/*
 * Records status and a printf-style message in err (which may be NULL) and
 * returns status, so callers can write `return br_error_set(err, ...);`.
 * The message is truncated to fit; it should say what failed and what to do.
 * Control characters and bytes that are not UTF-8 in it (quoted from a file,
 * an ELF or a server) are escaped by common/escape.h: one line, no raw ESC.
 */
br_status_t br_error_set(br_error_t *err, br_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Prepends "context: " to the message already in err, keeping its status.
 * Returns err->status. Used to add where an error happened as it climbs up.
 */
br_status_t br_error_prefix(br_error_t *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The process exit code for a status, as the README documents:
 * 0 ok, 1 regression, 2 usage/configuration/input, 3 infrastructure. */
int br_status_exit_code(br_status_t status);

#endif
