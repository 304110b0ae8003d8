/*
 * Source lines of a profile: the self counts of its PCs summed per file:line
 * (elf/elf_addr_line.h), highest first, into p->lines.
 */
#ifndef BENCHRACK_PROFILE_LINES_H
#define BENCHRACK_PROFILE_LINES_H

#include "elf/elf_file.h"
#include "profile/profile_data.h"

/* Fills p->lines from p->pcs; PCs with no line information are left out. */
void br_profile_resolve_lines(br_profile_t *p, const br_elf_t *elf);

#endif
