/*
 * An image checked against the board's memory map before the board is
 * started or written: every PT_LOAD segment's load range (what a loader
 * writes) and run range (where it lives when running: .bss, a RAM copy) in
 * one region of the map, and its vector table's initial SP in RAM and reset
 * handler a Thumb address inside the image. An image linked for another
 * board, or whose vector table is not where the core reads it, is refused
 * here (BR_ERR_INPUT, exit 2) instead of being written over a peripheral or
 * locking the core up.
 */
#ifndef BENCHRACK_RUN_IMAGE_CHECK_H
#define BENCHRACK_RUN_IMAGE_CHECK_H

#include <stddef.h>

#include "common/error.h"
#include "debug/memory_map.h"

/*
 * Checks the ELF at path against map (nothing to check when map has no
 * regions: BR_OK). BR_ERR_INPUT naming the file, the segment (its index,
 * load and run ranges) or the vector's value, and the board's regions.
 */
br_status_t br_image_check_map(const char *path, const br_memory_map_t *map, br_error_t *err);

/* The map's regions as text, "flash 0x08000000..0x080fffff, ram
 * 0x20000000..0x2001ffff", into buf (cap bytes). */
void br_memory_map_describe(const br_memory_map_t *map, char *buf, size_t cap);

#endif
