#include "run/image_load.h"

#include <stdlib.h>
#include <string.h>

#include "elf/elf_build_id.h"
#include "elf/elf_file.h"
#include "elf/elf_image.h"

#define THUMB_VECTOR_BYTES 8U
/* A GNU build-id note as it lies in memory (ELF gABI "Note Section"):
 * namesz, descsz, type (three words), "GNU\0", then the id. */
#define NOTE_HEADER_BYTES 12U
#define NOTE_GNU_NAME "GNU"
#define NOTE_GNU_NAME_BYTES 4U
#define NOTE_TYPE_GNU_BUILD_ID 3U
#define NOTE_MAX_BYTES (NOTE_HEADER_BYTES + NOTE_GNU_NAME_BYTES + BR_ELF_BUILD_ID_MAX_BYTES)

/* The image's build-id note: its bytes and where the image puts them. */
typedef struct build_id_note {
	uint8_t bytes[NOTE_MAX_BYTES];
	uint32_t size;
	uint32_t address; /* load address: where a load writes it */
} build_id_note_t;

static void put_le32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4U; i++)
		p[i] = (uint8_t)(v >> (8U * i));
}

/* The note of the image's GNU build-id, when the image has one and one of
 * its loadable segments holds the note (so it is in target memory once
 * loaded): the note's bytes rebuilt from the id and found in the segment's
 * data. False otherwise, or when the ELF cannot be read (the full comparison
 * then says why). */
static bool build_id_note_find(const char *path, build_id_note_t *note)
{
	br_error_t err;
	br_elf_t *elf = NULL;
	if (br_elf_open(path, &elf, &err) != BR_OK)
		return false;
	char hex[BR_ELF_BUILD_ID_HEX_SIZE];
	bool found = false;
	if (br_elf_build_id(elf, hex, sizeof(hex), &err) == BR_OK && hex[0] != '\0') {
		uint32_t id_bytes = (uint32_t)(strlen(hex) / 2U);
		put_le32(note->bytes, NOTE_GNU_NAME_BYTES);
		put_le32(note->bytes + 4U, id_bytes);
		put_le32(note->bytes + 8U, NOTE_TYPE_GNU_BUILD_ID);
		memcpy(note->bytes + NOTE_HEADER_BYTES, NOTE_GNU_NAME, NOTE_GNU_NAME_BYTES);
		for (uint32_t i = 0; i < id_bytes; i++) {
			char byte[3] = {hex[2U * i], hex[2U * i + 1U], '\0'};
			note->bytes[NOTE_HEADER_BYTES + NOTE_GNU_NAME_BYTES + i] =
			    (uint8_t)strtoul(byte, NULL, 16);
		}
		note->size = NOTE_HEADER_BYTES + NOTE_GNU_NAME_BYTES + id_bytes;
		br_elf_segment_iter_t it;
		br_elf_segment_t seg;
		br_elf_segments_begin(elf, &it);
		while (!found && br_elf_segments_next(&it, &seg)) {
			for (uint32_t off = 0; !found && off + note->size <= seg.filesz;
			     off += 4U) {
				if (memcmp(seg.data + off, note->bytes, note->size) == 0) {
					note->address = seg.paddr + off;
					found = true;
				}
			}
		}
	}
	br_elf_close(elf);
	return found;
}

/* Whether target memory holds a different build-id note than the image
 * where the image puts its note: a difference there is proof enough that the
 * image is not on the target, read with one small request instead of the
 * whole image. False (so the full comparison decides) when the image has
 * no such note or the read fails. */
static bool build_id_differs(br_target_t *t, const char *path, br_image_load_result_t *out)
{
	build_id_note_t note;
	if (!build_id_note_find(path, &note))
		return false;
	uint8_t there[NOTE_MAX_BYTES];
	br_error_t err;
	if (br_target_mem_read(t, note.address, there, note.size, &err) != BR_OK)
		return false;
	out->build_id_compared = true;
	out->build_id_address = note.address;
	return memcmp(there, note.bytes, note.size) != 0;
}

