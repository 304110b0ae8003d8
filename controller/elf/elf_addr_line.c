#include "elf/elf_addr_line.h"

#include "elf/elf_private.h"

bool br_elf_addr_line(const br_elf_t *elf, uint32_t address, const char **file, unsigned *line)
{
	if (elf->dwarf == NULL)
		return false;
	Dwarf_Die cu;
	if (dwarf_addrdie(elf->dwarf, address, &cu) == NULL)
		return false;
	Dwarf_Line *l = dwarf_getsrc_die(&cu, address);
	if (l == NULL)
		return false;
	int lineno = 0;
	const char *src = dwarf_linesrc(l, NULL, NULL);
	if (src == NULL || dwarf_lineno(l, &lineno) != 0 || lineno <= 0)
		return false;
	*file = src;
	*line = (unsigned)lineno;
	return true;
}
