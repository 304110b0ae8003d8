#include "elf/elf_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "elf/demangle.h"
#include "elf/elf_private.h"

/* Names for the machines a wrong file is most likely built for. */
static const struct {
	unsigned machine;
	const char *name;
} br_elf_machine_names[] = {
    {EM_386, "x86"},       {EM_X86_64, "x86-64"},   {EM_AARCH64, "AArch64"}, {EM_RISCV, "RISC-V"},
    {EM_XTENSA, "Xtensa"}, {EM_AVR, "AVR"},         {EM_MSP430, "MSP430"},   {EM_MIPS, "MIPS"},
    {EM_PPC, "PowerPC"},   {EM_PPC64, "PowerPC64"},
};

/* Writes a name for machine into buf ("x86-64", or "machine 1234"). */
static void elf_machine_name(unsigned machine, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(br_elf_machine_names) / sizeof(br_elf_machine_names[0]);
	     i++) {
		if (br_elf_machine_names[i].machine == machine) {
			snprintf(buf, size, "machine %s", br_elf_machine_names[i].name);
			return;
		}
	}
	snprintf(buf, size, "machine %u", machine);
}

/* What an ELF of type type is, for "is not a linked executable" messages. */
static const char *elf_type_name(unsigned type)
{
	switch (type) {
	case ET_REL:
		return "a relocatable object (.o)";
	case ET_DYN:
		return "a shared object or position-independent executable";
	case ET_CORE:
		return "a core dump";
	default:
		return "an ELF of unknown type";
	}
}

/* Fails with the libelf error of the last call, for files libelf cannot parse. */
static br_status_t elf_corrupt(const char *path, const char *what, br_error_t *err)
{
	return br_error_set(err, BR_ERR_INPUT,
	                    "%s: corrupt ELF (%s: %s): rebuild the firmware or pass another file",
	                    path, what, elf_errmsg(-1));
}

/* Checks the ELF header: ARM, 32-bit, little-endian, executable. */
static br_status_t elf_check_header(br_elf_t *elf, br_error_t *err)
{
	if (elf_kind(elf->elf) != ELF_K_ELF)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: not an ELF file: pass the firmware ELF the linker wrote "
		                    "(not a .bin, .hex or archive)",
		                    elf->path);

	GElf_Ehdr ehdr;
	if (gelf_getehdr(elf->elf, &ehdr) == NULL)
		return elf_corrupt(elf->path, "ELF header", err);

	if (ehdr.e_machine != EM_ARM) {
		char machine[64];
		elf_machine_name(ehdr.e_machine, machine, sizeof(machine));
		return br_error_set(
		    err, BR_ERR_INPUT,
		    "%s: not an ARM ELF (%s): pass the firmware built for the target", elf->path,
		    machine);
	}
	if (ehdr.e_ident[EI_CLASS] != ELFCLASS32)
		return br_error_set(
		    err, BR_ERR_INPUT,
		    "%s: not a 32-bit ELF: pass the firmware built for the Cortex-M target",
		    elf->path);
	if (ehdr.e_ident[EI_DATA] != ELFDATA2LSB)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: a big-endian ARM ELF: Cortex-M firmware is little-endian; "
		                    "rebuild without -mbig-endian",
		                    elf->path);
	if (ehdr.e_type != ET_EXEC)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: %s, not a linked executable: pass the linked firmware ELF",
		                    elf->path, elf_type_name(ehdr.e_type));

	elf->entry = (uint32_t)ehdr.e_entry & ~BR_ELF_THUMB_BIT;
	return BR_OK;
}

/* Checks that every loadable segment's bytes lie inside the file, so the
 * image iterator can hand out pointers without failing. */
static br_status_t elf_check_segments(br_elf_t *elf, br_error_t *err)
{
	size_t count;
	if (elf_getphdrnum(elf->elf, &count) != 0)
		return elf_corrupt(elf->path, "program headers", err);
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr phdr;
		if (gelf_getphdr(elf->elf, (int)i, &phdr) == NULL)
			return elf_corrupt(elf->path, "program header", err);
		if (phdr.p_type != PT_LOAD)
			continue;
		if (phdr.p_filesz > phdr.p_memsz ||
		    !br_elf_file_holds(elf, phdr.p_offset, phdr.p_filesz))
			return br_error_set(
			    err, BR_ERR_INPUT,
			    "%s: corrupt ELF (loadable segment %zu lies outside the "
			    "file): rebuild the firmware",
			    elf->path, i);
	}
	return BR_OK;
}

