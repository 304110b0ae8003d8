/*
 * Names frames: the function containing a PC, as a profile frame id
 * (profile_data.h), cached per PC (a profile asks about the same few PCs
 * millions of times).
 */
#ifndef BENCHRACK_PROFILE_FRAME_NAMES_H
#define BENCHRACK_PROFILE_FRAME_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_file.h"
#include "profile/profile_data.h"

typedef struct br_frame_names {
	const br_elf_t *elf;
	br_profile_t *profile;
	struct br_frame_names_slot {
		uint32_t pc;
		uint32_t id;
		uint32_t entry;
		bool used;
	} * slots;
	size_t cap, used;
} br_frame_names_t;

/* Names PCs of elf into profile's frames. */
void br_frame_names_init(br_frame_names_t *n, const br_elf_t *elf, br_profile_t *profile);

void br_frame_names_free(br_frame_names_t *n);

/* The frame id of the function containing pc ("0x%08x" when none does);
 * *entry (may be NULL) gets the function's entry (pc itself when none). */
uint32_t br_frame_names_of(br_frame_names_t *n, uint32_t pc, uint32_t *entry);

/* The frame id of "[unknown]". */
uint32_t br_frame_names_unknown(br_frame_names_t *n);

#endif
