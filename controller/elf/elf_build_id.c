#include "elf/elf_build_id.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "elf/elf_private.h"

/* Alignment of notes whose segment asks for 8-byte alignment (gABI "Note Section"). */
#define BR_ELF_NOTE_ALIGN_8 8U

/* A build-id note found in the file: desc_len bytes at desc. */
typedef struct build_id_note {
	const uint8_t *desc;
	size_t desc_len;
} build_id_note_t;

/* Looks through the notes in data for the GNU build-id. */
static bool note_find_build_id(Elf_Data *data, build_id_note_t *out)
{
	size_t offset = 0;
	for (;;) {
		GElf_Nhdr nhdr;
		size_t name_offset;
		size_t desc_offset;
		size_t next = gelf_getnote(data, offset, &nhdr, &name_offset, &desc_offset);
		if (next == 0)
			return false;
		const uint8_t *bytes = data->d_buf;
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == sizeof(ELF_NOTE_GNU) &&
		    memcmp(bytes + name_offset, ELF_NOTE_GNU, sizeof(ELF_NOTE_GNU)) == 0) {
			out->desc = bytes + desc_offset;
			out->desc_len = nhdr.n_descsz;
			return true;
		}
		offset = next;
	}
}

/* The build-id from SHT_NOTE sections. */
static bool build_id_from_sections(const br_elf_t *elf, build_id_note_t *out)
{
	Elf_Scn *scn = NULL;
	for (;;) {
		scn = elf_nextscn(elf->elf, scn);
		if (scn == NULL)
			return false;
		GElf_Shdr shdr;
		if (gelf_getshdr(scn, &shdr) == NULL || shdr.sh_type != SHT_NOTE)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (data != NULL && note_find_build_id(data, out))
			return true;
	}
}

/* The build-id from PT_NOTE segments, for files without section headers. */
static bool build_id_from_segments(const br_elf_t *elf, build_id_note_t *out)
{
	size_t count;
	if (elf_getphdrnum(elf->elf, &count) != 0)
		return false;
	for (size_t i = 0; i < count && i <= INT32_MAX; i++) {
		GElf_Phdr phdr;
		if (gelf_getphdr(elf->elf, (int)i, &phdr) == NULL || phdr.p_type != PT_NOTE)
			continue;
		Elf_Type type = phdr.p_align == BR_ELF_NOTE_ALIGN_8 ? ELF_T_NHDR8 : ELF_T_NHDR;
		Elf_Data *data =
		    elf_getdata_rawchunk(elf->elf, (int64_t)phdr.p_offset, phdr.p_filesz, type);
		if (data != NULL && note_find_build_id(data, out))
			return true;
	}
	return false;
}

br_status_t br_elf_build_id(const br_elf_t *elf, char *hex, size_t hex_size, br_error_t *err)
{
	static const char digits[] = "0123456789abcdef";

	if (hex_size == 0)
		return br_error_set(err, BR_ERR_USAGE,
		                    "build-id of %s: no room for it (pass BR_ELF_BUILD_ID_HEX_SIZE "
		                    "bytes)",
		                    elf->path);
	hex[0] = '\0';

	build_id_note_t note;
	if (!build_id_from_sections(elf, &note) && !build_id_from_segments(elf, &note))
		return BR_OK;
	if (note.desc_len > BR_ELF_BUILD_ID_MAX_BYTES)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: build-id of %zu bytes (at most %u accepted): link with "
		                    "--build-id=sha1",
		                    elf->path, note.desc_len, BR_ELF_BUILD_ID_MAX_BYTES);
	if (hex_size < 2 * note.desc_len + 1)
		return br_error_set(err, BR_ERR_USAGE,
		                    "build-id of %s: %zu bytes do not fit %zu hex characters (pass "
		                    "BR_ELF_BUILD_ID_HEX_SIZE bytes)",
		                    elf->path, hex_size, 2 * note.desc_len);

	for (size_t i = 0; i < note.desc_len; i++) {
		hex[2 * i] = digits[note.desc[i] >> 4];
		hex[2 * i + 1] = digits[note.desc[i] & 0xFU];
	}
	hex[2 * note.desc_len] = '\0';
	return BR_OK;
}
