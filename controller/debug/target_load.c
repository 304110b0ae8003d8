/*
 * Loading an ELF into the target and verifying it: flash through
 * vFlashErase/vFlashWrite/vFlashDone where the server's memory map has flash
 * (GDB manual, "Packets": vFlash...), memory writes elsewhere; verified with
 * qCRC where offered, by reading back elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "elf/elf_file.h"
#include "elf/elf_image.h"
#include "rsp/crc32.h"
#include "rsp/quote.h"
#include "debug/target.h"
#include "debug/target_private.h"

/* "vFlashWrite:" + 8 address digits + ':' with margin. */
#define LOAD_FLASH_HEADER_BYTES 24U
/* Erasing and programming take long: keepalives stretch this further. */
#define LOAD_FLASH_TIMEOUT_MS 30000
/* Bytes compared per read while verifying without qCRC. */
#define LOAD_VERIFY_CHUNK 4096U

/* The flash region of the server's map holding address, or NULL. */
static const br_region_t *server_flash(const br_target_t *t, uint32_t address)
{
	if (!t->memory_map_from_server)
		return NULL;
	const br_region_t *r = br_memory_map_find(&t->memory_map, address);
	return r != NULL && r->kind == BR_REGION_FLASH ? r : NULL;
}

static br_status_t flash_request(br_target_t *t, const char *payload, size_t len, const char *what,
                                 br_error_t *err)
{
	const char *reply;
	size_t rlen;
	br_status_t st =
	    rsp_client_request(t->rsp, payload, len, LOAD_FLASH_TIMEOUT_MS, &reply, &rlen, err);
	if (st != BR_OK)
		return st;
	return br_target_expect_ok(what, reply, rlen, err);
}

/* Erases the blocks of r covering [address, address + len). */
static br_status_t flash_erase(br_target_t *t, const br_region_t *r, uint32_t address, uint32_t len,
                               br_error_t *err)
{
	uint32_t block = r->blocksize != 0U ? r->blocksize : 1U;
	uint32_t start = r->start + (address - r->start) / block * block;
	uint64_t end = (uint64_t)address + len;
	uint64_t aligned_end = r->start + ((end - r->start + block - 1U) / block) * block;
	char req[64];
	snprintf(req, sizeof(req), "vFlashErase:%x,%x", start, (uint32_t)(aligned_end - start));
	char what[64];
	snprintf(what, sizeof(what), "erasing flash at 0x%08x", start);
	return flash_request(t, req, strlen(req), what, err);
}

static br_status_t flash_write(br_target_t *t, uint32_t address, const uint8_t *data, size_t len,
                               br_error_t *err)
{
	size_t max_payload = rsp_client_max_payload(t->rsp);
	size_t chunk = (max_payload - LOAD_FLASH_HEADER_BYTES) / 2U;
	char *packet = xmalloc(max_payload + 1U);
	br_status_t st = BR_OK;
	while (len > 0 && st == BR_OK) {
		size_t n = len < chunk ? len : chunk;
		int h = snprintf(packet, max_payload + 1U, "vFlashWrite:%x:", address);
		memcpy(packet + h, data, n);
		char what[64];
		snprintf(what, sizeof(what), "writing flash at 0x%08x", address);
		st = flash_request(t, packet, (size_t)h + n, what, err);
		address += (uint32_t)n;
		data += n;
		len -= n;
	}
	free(packet);
	return st;
}

/* Writes one piece of a segment that lies in one kind of memory. */
static br_status_t load_piece(br_target_t *t, uint32_t address, const uint8_t *data, uint32_t len,
                              bool *flash_open, br_target_load_report_t *rep, br_error_t *err)
{
	const br_region_t *r = server_flash(t, address);
	if (r == NULL)
		return br_target_mem_write(t, address, data, len, err);
	br_status_t st = flash_erase(t, r, address, len, err);
	/* vFlashDone after a failed erase crashes OpenOCD 0.12: never send it then. */
	if (st != BR_OK)
		return st;
	*flash_open = true;
	rep->used_flash_packets = true;
	rep->flash_bytes += len;
	return flash_write(t, address, data, len, err);
}

/* The length of the piece at address (up to len) that stays in one region kind. */
static uint32_t piece_length(const br_target_t *t, uint32_t address, uint32_t len)
{
	const br_region_t *r = br_memory_map_find(&t->memory_map, address);
	if (r != NULL) {
		uint64_t end = (uint64_t)r->start + r->length;
		if ((uint64_t)address + len > end)
			return (uint32_t)(end - address);
		return len;
	}
	/* Outside every region: up to the next region's start. */
	uint64_t limit = (uint64_t)address + len;
	for (size_t i = 0; i < t->memory_map.count; i++) {
		uint32_t s = t->memory_map.regions[i].start;
		if (s > address && s < limit)
			limit = s;
	}
	return (uint32_t)(limit - address);
}

/* One pass over an ELF's segments: the target, the report, and whether a
 * flash write is open (vFlashDone pending). */
typedef struct load_pass {
	br_target_t *t;
	br_target_load_report_t *rep;
	bool flash_open;
	br_target_load_progress_fn progress; /* may be NULL */
	void *progress_ctx;
	size_t total; /* bytes the whole load writes */
} load_pass_t;

typedef br_status_t (*segment_fn_t)(load_pass_t *pass, const br_elf_segment_t *seg,
                                    br_error_t *err);

