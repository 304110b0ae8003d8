/*
 * Exclusive use of shared hardware from the desk: `probe`, `measure` and the
 * breakpoint entries of `run`/`check` take the same lock a rack takes for
 * that board (rack/board_identity.h names it; rack/rack_lock.h holds it), so
 * a person and a rack never drive one probe at once. QEMU boards share
 * nothing and take no lock.
 */
#ifndef BENCHRACK_RACK_BOARD_LOCK_H
#define BENCHRACK_RACK_BOARD_LOCK_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"
#include "rack/rack_lock.h"
#include "debug/endpoint.h"

typedef struct br_board_lock {
	bool held;
	br_rack_lock_t lock;
	FILE *notes; /* where a stale lock taken over is said (NULL: nowhere) */
} br_board_lock_t;

/* The lock directory: $BENCHRACK_LOCK_DIR, else BR_RACK_LOCK_DEFAULT_DIR. */
const char *br_board_lock_dir(void);

/*
 * Takes the lock of the hardware ep reaches, without waiting. A board in use
 * is BR_ERR_INFRA naming the owner (pid, host, since when). For QEMU returns
 * BR_OK holding nothing. A stale lock of a dead owner is taken over, and
 * that is said in a line on notes (NULL: not said).
 */
br_status_t br_board_lock_take(const br_endpoint_t *ep, FILE *notes, br_board_lock_t *bl,
                               br_error_t *err);

/* Releases what br_board_lock_take took (nothing for QEMU). */
void br_board_lock_give(br_board_lock_t *bl);

/* A br_run_lock_fn (run/run_settings.h) with ctx a br_board_lock_t: takes the
 * lock of the board ep reaches (take true; a takeover said on ctx's notes)
 * or gives it back. */
br_status_t br_board_lock_fn(void *ctx, const br_endpoint_t *ep, bool take, br_error_t *err);

#endif