/*
 * Checks that the section header table and every section's contents lie
 * inside the file. libelf reads a file whose section headers were cut off
 * as one without sections: sizes of 0 and "no symbol table" would follow,
 * each blaming the wrong thing.
 */
static br_status_t elf_check_sections(br_elf_t *elf, br_error_t *err)
{
	GElf_Ehdr ehdr;
	if (gelf_getehdr(elf->elf, &ehdr) == NULL)
		return elf_corrupt(elf->path, "ELF header", err);
	if (ehdr.e_shoff == 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: the ELF has no section headers (stripped of sections?): "
		                    "pass the ELF the linker wrote",
		                    elf->path);
	uint64_t table = (uint64_t)ehdr.e_shentsize * (ehdr.e_shnum == 0 ? 1U : ehdr.e_shnum);
	if (ehdr.e_shentsize == 0 || !br_elf_file_holds(elf, ehdr.e_shoff, table))
		return br_error_set(
		    err, BR_ERR_INPUT,
		    "%s: truncated ELF: its section headers (%llu bytes at offset "
		    "%llu) lie past the end of the file (%zu bytes): the file was cut "
		    "short (an interrupted copy or build?): rebuild or copy it again",
		    elf->path, (unsigned long long)table, (unsigned long long)ehdr.e_shoff,
		    elf->raw_size);
	size_t count = 0;
	if (elf_getshdrnum(elf->elf, &count) != 0)
		return elf_corrupt(elf->path, "section headers", err);
	if (count == 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: the ELF has no sections: pass the ELF the linker wrote",
		                    elf->path);
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf->elf, scn)) != NULL) {
		GElf_Shdr shdr;
		if (gelf_getshdr(scn, &shdr) == NULL)
			return elf_corrupt(elf->path, "section header", err);
		if (shdr.sh_type != SHT_NOBITS &&
		    !br_elf_file_holds(elf, shdr.sh_offset, shdr.sh_size))
			return br_error_set(
			    err, BR_ERR_INPUT,
			    "%s: truncated ELF: section %zu (%llu bytes at offset %llu) "
			    "lies past the end of the file (%zu bytes): the file was cut "
			    "short: rebuild or copy it again",
			    elf->path, elf_ndxscn(scn), (unsigned long long)shdr.sh_size,
			    (unsigned long long)shdr.sh_offset, elf->raw_size);
	}
	return BR_OK;
}

