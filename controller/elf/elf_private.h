/*
 * The open ELF file, as the elf/ sources share it. Private to controller/elf:
 * other layers see only the opaque br_elf_t of elf_file.h.
 */
#ifndef BENCHRACK_ELF_PRIVATE_H
#define BENCHRACK_ELF_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include "elf/elf_file.h"

/* Bit 0 of an ARM code address marks Thumb state (ELF for the Arm Architecture,
 * "Symbol Values"): a function's st_value and e_entry carry it, the code does not. */
#define BR_ELF_THUMB_BIT 1U

struct br_elf {
	char *path; /* as given to br_elf_open, for messages */
	int fd;
	Elf *elf;
	Dwarf *dwarf;             /* NULL when the file carries no DWARF */
	const unsigned char *raw; /* the whole file, raw_size bytes (libelf's mapping) */
	size_t raw_size;
	uint32_t entry;       /* e_entry, Thumb bit cleared */
	Elf_Data *symtab;     /* SHT_SYMTAB contents; NULL when stripped */
	size_t symtab_count;  /* entries in symtab */
	size_t symtab_strndx; /* section index of the symbol names */
	char **demangled;     /* per symbol: its demangled name (demangle.h), or NULL
	                       * for a name that is not mangled; NULL when stripped */
};

/* The name to show for symbol index with raw name name: the demangled one
 * when there is one. */
static inline const char *br_elf_display_name(const struct br_elf *elf, size_t index,
                                              const char *name)
{
	return elf->demangled != NULL && elf->demangled[index] != NULL ? elf->demangled[index]
	                                                               : name;
}

/* Preference among definitions of one name: global beats weak beats local. */
enum br_elf_symbol_rank {
	BR_ELF_RANK_NONE = 0,
	BR_ELF_RANK_LOCAL = 1,
	BR_ELF_RANK_WEAK = 2,
	BR_ELF_RANK_GLOBAL = 3,
};

/* How a definition ranks by its binding. */
static inline enum br_elf_symbol_rank br_elf_symbol_rank(const GElf_Sym *sym)
{
	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL:
	case STB_GNU_UNIQUE:
		return BR_ELF_RANK_GLOBAL;
	case STB_WEAK:
		return BR_ELF_RANK_WEAK;
	default:
		return BR_ELF_RANK_LOCAL;
	}
}

/* True when the bytes [offset, offset + size) lie inside the file. */
static inline bool br_elf_file_holds(const struct br_elf *elf, uint64_t offset, uint64_t size)
{
	return offset <= elf->raw_size && size <= elf->raw_size - offset;
}

#endif