const char *br_image_policy_name(br_board_load_t policy)
{
	return br_board_load_name(policy);
}

/* Writes the image and verifies it; a difference afterwards is the board's
 * (or the line's) fault: an infrastructure error. */
static br_status_t write_and_verify(br_target_t *t, const char *path, br_image_progress_fn progress,
                                    void *progress_ctx, br_image_load_result_t *out,
                                    br_error_t *err)
{
	br_status_t st =
	    br_target_load_progress(t, path, progress, progress_ctx, &out->report, err);
	if (st != BR_OK)
		return st;
	out->written = true;
	st = br_target_verify(t, path, &out->report, err);
	if (st != BR_ERR_TARGET)
		return st;
	br_error_prefix(err, "the image did not arrive intact (%zu bytes written, then checked %s)",
	                out->report.bytes,
	                out->report.verified_by_crc ? "by qCRC" : "by reading back");
	err->status = BR_ERR_INFRA;
	return BR_ERR_INFRA;
}

br_status_t br_image_load(br_target_t *t, const char *path, br_board_load_t policy,
                          br_image_progress_fn progress, void *progress_ctx,
                          br_image_load_result_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	out->policy = policy;
	switch (policy) {
	case BR_BOARD_LOAD_NEVER:
	case BR_BOARD_LOAD_DEFAULT:
		return BR_OK;
	case BR_BOARD_LOAD_IF_DIFFERENT: {
		out->compared = true;
		if (build_id_differs(t, path, out))
			break;
		br_error_t why;
		br_error_clear(&why);
		br_status_t st = br_target_verify(t, path, &out->report, &why);
		if (st == BR_OK) {
			out->matched = true;
			return BR_OK;
		}
		if (st != BR_ERR_TARGET) {
			*err = why;
			return st;
		}
		break;
	}
	case BR_BOARD_LOAD_ALWAYS:
		break;
	}
	return write_and_verify(t, path, progress, progress_ctx, out, err);
}

/* Whether seg's load range starts in flash or ROM of map. */
static bool in_flash(const br_memory_map_t *map, const br_elf_segment_t *seg)
{
	const br_region_t *r = map != NULL ? br_memory_map_find(map, seg->paddr) : NULL;
	return r != NULL && r->kind != BR_REGION_RAM;
}

br_status_t br_image_reset_vector_at(const char *path, const br_memory_map_t *map,
                                     br_reset_vector_t *vec, uint32_t *table, br_error_t *err)
{
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	br_elf_segment_iter_t it;
	br_elf_segment_t seg, low = {0};
	bool found = false, low_flash = false;
	br_elf_segments_begin(elf, &it);
	while (br_elf_segments_next(&it, &seg)) {
		if (seg.filesz < THUMB_VECTOR_BYTES)
			continue;
		bool flash = in_flash(map, &seg);
		/* flash first (where a Cortex-M boots), then the lowest address */
		if (!found || (flash && !low_flash) ||
		    (flash == low_flash && seg.paddr < low.paddr)) {
			low = seg;
			low_flash = flash;
		}
		found = true;
	}
	if (found) {
		const uint8_t *d = low.data;
		vec->sp = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
		          (uint32_t)d[3] << 24;
		vec->pc = (uint32_t)d[4] | (uint32_t)d[5] << 8 | (uint32_t)d[6] << 16 |
		          (uint32_t)d[7] << 24;
		if (table != NULL)
			*table = low.paddr;
	} else {
		st = br_error_set(err, BR_ERR_INPUT,
		                  "%s has no loadable segment holding a vector table (initial SP "
		                  "and reset handler): link it with one at the boot address",
		                  path);
	}
	br_elf_close(elf);
	return st;
}

br_status_t br_image_reset_vector(const char *path, br_reset_vector_t *vec, br_error_t *err)
{
	return br_image_reset_vector_at(path, NULL, vec, NULL, err);
}
