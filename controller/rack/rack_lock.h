/*
 * Exclusive use of a board: one lock file per board in a lock directory,
 * held with flock(2) for as long as the board is in use and holding the
 * owner's pid, host and start time. The kernel drops a flock when its owner
 * dies, so a lock left by a dead owner is free at once; its record is still
 * in the file and is reported as a stale lock taken over. Every acquire and
 * release is also appended to <board>.history (pid, host, time), the trail
 * tests check for overlaps.
 *
 * The lock directory must be on one machine's file system (or one whose
 * flock reaches every host using it): the racks and people sharing a probe
 * share it.
 */
#ifndef BENCHRACK_RACK_RACK_LOCK_H
#define BENCHRACK_RACK_RACK_LOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

#define BR_RACK_LOCK_HOST_BYTES 128U
#define BR_RACK_LOCK_PATH_BYTES 1024U
/* The default lock directory, unless BR_RACK_LOCK_DIR_ENV or an option says. */
#define BR_RACK_LOCK_DEFAULT_DIR "/tmp/benchrack-locks"
#define BR_RACK_LOCK_DIR_ENV "BENCHRACK_LOCK_DIR"

/* Who holds (or held) a lock. */
typedef struct br_rack_lock_owner {
	long pid;
	char host[BR_RACK_LOCK_HOST_BYTES];
	int64_t started_ms; /* wall clock, ms since the epoch */
} br_rack_lock_owner_t;

typedef struct br_rack_lock {
	int fd; /* -1 when not held */
	char path[BR_RACK_LOCK_PATH_BYTES];
	char history_path[BR_RACK_LOCK_PATH_BYTES];
	br_rack_lock_owner_t self;
	bool took_over;             /* the file held a dead owner's record */
	br_rack_lock_owner_t stale; /* that record, when took_over */
	int64_t released_ms;
} br_rack_lock_t;

/*
 * Takes the lock of board in dir (made when missing), waiting up to wait_ms
 * (0: not at all) while another owner holds it. On BR_OK the lock is held
 * and lock->self says since when. When it stays busy: BR_ERR_INFRA naming
 * the owner ("board X is in use by pid P on H since T"), and *holder (when
 * not NULL) filled.
 */
br_status_t br_rack_lock_acquire(const char *dir, const char *board, int wait_ms,
                                 br_rack_lock_t *lock, br_rack_lock_owner_t *holder,
                                 br_error_t *err);

/* Releases a held lock: clears its record, appends the release to the
 * history and closes it. Safe on a lock not held. */
void br_rack_lock_release(br_rack_lock_t *lock);

/* The wall clock in ms since the epoch (what lock records carry). */
int64_t br_rack_lock_now_ms(void);

#endif
