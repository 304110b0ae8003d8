#include "rack/board_lock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rack/board_identity.h"

#define BOARD_LOCK_NAME_BYTES 256U

const char *br_board_lock_dir(void)
{
	const char *dir = getenv(BR_RACK_LOCK_DIR_ENV);
	return dir != NULL && dir[0] != '\0' ? dir : BR_RACK_LOCK_DEFAULT_DIR;
}

br_status_t br_board_lock_take(const br_endpoint_t *ep, FILE *notes, br_board_lock_t *bl,
                               br_error_t *err)
{
	memset(bl, 0, sizeof(*bl));
	bl->notes = notes;
	bl->lock.fd = -1;
	char name[BOARD_LOCK_NAME_BYTES];
	if (!br_board_identity(ep, name, sizeof(name)))
		return BR_OK;
	br_status_t st = br_rack_lock_acquire(br_board_lock_dir(), name, 0, &bl->lock, NULL, err);
	if (st != BR_OK)
		return br_error_prefix(err, "%s",
		                       "the board is locked (wait for its owner to finish)");
	bl->held = true;
	if (bl->lock.took_over && notes != NULL)
		fprintf(notes, "benchrack: took over the stale lock of %s (pid %ld on %s, gone)\n",
		        name, bl->lock.stale.pid, bl->lock.stale.host);
	return BR_OK;
}

void br_board_lock_give(br_board_lock_t *bl)
{
	if (bl->held)
		br_rack_lock_release(&bl->lock);
	bl->held = false;
}

br_status_t br_board_lock_fn(void *ctx, const br_endpoint_t *ep, bool take, br_error_t *err)
{
	br_board_lock_t *bl = ctx;
	if (!take) {
		br_board_lock_give(bl);
		return BR_OK;
	}
	return br_board_lock_take(ep, bl->notes, bl, err);
}
