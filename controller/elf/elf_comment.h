/*
 * The toolchain that built a firmware ELF, as its compiler recorded it in the
 * .comment section ("GCC: (15:12.2.rel1-1) 12.2.1 20221205"): provenance for
 * every result.
 */
#ifndef BENCHRACK_ELF_COMMENT_H
#define BENCHRACK_ELF_COMMENT_H

#include <stddef.h>

#include "elf/elf_file.h"

/*
 * Writes the distinct NUL-separated strings of elf's .comment section into
 * buf, joined by "; " and cut to cap - 1 bytes; buf is "" when there is no
 * such section (not an error: a stripped or foreign ELF may lack it).
 */
void br_elf_comment(const br_elf_t *elf, char *buf, size_t cap);

#endif