/* Calls fn on each segment of elf that has bytes in the file, in order,
 * until one fails; returns what the last call returned. */
static br_status_t segments_each(br_elf_t *elf, segment_fn_t fn, load_pass_t *pass, br_error_t *err)
{
	br_status_t st = BR_OK;
	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	br_elf_segments_begin(elf, &it);
	while (st == BR_OK && br_elf_segments_next(&it, &seg)) {
		if (seg.filesz == 0U)
			continue;
		st = fn(pass, &seg, err);
	}
	return st;
}

static br_status_t load_segment(load_pass_t *pass, const br_elf_segment_t *seg, br_error_t *err)
{
	br_status_t st = BR_OK;
	pass->rep->segments++;
	uint32_t done = 0;
	while (st == BR_OK && done < seg->filesz) {
		uint32_t n = piece_length(pass->t, seg->paddr + done, seg->filesz - done);
		st = load_piece(pass->t, seg->paddr + done, seg->data + done, n, &pass->flash_open,
		                pass->rep, err);
		done += n;
		if (st == BR_OK && pass->progress != NULL)
			pass->progress(pass->progress_ctx, pass->rep->bytes + done, pass->total);
	}
	pass->rep->bytes += seg->filesz;
	return st;
}

/* Adds a segment's size to the load's total. */
static br_status_t count_segment(load_pass_t *pass, const br_elf_segment_t *seg, br_error_t *err)
{
	(void)err;
	pass->total += seg->filesz;
	return BR_OK;
}

br_status_t br_target_load(br_target_t *t, const char *path, br_target_load_report_t *report,
                           br_error_t *err)
{
	return br_target_load_progress(t, path, NULL, NULL, report, err);
}

br_status_t br_target_load_progress(br_target_t *t, const char *path,
                                    br_target_load_progress_fn progress, void *progress_ctx,
                                    br_target_load_report_t *report, br_error_t *err)
{
	br_target_load_report_t local;
	br_target_load_report_t *rep = report != NULL ? report : &local;
	memset(rep, 0, sizeof(*rep));
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	load_pass_t pass = {.t = t, .rep = rep, .progress = progress, .progress_ctx = progress_ctx};
	(void)segments_each(elf, count_segment, &pass, err);
	st = segments_each(elf, load_segment, &pass, err);
	if (st == BR_OK && pass.flash_open)
		st = flash_request(t, "vFlashDone", strlen("vFlashDone"),
		                   "finishing the flash write", err);
	br_elf_close(elf);
	if (st != BR_OK)
		return br_error_prefix(err, "loading %s", path);
	br_target_forget_halt(t);
	return BR_OK;
}

/* Compares a segment by reading it back. */
static br_status_t verify_readback(br_target_t *t, const br_elf_segment_t *seg, br_error_t *err)
{
	uint8_t *buf = xmalloc(LOAD_VERIFY_CHUNK);
	br_status_t st = BR_OK;
	for (uint32_t done = 0; st == BR_OK && done < seg->filesz;) {
		uint32_t n =
		    seg->filesz - done < LOAD_VERIFY_CHUNK ? seg->filesz - done : LOAD_VERIFY_CHUNK;
		st = br_target_mem_read(t, seg->paddr + done, buf, n, err);
		if (st == BR_OK && memcmp(buf, seg->data + done, n) != 0) {
			uint32_t i = 0;
			while (buf[i] == seg->data[done + i])
				i++;
			st = br_error_set(err, BR_ERR_TARGET,
			                  "target memory differs from the ELF at 0x%08x (0x%02x, "
			                  "expected 0x%02x)",
			                  seg->paddr + done + i, buf[i], seg->data[done + i]);
		}
		done += n;
	}
	free(buf);
	return st;
}

/* qCRC where the server offers it (falling back to reading back when it
 * turns out not to), reading back elsewhere. */
static br_status_t verify_segment(load_pass_t *pass, const br_elf_segment_t *seg, br_error_t *err)
{
	br_target_t *t = pass->t;
	if (t->qcrc_packet != 0) {
		uint32_t crc = 0;
		br_status_t st = br_target_mem_crc(t, seg->paddr, seg->filesz, &crc, err);
		if (st == BR_OK) {
			uint32_t want = rsp_crc32_update(RSP_CRC32_SEED, seg->data, seg->filesz);
			if (crc != want)
				return br_error_set(err, BR_ERR_TARGET,
				                    "the %u bytes at 0x%08x differ from the "
				                    "ELF (qCRC 0x%08x, expected 0x%08x)",
				                    seg->filesz, seg->paddr, crc, want);
			return BR_OK;
		}
		if (st != BR_ERR_PROTOCOL || t->qcrc_packet != 0)
			return st;
		pass->rep->verified_by_crc = false;
	}
	return verify_readback(t, seg, err);
}

br_status_t br_target_verify(br_target_t *t, const char *path, br_target_load_report_t *report,
                             br_error_t *err)
{
	br_target_load_report_t local;
	br_target_load_report_t *rep = report != NULL ? report : &local;
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(path, &elf, err);
	if (st != BR_OK)
		return st;
	rep->verified_by_crc = t->qcrc_packet != 0;
	load_pass_t pass = {.t = t, .rep = rep, .flash_open = false};
	st = segments_each(elf, verify_segment, &pass, err);
	br_elf_close(elf);
	if (st != BR_OK)
		return br_error_prefix(err, "verifying %s", path);
	return BR_OK;
}
