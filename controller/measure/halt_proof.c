#include "measure/halt_proof.h"

#include <string.h>

#include "elf/elf_image.h"

/* ELF program header flag: writable (ELF specification, "Program Header"). */
#define HALT_PROOF_PF_W 0x2U

/* Whether seg can hold the marker at all: its first bytes are in the file and
 * it runs where it is loaded (a .data image in flash is copied away, and what
 * lies at its run address is the firmware's). */
static bool marker_candidate(const br_elf_segment_t *seg)
{
	return seg->filesz >= BR_HALT_PROOF_MARKER_BYTES && seg->paddr == seg->vaddr;
}

/* Whether the marker's bytes at address lie in flash or ROM of map: memory
 * the firmware cannot change with a store, whatever the segment's flags say
 * (STM32CubeIDE's scripts put .init_array in a FLASH segment linked RW). */
static bool in_flash(const br_memory_map_t *map, uint32_t address)
{
	const br_region_t *r = br_memory_map_find(map, address);
	return r != NULL && r->kind != BR_REGION_RAM &&
	       (uint64_t)address + BR_HALT_PROOF_MARKER_BYTES <= (uint64_t)r->start + r->length;
}

static void take(const br_elf_t *elf, const br_elf_segment_t *seg, br_halt_proof_t *out)
{
	out->address = seg->vaddr;
	memcpy(out->bytes, seg->data, sizeof(out->bytes));
	out->reset_pc = br_elf_entry(elf);
}

br_status_t br_halt_proof_from_elf(const br_elf_t *elf, const char *path,
                                   const br_memory_map_t *map, br_halt_proof_t *out,
                                   br_error_t *err)
{
	bool mapped = map != NULL && map->count > 0;
	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	br_elf_segment_t lowest = {0};
	bool any = false;
	br_elf_segments_begin(elf, &it);
	while (br_elf_segments_next(&it, &seg)) {
		if (!marker_candidate(&seg))
			continue;
		if (mapped ? in_flash(map, seg.vaddr) : (seg.flags & HALT_PROOF_PF_W) == 0) {
			take(elf, &seg, out);
			return BR_OK;
		}
		if (!any || seg.vaddr < lowest.vaddr)
			lowest = seg;
		any = true;
	}
	if (!mapped && any) {
		/* No map to say what is flash, and every segment linked writable:
		 * the lowest one holds the vector table, which firmware leaves be. */
		take(elf, &lowest, out);
		return BR_OK;
	}
	if (mapped)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: no loadable segment of %u bytes or more in the board's "
		                    "flash or ROM: a breakpoint session needs a word of the image "
		                    "that the firmware cannot change to prove each halt's replies",
		                    path, BR_HALT_PROOF_MARKER_BYTES);
	return br_error_set(err, BR_ERR_INPUT,
	                    "%s: no loadable segment of %u bytes or more: a breakpoint "
	                    "session needs a word of the image to prove each halt's replies",
	                    path, BR_HALT_PROOF_MARKER_BYTES);
}

br_status_t br_halt_proof_arm(br_target_t *t, const char *path, br_halt_proof_t *out,
                              br_error_t *err)
{
	br_elf_t *elf = NULL;
	br_halt_proof_t p;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	st = br_halt_proof_from_elf(elf, path, &t->memory_map, &p, err);
	br_elf_close(elf);
	if (st != BR_OK)
		return st;
	br_target_set_marker(t, p.address, p.bytes, sizeof(p.bytes));
	if (out != NULL)
		*out = p;
	return BR_OK;
}

void br_halt_proof_add(const br_halt_proof_t *p, const br_counter_state_t *counter,
                       br_halt_proof_reads_t *buf, br_target_batch_t *b)
{
	uint32_t c = counter->counter.address;
	br_target_batch_read_t a = {c, BR_HALT_PROOF_WORD, buf->counter_a, NULL};
	br_target_batch_read_t z = {c, BR_HALT_PROOF_WORD, buf->counter_b, NULL};
	if (br_counter_is_monitor(&counter->counter)) {
		a = (br_target_batch_read_t){0, sizeof(buf->text_a), buf->text_a,
		                             BR_COUNTER_ICOUNT_MONITOR};
		z = (br_target_batch_read_t){0, sizeof(buf->text_b), buf->text_b,
		                             BR_COUNTER_ICOUNT_MONITOR};
	}
	b->reads[b->nreads++] = a;
	b->reads[b->nreads++] =
	    (br_target_batch_read_t){p->address, BR_HALT_PROOF_WORD, buf->marker, NULL};
	b->reads[b->nreads++] = z;
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

bool br_halt_proof_check(const br_halt_proof_t *p, const br_counter_state_t *counter,
                         const br_halt_proof_reads_t *buf, uint64_t *value)
{
	if (memcmp(buf->marker, p->bytes, BR_HALT_PROOF_WORD) != 0)
		return false;
	if (br_counter_is_monitor(&counter->counter)) {
		uint64_t x = 0, y = 0;
		if (!br_counter_icount_parse((const char *)buf->text_a, &x) ||
		    !br_counter_icount_parse((const char *)buf->text_b, &y) || x != y)
			return false;
		*value = x;
		return true;
	}
	uint32_t a = le32(buf->counter_a);
	if (a != le32(buf->counter_b))
		return false;
	*value = a & br_counter_mask(&counter->counter);
	return true;
}
