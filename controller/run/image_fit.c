#include "run/image_fit.h"

#include "elf/elf_file.h"
#include "elf/elf_image.h"

/* True when [start, start + len) lies in one region of map. */
static bool fit_in_region(const br_memory_map_t *map, uint32_t start, uint32_t len)
{
	const br_region_t *r = br_memory_map_find(map, start);
	return r != NULL && (uint64_t)start + len <= (uint64_t)r->start + r->length;
}

br_status_t br_image_fit_check(const char *path, const br_memory_map_t *map, const char *board,
                               br_error_t *err)
{
	if (map->count == 0)
		return BR_OK;
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	br_elf_segments_begin(elf, &it);
	while (st == BR_OK && br_elf_segments_next(&it, &seg)) {
		if (seg.filesz == 0 || fit_in_region(map, seg.paddr, seg.filesz))
			continue;
		st = br_error_set(err, BR_ERR_INPUT,
		                  "%s loads 0x%08x..0x%08x, outside the memory of the board (%s): it was "
		                  "linked for another board; build an image for this one (its "
		                  "memory regions are in its board file)",
		                  path, seg.paddr, seg.paddr + seg.filesz, board);
	}
	br_elf_close(elf);
	return st;
}
