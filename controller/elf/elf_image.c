#include "elf/elf_image.h"

#include <inttypes.h>
#include <string.h>

#include "elf/elf_private.h"

void br_elf_segments_begin(const br_elf_t *elf, br_elf_segment_iter_t *it)
{
	it->elf = elf;
	it->next = 0;
}

bool br_elf_segments_next(br_elf_segment_iter_t *it, br_elf_segment_t *out)
{
	size_t count;
	if (elf_getphdrnum(it->elf->elf, &count) != 0)
		return false;
	while (it->next < count && it->next <= INT32_MAX) {
		GElf_Phdr phdr;
		int index = (int)it->next++;
		if (gelf_getphdr(it->elf->elf, index, &phdr) == NULL || phdr.p_type != PT_LOAD)
			continue;
		out->paddr = (uint32_t)phdr.p_paddr;
		out->vaddr = (uint32_t)phdr.p_vaddr;
		out->filesz = (uint32_t)phdr.p_filesz;
		out->memsz = (uint32_t)phdr.p_memsz;
		out->flags = (uint32_t)phdr.p_flags;
		out->data = it->elf->raw + phdr.p_offset;
		return true;
	}
	return false;
}

/* A section that exists in target memory at start: allocated, and not a
 * thread-local template (whose addresses are offsets, not locations). */
static bool section_is_in_image(const GElf_Shdr *shdr)
{
	return (shdr->sh_flags & SHF_ALLOC) != 0 && (shdr->sh_flags & SHF_TLS) == 0 &&
	       shdr->sh_size != 0;
}

/* Finds the image section containing address; false when none does. */
static bool section_containing(const br_elf_t *elf, uint32_t address, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;
	for (;;) {
		scn = elf_nextscn(elf->elf, scn);
		if (scn == NULL)
			return false;
		if (gelf_getshdr(scn, out) == NULL || !section_is_in_image(out))
			continue;
		if (address >= out->sh_addr && address - out->sh_addr < out->sh_size)
			return true;
	}
}

br_status_t br_elf_read_initial(const br_elf_t *elf, uint32_t vaddr, void *buf, size_t len,
                                br_error_t *err)
{
	uint8_t *dst = buf;
	uint64_t address = vaddr;
	uint64_t end = (uint64_t)vaddr + len;

	while (address < end) {
		GElf_Shdr shdr;
		if (address > UINT32_MAX || !section_containing(elf, (uint32_t)address, &shdr))
			return br_error_set(
			    err, BR_ERR_INPUT,
			    "0x%08" PRIx64 " is not in any allocated section of %s: "
			    "check the symbol or address (a variable's run address, not "
			    "its load address)",
			    address, elf->path);
		uint64_t offset = address - shdr.sh_addr;
		uint64_t chunk = shdr.sh_size - offset;
		if (chunk > end - address)
			chunk = end - address;
		if (shdr.sh_type == SHT_NOBITS) {
			memset(dst, 0, (size_t)chunk);
		} else {
			if (!br_elf_file_holds(elf, shdr.sh_offset + offset, chunk))
				return br_error_set(err, BR_ERR_INPUT,
				                    "%s: corrupt ELF (the section at 0x%08" PRIx64
				                    " lies outside the file): rebuild the firmware",
				                    elf->path, (uint64_t)shdr.sh_addr);
			memcpy(dst, elf->raw + shdr.sh_offset + offset, (size_t)chunk);
		}
		dst += chunk;
		address += chunk;
	}
	return BR_OK;
}
