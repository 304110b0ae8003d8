#include "elf/elf_comment.h"

#include <string.h>

#include "elf/elf_private.h"

/* Appends text to buf (holding len bytes) unless buf already has it. */
static size_t append_distinct(char *buf, size_t cap, size_t len, const char *text, size_t n)
{
	if (n == 0)
		return len;
	for (const char *p = buf; (p = strstr(p, text)) != NULL; p++) {
		if ((p == buf || p[-1] == ' ') && (p[n] == '\0' || p[n] == ';'))
			return len;
	}
	const char *sep = len > 0 ? "; " : "";
	size_t need = strlen(sep) + n;
	if (len + need >= cap)
		return len;
	memcpy(buf + len, sep, strlen(sep));
	memcpy(buf + len + strlen(sep), text, n);
	len += need;
	buf[len] = '\0';
	return len;
}

void br_elf_comment(const br_elf_t *elf, char *buf, size_t cap)
{
	if (cap == 0)
		return;
	buf[0] = '\0';
	size_t shstrndx = 0;
	if (elf_getshdrstrndx(elf->elf, &shstrndx) != 0)
		return;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf->elf, scn)) != NULL) {
		GElf_Shdr shdr;
		if (gelf_getshdr(scn, &shdr) == NULL || shdr.sh_type != SHT_PROGBITS)
			continue;
		const char *name = elf_strptr(elf->elf, shstrndx, shdr.sh_name);
		if (name == NULL || strcmp(name, ".comment") != 0)
			continue;
		if (!br_elf_file_holds(elf, shdr.sh_offset, shdr.sh_size))
			return;
		const char *data = (const char *)elf->raw + shdr.sh_offset;
		size_t len = 0;
		size_t start = 0;
		for (size_t i = 0; i <= shdr.sh_size; i++) {
			if (i == shdr.sh_size || data[i] == '\0') {
				char text[256];
				size_t n =
				    i - start < sizeof(text) - 1U ? i - start : sizeof(text) - 1U;
				memcpy(text, data + start, n);
				text[n] = '\0';
				len = append_distinct(buf, cap, len, text, n);
				start = i + 1U;
			}
		}
		return;
	}
}
