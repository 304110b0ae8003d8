#include "profile/frame_names.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/xalloc.h"
#include "elf/elf_addr_line.h"
#include "elf/elf_symbols.h"

#define FRAME_NAMES_INITIAL 256U

void br_frame_names_init(br_frame_names_t *n, const br_elf_t *elf, br_profile_t *profile)
{
	n->elf = elf;
	n->profile = profile;
	n->cap = FRAME_NAMES_INITIAL;
	n->used = 0;
	n->slots = xcalloc(n->cap, sizeof(*n->slots));
}

void br_frame_names_free(br_frame_names_t *n)
{
	free(n->slots);
	n->slots = NULL;
	n->cap = n->used = 0;
}

static size_t slot_of(const struct br_frame_names_slot *slots, size_t cap, uint32_t pc)
{
	size_t i = (size_t)((pc >> 1) * 2654435761U) & (cap - 1U);
	while (slots[i].used && slots[i].pc != pc)
		i = (i + 1U) & (cap - 1U);
	return i;
}

static void grow(br_frame_names_t *n)
{
	size_t cap = 2U * n->cap;
	struct br_frame_names_slot *slots = xcalloc(cap, sizeof(*slots));
	for (size_t i = 0; i < n->cap; i++)
		if (n->slots[i].used)
			slots[slot_of(slots, cap, n->slots[i].pc)] = n->slots[i];
	free(n->slots);
	n->slots = slots;
	n->cap = cap;
}

uint32_t br_frame_names_of(br_frame_names_t *n, uint32_t pc, uint32_t *entry)
{
	pc &= ~1U;
	size_t i = slot_of(n->slots, n->cap, pc);
	if (!n->slots[i].used) {
		br_elf_function_t fn;
		char name[24];
		const char *file = NULL;
		unsigned line = 0;
		uint32_t at = pc;
		bool found = br_elf_symbol_at(n->elf, pc, &fn);
		if (found) {
			at = fn.address;
			br_elf_addr_line(n->elf, at, &file, &line);
		} else {
			snprintf(name, sizeof(name), "0x%08x", pc);
		}
		uint32_t id =
		    br_profile_frame_id(n->profile, found ? fn.name : name, at, file, line);
		if (2U * (n->used + 1U) > n->cap) {
			grow(n);
			i = slot_of(n->slots, n->cap, pc);
		}
		n->slots[i].used = true;
		n->slots[i].pc = pc;
		n->slots[i].id = id;
		n->slots[i].entry = at;
		n->used++;
	}
	if (entry != NULL)
		*entry = n->slots[i].entry;
	return n->slots[i].id;
}

uint32_t br_frame_names_unknown(br_frame_names_t *n)
{
	return br_profile_frame_id(n->profile, BR_PROFILE_UNKNOWN_FRAME, 0, NULL, 0);
}
