/*
 * The image halted at its reset vector on a board benchrack did not launch
 * with it: reset, load (run/image_load.h, by the board's `load:` policy) and
 * start, in one order for every board kind, the server's flavour saying
 * where the reset goes (debug/flavour.h reset_restores_boot_image):
 * - a server whose reset may put its own boot image back (QEMU, whose
 *   -kernel image comes back at each system reset on microbit, mps2-an500
 *   and mps2-an505): reset and halt first, so that `if-different` compares
 *   what the board holds once reset and the load is the last write; then
 *   the image is started from its vector table (SP, PC, xPSR's Thumb bit)
 *   as a reset would start it, with no reset after the load;
 * - every other server (OpenOCD, J-Link, pyOCD, Black Magic Probe,
 *   generic): load, then reset and halt, so the core starts the image as at
 *   power-up (the usual order, gdb's `load` then `monitor reset halt`;
 *   OpenOCD itself runs `reset init` before a vFlashErase by default).
 * Either way the core is then checked to be at the image's reset vector,
 * with the image's vector table in memory (debug/reset_halt.h).
 */
#ifndef BENCHRACK_RUN_IMAGE_START_H
#define BENCHRACK_RUN_IMAGE_START_H

#include <stdint.h>

#include "common/error.h"
#include "config/board.h"
#include "debug/reset_halt.h"
#include "debug/target.h"
#include "run/image_load.h"

/* What to bring onto the board and how. */
typedef struct br_image_start {
	const char *path;              /* the ELF */
	br_board_load_t policy;        /* not DEFAULT */
	br_reset_vector_t vec;         /* the image's (br_image_reset_vector_at) */
	uint32_t table;                /* ... and where its vector table is */
	const char *server;            /* what was reached, for a reset's error */
	br_image_progress_fn progress; /* may be NULL */
	void *progress_ctx;
} br_image_start_t;

/*
 * Loads s->path onto the halted target t by s->policy and leaves the core
 * halted at the image's reset vector, reset in the order above. out says
 * what loading did (filled as far as it got). A load's error is prefixed
 * "loading PATH (load: POLICY)", a reset's "resetting SERVER"; a core not
 * at the image's vector afterwards is BR_ERR_TARGET.
 */
br_status_t br_image_start(br_target_t *t, const br_image_start_t *s, br_image_load_result_t *out,
                           br_error_t *err);

#endif
