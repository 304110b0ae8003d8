/*
 * A stop asked for by a signal (issue 31): the CLI's SIGINT/SIGTERM handler
 * records the signal here (async-signal-safe), and every wait of the library
 * (the RSP transport, the host bench program) ends at once with an error
 * naming it, so the run closes its record as "interrupted", stops the
 * server it launched and the CLI exits 128 + the signal. No environment
 * variable, no global beyond this one flag.
 */
#ifndef BENCHRACK_COMMON_INTERRUPT_H
#define BENCHRACK_COMMON_INTERRUPT_H

#include "common/error.h"

/* Records sig (async-signal-safe; the first signal stays). */
void br_interrupt_request(int sig);

/* The signal that asked for the stop, or 0. */
int br_interrupt_signal(void);

/* Fills err with "interrupted by SIGINT" (or the signal's name), BR_ERR_INFRA,
 * and returns BR_ERR_INFRA. */
br_status_t br_interrupt_error(br_error_t *err);

/* Installs br_interrupt_request for SIGINT and SIGTERM (no SA_RESTART, so a
 * blocking call returns EINTR and the wait around it sees the flag). */
void br_interrupt_install(void);

#endif
