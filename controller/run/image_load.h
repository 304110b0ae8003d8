/*
 * The image on a board benchrack did not launch with it, by policy
 * (config/board.h `load:`): `always` writes and verifies it; `if-different`
 * compares first and writes only when it differs; `never` trusts what is
 * there. The comparison looks at the image's GNU build-id note first when
 * a loadable segment holds it (so it is in target memory): a different note
 * there means a different image, found with one small read; a matching one
 * is confirmed by the full comparison (qCRC where the server offers it,
 * else a read-back of the loadable segments), since an interrupted load can
 * leave the note written and the rest not. Writing goes through vFlashErase/vFlashWrite/vFlashDone
 * where the server's memory map has flash, memory writes (X, else M) elsewhere (debug/target.h,
 * br_target_load). The vector table (SP, PC) comes from the image too, for the reset check.
 */
#ifndef BENCHRACK_RUN_IMAGE_LOAD_H
#define BENCHRACK_RUN_IMAGE_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "config/board.h"
#include "debug/reset_halt.h"
#include "debug/target.h"

/* Progress of a long load: bytes written so far of total. */
typedef void (*br_image_progress_fn)(void *ctx, size_t done, size_t total);

struct br_image_load_result;
/* A load is over (the image written and verified, or found already on the
 * target): what it did, for one line on a terminal. */
typedef void (*br_image_loaded_fn)(void *ctx, const char *path,
                                   const struct br_image_load_result *load);

/* What a caller is told about a load as it goes; any field may be NULL. */
typedef struct br_image_hooks {
	br_image_progress_fn progress;
	void *progress_ctx;
	br_image_loaded_fn loaded;
	void *loaded_ctx;
} br_image_hooks_t;

typedef struct br_image_load_result {
	br_board_load_t policy;    /* as applied (never DEFAULT) */
	bool compared;             /* if-different looked first */
	bool build_id_compared;    /* ... at the image's build-id note in target memory */
	uint32_t build_id_address; /* ... which is there */
	bool matched;              /* ... and the image was already there */
	bool written;
	br_target_load_report_t report; /* what writing and verifying did */
} br_image_load_result_t;

/*
 * Applies policy (not DEFAULT) for the ELF at path on the halted target t.
 * A target whose memory still differs after writing is BR_ERR_INFRA naming
 * the first differing address (or segment, with qCRC). out is filled as far
 * as it got.
 */
br_status_t br_image_load(br_target_t *t, const char *path, br_board_load_t policy,
                          br_image_progress_fn progress, void *progress_ctx,
                          br_image_load_result_t *out, br_error_t *err);

/*
 * Reads the image's reset vector: the first two words of its lowest-addressed
 * loadable segment (where a Cortex-M's vector table is at reset).
 * BR_ERR_INPUT when the image has no such segment.
 */
br_status_t br_image_reset_vector(const char *path, br_reset_vector_t *vec, br_error_t *err);

/*
 * The same with the board's memory map (may be NULL): the lowest-addressed
 * loadable segment in flash or ROM when the image has one there (a
 * Cortex-M boots from flash), else the lowest of all; *table (may be NULL)
 * is where that vector table is.
 */
br_status_t br_image_reset_vector_at(const char *path, const br_memory_map_t *map,
                                     br_reset_vector_t *vec, uint32_t *table, br_error_t *err);

/* "always", "if-different", "never". */
const char *br_image_policy_name(br_board_load_t policy);

#endif
