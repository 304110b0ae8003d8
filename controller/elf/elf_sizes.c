#include "elf/elf_sizes.h"

#include "elf/elf_private.h"

br_status_t br_elf_sizes_compute(const br_elf_t *elf, br_elf_sizes_t *out, br_error_t *err)
{
	br_elf_sizes_t sizes = {0};
	Elf_Scn *scn = NULL;

	for (;;) {
		scn = elf_nextscn(elf->elf, scn);
		if (scn == NULL)
			break;
		GElf_Shdr shdr;
		if (gelf_getshdr(scn, &shdr) == NULL)
			return br_error_set(err, BR_ERR_INPUT,
			                    "%s: corrupt ELF (section header %zu: %s): rebuild the "
			                    "firmware",
			                    elf->path, elf_ndxscn(scn), elf_errmsg(-1));
		if ((shdr.sh_flags & SHF_ALLOC) == 0)
			continue;
		bool is_code = (shdr.sh_flags & SHF_EXECINSTR) != 0;
		bool is_readonly = (shdr.sh_flags & SHF_WRITE) == 0;
		if (is_code || is_readonly)
			sizes.text += shdr.sh_size;
		else if (shdr.sh_type != SHT_NOBITS)
			sizes.data += shdr.sh_size;
		else
			sizes.bss += shdr.sh_size;
	}
	*out = sizes;
	return BR_OK;
}