/* Demangles every C++ or Rust symbol name once, at open (elf->demangled). */
static void elf_demangle_symbols(br_elf_t *elf)
{
	elf->demangled = xcalloc(elf->symtab_count == 0 ? 1U : elf->symtab_count, sizeof(char *));
	for (size_t i = 0; i < elf->symtab_count && i <= INT32_MAX; i++) {
		GElf_Sym sym;
		if (gelf_getsym(elf->symtab, (int)i, &sym) == NULL)
			continue;
		const char *name = elf_strptr(elf->elf, elf->symtab_strndx, sym.st_name);
		if (name != NULL && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R'))
			elf->demangled[i] = br_demangle(name);
	}
}

/* Finds the symbol table, if any: a stripped file simply has none. */
static br_status_t elf_find_symtab(br_elf_t *elf, br_error_t *err)
{
	Elf_Scn *scn = NULL;
	for (;;) {
		scn = elf_nextscn(elf->elf, scn);
		if (scn == NULL)
			return BR_OK;
		GElf_Shdr shdr;
		if (gelf_getshdr(scn, &shdr) == NULL)
			return elf_corrupt(elf->path, "section header", err);
		if (shdr.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t entry_size = gelf_fsize(elf->elf, ELF_T_SYM, 1, EV_CURRENT);
		if (data == NULL || entry_size == 0)
			return elf_corrupt(elf->path, "symbol table", err);
		/* A table whose names cannot be read is corrupt, not empty: every
		 * lookup would say "not found" (issue 31). */
		GElf_Shdr strs;
		Elf_Scn *str_scn = elf_getscn(elf->elf, shdr.sh_link);
		if (str_scn == NULL || gelf_getshdr(str_scn, &strs) == NULL ||
		    strs.sh_type != SHT_STRTAB)
			return br_error_set(
			    err, BR_ERR_INPUT,
			    "%s: corrupt ELF (the symbol table's string table, section "
			    "%u, is not a string table): rebuild the firmware or pass "
			    "another file",
			    elf->path, (unsigned)shdr.sh_link);
		elf->symtab = data;
		elf->symtab_count = data->d_size / entry_size;
		elf->symtab_strndx = shdr.sh_link;
		elf_demangle_symbols(elf);
		return BR_OK;
	}
}

br_status_t br_elf_open(const char *path, br_elf_t **out, br_error_t *err)
{
	*out = NULL;
	br_elf_t *elf = xcalloc(1, sizeof(*elf));
	elf->path = xstrdup(path);
	elf->fd = -1;

	br_status_t status;
	elf->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO never blocks */
	if (elf->fd < 0) {
		status = br_error_set(err, BR_ERR_INPUT,
		                      "%s: cannot open (%s): check the path to the firmware ELF",
		                      path, strerror(errno));
		goto fail;
	}
	struct stat st;
	if (fstat(elf->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		status = br_error_set(err, BR_ERR_INPUT,
		                      "%s: not a regular file: pass the firmware ELF", path);
		goto fail;
	}

	if (elf_version(EV_CURRENT) == EV_NONE) {
		status = br_error_set(err, BR_ERR_INFRA,
		                      "%s: libelf refuses ELF version %u: reinstall elfutils", path,
		                      (unsigned)EV_CURRENT);
		goto fail;
	}
	elf->elf = elf_begin(elf->fd, ELF_C_READ_MMAP, NULL);
	if (elf->elf == NULL) {
		status = br_error_set(err, BR_ERR_INPUT,
		                      "%s: not an ELF file (%s): pass the firmware ELF the linker "
		                      "wrote",
		                      path, elf_errmsg(-1));
		goto fail;
	}
	status = elf_check_header(elf, err);
	if (status != BR_OK)
		goto fail;
	elf->raw = (const unsigned char *)elf_rawfile(elf->elf, &elf->raw_size);
	if (elf->raw == NULL) {
		status = elf_corrupt(path, "file contents", err);
		goto fail;
	}
	status = elf_check_segments(elf, err);
	if (status == BR_OK)
		status = elf_check_sections(elf, err);
	if (status != BR_OK)
		goto fail;
	status = elf_find_symtab(elf, err);
	if (status != BR_OK)
		goto fail;

	/* No DWARF is not an error here: only file:line lookups need it. */
	elf->dwarf = dwarf_begin_elf(elf->elf, DWARF_C_READ, NULL);

	*out = elf;
	return BR_OK;

fail:
	br_elf_close(elf);
	return status;
}

void br_elf_close(br_elf_t *elf)
{
	if (elf == NULL)
		return;
	if (elf->dwarf != NULL)
		dwarf_end(elf->dwarf);
	if (elf->elf != NULL)
		elf_end(elf->elf);
	if (elf->fd >= 0)
		close(elf->fd);
	for (size_t i = 0; elf->demangled != NULL && i < elf->symtab_count; i++)
		free(elf->demangled[i]);
	free(elf->demangled);
	free(elf->path);
	free(elf);
}

const char *br_elf_path(const br_elf_t *elf)
{
	return elf->path;
}

uint32_t br_elf_entry(const br_elf_t *elf)
{
	return elf->entry;
}

bool br_elf_file_is_elf(const char *path)
{
	unsigned char magic[SELFMAG];
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return false;
	size_t n = fread(magic, 1, sizeof(magic), f);
	fclose(f);
	return n == sizeof(magic) && memcmp(magic, ELFMAG, SELFMAG) == 0;
}
