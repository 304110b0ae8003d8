#include "run/image_check.h"

#include <stdbool.h>
#include <stdio.h>

#include "elf/elf_file.h"
#include "elf/elf_image.h"
#include "run/image_load.h"

#define IMAGE_CHECK_SP_WORD 4U
#define THUMB_BIT 1U

void br_memory_map_describe(const br_memory_map_t *map, char *buf, size_t cap)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < map->count && o < cap; i++) {
		const br_region_t *r = &map->regions[i];
		int n = snprintf(buf + o, cap - o, "%s%s 0x%08x..0x%08x", i > 0 ? ", " : "",
		                 br_region_kind_name(r->kind), r->start,
		                 (uint32_t)((uint64_t)r->start + r->length - 1U));
		if (n < 0)
			break;
		o += (size_t)n;
	}
}

/* Whether [start, start + len) lies in one region of map. */
static bool covered(const br_memory_map_t *map, uint32_t start, uint32_t len)
{
	const br_region_t *r = br_memory_map_find(map, start);
	return r != NULL && (uint64_t)start + len <= (uint64_t)r->start + r->length;
}

static br_status_t outside(const char *path, size_t index, const br_elf_segment_t *seg,
                           const br_memory_map_t *map, br_error_t *err)
{
	char regions[BR_ERROR_MESSAGE_BYTES / 2U];
	br_memory_map_describe(map, regions, sizeof(regions));
	return br_error_set(err, BR_ERR_INPUT,
	                    "%s: loadable segment %zu (load address 0x%08x, %u bytes; run "
	                    "address 0x%08x, %u bytes) is outside the board's memory (%s): "
	                    "nothing was written; was it linked for another board? Link the "
	                    "image for this board, or give the board file's memory: the "
	                    "region it needs",
	                    path, index, seg->paddr, seg->filesz, seg->vaddr, seg->memsz, regions);
}

/* Whether address lies in the load range of a segment with bytes in the file. */
static bool in_image(const br_elf_t *elf, uint32_t address)
{
	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	br_elf_segments_begin(elf, &it);
	while (br_elf_segments_next(&it, &seg)) {
		if (address >= seg.paddr && (uint64_t)address < (uint64_t)seg.paddr + seg.filesz)
			return true;
	}
	return false;
}

static br_status_t check_vector(const char *path, const br_elf_t *elf, const br_memory_map_t *map,
                                br_error_t *err)
{
	br_reset_vector_t vec;
	uint32_t table = 0;
	br_status_t st = br_image_reset_vector_at(path, map, &vec, &table, err);
	if (st != BR_OK)
		return st;
	char regions[BR_ERROR_MESSAGE_BYTES / 2U];
	br_memory_map_describe(map, regions, sizeof(regions));
	/* the initial SP is the top of the stack: the word below it is RAM */
	const br_region_t *r = br_memory_map_find(map, vec.sp - IMAGE_CHECK_SP_WORD);
	if (vec.sp < IMAGE_CHECK_SP_WORD || r == NULL || r->kind != BR_REGION_RAM ||
	    (uint64_t)vec.sp > (uint64_t)r->start + r->length)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: the vector table at 0x%08x gives an initial SP of 0x%08x, "
		                    "not in the board's RAM (%s): the core would lock up; is the "
		                    "vector table first in the image's lowest flash section (a "
		                    "section the linker script does not place, such as "
		                    ".note.gnu.build-id, can land before it), and is the image "
		                    "linked for this board?",
		                    path, table, vec.sp, regions);
	uint32_t pc = vec.pc & ~THUMB_BIT;
	if ((vec.pc & THUMB_BIT) == 0U || !covered(map, pc, 2U) || !in_image(elf, pc))
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: the vector table at 0x%08x gives a reset handler of "
		                    "0x%08x, %s: the core would fault at reset; is the vector "
		                    "table first in the image, and is the image linked for this "
		                    "board (%s)?",
		                    path, table, vec.pc,
		                    (vec.pc & THUMB_BIT) == 0U
		                        ? "not a Thumb address (bit 0 clear)"
		                        : "not an address the image loads code to",
		                    regions);
	return BR_OK;
}

br_status_t br_image_check_map(const char *path, const br_memory_map_t *map, br_error_t *err)
{
	if (map->count == 0)
		return BR_OK;
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	size_t index = 0;
	br_elf_segments_begin(elf, &it);
	while (st == BR_OK && br_elf_segments_next(&it, &seg)) {
		if ((seg.filesz > 0U && !covered(map, seg.paddr, seg.filesz)) ||
		    (seg.memsz > 0U && !covered(map, seg.vaddr, seg.memsz)))
			st = outside(path, index, &seg, map, err);
		index++;
	}
	if (st == BR_OK)
		st = check_vector(path, elf, map, err);
	br_elf_close(elf);
	return st;
}
