/*
 * The target's memory regions, which decide the breakpoint kind (flash needs
 * hardware breakpoints) and how a load is written (flash through
 * vFlashErase/Write/Done). They come from the server's memory map
 * (qXfer:memory-map:read, GDB manual "Memory Map Format") or from the board.
 */
#ifndef BENCHRACK_TARGET_MEMORY_MAP_H
#define BENCHRACK_TARGET_MEMORY_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define BR_MEMORY_MAP_MAX 32U

typedef enum br_region_kind {
	BR_REGION_RAM,   /* writable: software breakpoints */
	BR_REGION_FLASH, /* written by flash commands only: hardware breakpoints */
	BR_REGION_ROM,   /* never written: hardware breakpoints */
} br_region_kind_t;

typedef struct br_region {
	uint32_t start;
	uint32_t length; /* bytes; the region ends at start + length (exclusive) */
	br_region_kind_t kind;
	uint32_t blocksize; /* flash erase unit; 0 when not flash or not told */
} br_region_t;

typedef struct br_memory_map {
	br_region_t regions[BR_MEMORY_MAP_MAX];
	size_t count;
} br_memory_map_t;

/* Empties map. */
void br_memory_map_clear(br_memory_map_t *map);

/*
 * Adds a region. Returns BR_ERR_INPUT when it is empty, wraps past 4 GiB,
 * overlaps a region already there, or the map is full.
 */
br_status_t br_memory_map_add(br_memory_map_t *map, uint32_t start, uint32_t length,
                              br_region_kind_t kind, uint32_t blocksize, br_error_t *err);

/*
 * Parses a memory-map XML document (len bytes, not necessarily
 * NUL-terminated): every <memory type="ram|rom|flash" start=".." length="..">
 * element, with <property name="blocksize"> inside flash ones. Numbers are C
 * style (0x.. hex or decimal). Unknown elements are ignored. Fills *out
 * (cleared first); BR_ERR_PROTOCOL names the first malformed element.
 */
br_status_t br_memory_map_parse(const char *xml, size_t len, br_memory_map_t *out, br_error_t *err);

/* The region holding address, or NULL. */
const br_region_t *br_memory_map_find(const br_memory_map_t *map, uint32_t address);

/* "ram", "flash", "rom". */
const char *br_region_kind_name(br_region_kind_t kind);

#endif
