/*
 * An image against a board's memory map: every byte the ELF loads must lie
 * in one of the board's regions, or the image was linked for another board
 * (a suite image of the build's own board handed to a board that has none of
 * its own: its vector table is not where this core looks, and the machine
 * locks up at reset). Checked before anything runs.
 */
#ifndef BENCHRACK_RUN_IMAGE_FIT_H
#define BENCHRACK_RUN_IMAGE_FIT_H

#include "common/error.h"
#include "debug/memory_map.h"

/*
 * BR_OK when map is empty (no board file: nothing to check against) or
 * every loadable segment of the ELF at path with bytes in the file lies
 * within one region of map (at its load address). BR_ERR_INPUT naming the
 * image, the segment's addresses and board (a description of it) otherwise;
 * the ELF's own errors.
 */
br_status_t br_image_fit_check(const char *path, const br_memory_map_t *map, const char *board,
                               br_error_t *err);

#endif
