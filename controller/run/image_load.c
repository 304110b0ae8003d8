#include "run/image_load.h"

#include <string.h>

#include "elf/elf_file.h"
#include "elf/elf_image.h"

#define THUMB_VECTOR_BYTES 8U

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
	br_status_t st = br_target_load_progress(t, path, progress, progress_ctx, &out->report, err);
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

br_status_t br_image_reset_vector(const char *path, br_reset_vector_t *vec, br_error_t *err)
{
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	br_elf_segment_iter_t it;
	br_elf_segment_t seg, low;
	bool found = false;
	br_elf_segments_begin(elf, &it);
	while (br_elf_segments_next(&it, &seg)) {
		if (seg.filesz < THUMB_VECTOR_BYTES)
			continue;
		if (!found || seg.paddr < low.paddr)
			low = seg;
		found = true;
	}
	if (found) {
		const uint8_t *d = low.data;
		vec->sp = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
			  (uint32_t)d[3] << 24;
		vec->pc = (uint32_t)d[4] | (uint32_t)d[5] << 8 | (uint32_t)d[6] << 16 |
			  (uint32_t)d[7] << 24;
	} else {
		st = br_error_set(err, BR_ERR_INPUT,
				  "%s has no loadable segment holding a vector table (initial SP "
				  "and reset handler): link it with one at the boot address",
				  path);
	}
	br_elf_close(elf);
	return st;
}
