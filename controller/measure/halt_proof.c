#include "measure/halt_proof.h"

#include <string.h>

#include "elf/elf_image.h"

/* ELF program header flag: writable (ELF specification, "Program Header"). */
#define HALT_PROOF_PF_W 0x2U

br_status_t br_halt_proof_from_elf(const br_elf_t *elf, const char *path, br_halt_proof_t *out,
                                   br_error_t *err)
{
	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	br_elf_segments_begin(elf, &it);
	while (br_elf_segments_next(&it, &seg)) {
		if ((seg.flags & HALT_PROOF_PF_W) != 0 || seg.filesz < BR_HALT_PROOF_MARKER_BYTES ||
		    seg.paddr != seg.vaddr)
			continue;
		out->address = seg.vaddr;
		memcpy(out->bytes, seg.data, sizeof(out->bytes));
		return BR_OK;
	}
	return br_error_set(err, BR_ERR_INPUT,
	                    "%s: no read-only loadable segment of %u bytes or more: a breakpoint "
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
	st = br_halt_proof_from_elf(elf, path, &p, err);
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
