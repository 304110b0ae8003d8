#include "elf/elf_sizes.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/xalloc.h"
#include "elf/elf_private.h"

br_status_t br_elf_sections_list(const br_elf_t *elf, br_elf_section_size_t **out, size_t *count,
                                 br_error_t *err)
{
	*out = NULL;
	*count = 0;
	size_t shstrndx = 0;
	if (elf_getshdrstrndx(elf->elf, &shstrndx) != 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: corrupt ELF (section names: %s): rebuild the firmware",
		                    elf->path, elf_errmsg(-1));
	br_elf_section_size_t *list = NULL;
	size_t n = 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf->elf, scn)) != NULL) {
		GElf_Shdr shdr;
		if (gelf_getshdr(scn, &shdr) == NULL) {
			free(list);
			return br_error_set(err, BR_ERR_INPUT,
			                    "%s: corrupt ELF (section header %zu: %s): rebuild the "
			                    "firmware",
			                    elf->path, elf_ndxscn(scn), elf_errmsg(-1));
		}
		if ((shdr.sh_flags & SHF_ALLOC) == 0 || shdr.sh_size == 0)
			continue;
		const char *name = elf_strptr(elf->elf, shstrndx, shdr.sh_name);
		list = xrealloc(list, (n + 1U) * sizeof(*list));
		snprintf(list[n].name, sizeof(list[n].name), "%s", name != NULL ? name : "?");
		list[n].size = shdr.sh_size;
		list[n].memory = br_elf_section_memory(shdr.sh_flags, shdr.sh_type);
		n++;
	}
	*out = list;
	*count = n;
	return BR_OK;
}

br_status_t br_elf_sizes_compute(const br_elf_t *elf, br_elf_sizes_t *out, br_error_t *err)
{
	br_elf_section_size_t *list = NULL;
	size_t n = 0;
	br_status_t st = br_elf_sections_list(elf, &list, &n, err);
	if (st != BR_OK)
		return st;
	br_elf_sizes_t sizes = {0};
	for (size_t i = 0; i < n; i++) {
		switch (list[i].memory) {
		case BR_ELF_MEMORY_FLASH:
			sizes.text += list[i].size;
			break;
		case BR_ELF_MEMORY_BOTH:
			sizes.data += list[i].size;
			break;
		case BR_ELF_MEMORY_RAM:
			sizes.bss += list[i].size;
			break;
		}
	}
	free(list);
	*out = sizes;
	return BR_OK;
}

br_elf_memory_t br_elf_section_memory(uint64_t sh_flags, uint32_t sh_type)
{
	bool is_code = (sh_flags & SHF_EXECINSTR) != 0;
	bool is_readonly = (sh_flags & SHF_WRITE) == 0;
	if (is_code || is_readonly)
		return BR_ELF_MEMORY_FLASH;
	return sh_type != SHT_NOBITS ? BR_ELF_MEMORY_BOTH : BR_ELF_MEMORY_RAM;
}

uint64_t br_elf_memory_flash(br_elf_memory_t m, uint64_t size)
{
	return m == BR_ELF_MEMORY_RAM ? 0U : size;
}

uint64_t br_elf_memory_ram(br_elf_memory_t m, uint64_t size)
{
	return m == BR_ELF_MEMORY_FLASH ? 0U : size;
}

const char *br_elf_memory_name(br_elf_memory_t m)
{
	switch (m) {
	case BR_ELF_MEMORY_FLASH:
		return "flash";
	case BR_ELF_MEMORY_BOTH:
		return "flash+ram";
	case BR_ELF_MEMORY_RAM:
		return "ram";
	}
	return "?";
}
