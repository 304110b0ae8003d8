/*
 * The loadable image of a firmware ELF: the PT_LOAD segments a loader writes
 * to target memory, and the initial contents of any allocated address (what a
 * variable holds at start), read from the file without touching a target.
 */
#ifndef BENCHRACK_ELF_IMAGE_H
#define BENCHRACK_ELF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_file.h"

typedef struct br_elf_segment {
	uint32_t paddr;      /* load address: where the bytes are stored (flash for .data) */
	uint32_t vaddr;      /* run address: where the code or data lives when running */
	uint32_t filesz;     /* bytes in the file, at data */
	uint32_t memsz;      /* bytes in memory; the last memsz - filesz are zero (.bss) */
	uint32_t flags;      /* PF_R | PF_W | PF_X */
	const uint8_t *data; /* filesz bytes; owned by the br_elf_t, valid until br_elf_close */
} br_elf_segment_t;

/* Iterator over the PT_LOAD segments, in program header order (segments with
 * filesz == 0 included: a loader writing flash skips them). */
typedef struct br_elf_segment_iter {
	const br_elf_t *elf;
	size_t next; /* program header index to look at next */
} br_elf_segment_iter_t;

/* Starts iterating the loadable segments of elf. */
void br_elf_segments_begin(const br_elf_t *elf, br_elf_segment_iter_t *it);

/* Fills *out with the next PT_LOAD segment and returns true, or returns false
 * when there are no more. Never fails: br_elf_open checked every segment. */
bool br_elf_segments_next(br_elf_segment_iter_t *it, br_elf_segment_t *out);

/*
 * Copies into buf the len bytes that the addresses [vaddr, vaddr + len) hold
 * (run addresses, as symbols give them) when the firmware starts: from the file contents of
 * allocated sections with contents (.data's load image, .rodata, .text), zeros for allocated
 * sections without (.bss). The range may span adjacent sections. Returns BR_OK, or BR_ERR_INPUT
 * naming the first address no allocated section covers (and the file) when part of the range is not
 * in the image, buf's contents then unspecified. buf is the caller's, of len bytes.
 */
br_status_t br_elf_read_initial(const br_elf_t *elf, uint32_t vaddr, void *buf, size_t len,
                                br_error_t *err);

#endif
