/*
 * Fuzz target: a firmware ELF as controller/elf reads it (libelf for headers,
 * sections, symbols and notes; libdw for lines and CFI), on any bytes. The
 * input is a file (a memfd, as br_elf_open takes a path) and every reader
 * the controller uses on firmware runs on it: sizes, the size breakdown,
 * symbols by name and address, the function iterator, load segments and
 * initial values, build id, .comment, file:line lookups, address to line,
 * CFI. Invariants:
 *
 * - nothing crashes, leaks or reads out of bounds (ASan/UBSan in the
 *   libFuzzer build); every call returns BR_OK or BR_ERR_INPUT;
 * - a refusal is one NUL-terminated line naming the file;
 * - the size breakdown's entries lie in their sections, do not overlap, and
 *   sum to at most text + data + bss, and the compile unit of each (DWARF)
 *   is found or not without a fault;
 * - every name, escaped by common/escape.h, holds no control byte.
 */
#define _GNU_SOURCE
#include "fuzz_target.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/escape.h"
#include "elf/elf_addr_line.h"
#include "elf/elf_build_id.h"
#include "elf/elf_cfi.h"
#include "elf/elf_comment.h"
#include "elf/elf_file.h"
#include "elf/elf_image.h"
#include "elf/elf_lines.h"
#include "elf/elf_sizes.h"
#include "elf/elf_symbol_sizes.h"
#include "elf/elf_symbols.h"
#include "elf/elf_units.h"

#define FUZZ_MAX_FUNCTIONS 64U
#define FUZZ_NAME_BYTES 4096U

/* Where the segment bytes are read to, so that the reads stay. */
static volatile uint8_t fuzz_sink;

static void fuzz_check_refusal(br_status_t st, const br_error_t *err, const char *path)
{
	fuzz_require(st == BR_ERR_INPUT, "a refusal is BR_ERR_INPUT");
	fuzz_require(memchr(err->message, '\0', sizeof(err->message)) != NULL, "message NUL");
	fuzz_require(strstr(err->message, path) != NULL, "message names the file");
	fuzz_require(strchr(err->message, '\n') == NULL, "message is one line");
}

/* The escaped name holds no C0 control, DEL or raw ESC. */
static void fuzz_check_escaped(const char *name)
{
	static char out[BR_ESCAPE_BYTES(FUZZ_NAME_BYTES)];
	br_escape_text(name, out, sizeof(out));
	for (const unsigned char *p = (const unsigned char *)out; *p != '\0'; p++)
		fuzz_require(*p >= 0x20U && *p != 0x7FU, "escaped name has no control byte");
}

static void fuzz_sizes(const br_elf_t *elf, const char *path)
{
	br_elf_sizes_t sizes;
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = br_elf_sizes_compute(elf, &sizes, &err);
	if (st != BR_OK) {
		fuzz_check_refusal(st, &err, path);
		return;
	}
	br_elf_sized_t *sized = NULL;
	size_t count = 0;
	st = br_elf_symbol_sizes(elf, &sized, &count, &err);
	if (st != BR_OK) {
		fuzz_check_refusal(st, &err, path);
		return;
	}
	uint64_t total = 0;
	br_elf_units_t *units = br_elf_units_read(elf);
	for (size_t i = 0; i < count; i++) {
		const char *unit = br_elf_units_find(units, sized[i].address);
		fuzz_require(unit == NULL || strlen(unit) < SIZE_MAX, "a unit is a string");
		fuzz_require(sized[i].size > 0, "an entry has bytes");
		fuzz_require(sized[i].name[0] != '\0' && strstr(sized[i].names, sized[i].name) != NULL,
		             "an entry's first name is among its names");
		for (size_t j = 0; j < i; j++) {
			uint64_t a0 = sized[i].address, a1 = a0 + sized[i].size;
			uint64_t b0 = sized[j].address, b1 = b0 + sized[j].size;
			fuzz_require(strcmp(sized[i].section, sized[j].section) != 0 || a1 <= b0 ||
			                 b1 <= a0,
			             "entries of one section do not overlap");
		}
		fuzz_check_escaped(sized[i].names);
		total += sized[i].size;
	}
	br_elf_units_free(units);
	fuzz_require(total <= sizes.text + sizes.data + sizes.bss,
	             "the breakdown sums to at most text + data + bss");
	free(sized);
}

static void fuzz_symbols(const br_elf_t *elf, const char *path)
{
	br_elf_function_iter_t it;
	br_elf_function_t fn;
	br_elf_functions_begin(elf, &it);
	for (size_t n = 0; n < FUZZ_MAX_FUNCTIONS && br_elf_functions_next(&it, &fn); n++) {
		fuzz_check_escaped(fn.name);
		br_elf_function_t at;
		fuzz_require(br_elf_symbol_at(elf, fn.address, &at), "a function covers its start");
		char where[256];
		br_elf_symbol_describe(elf, fn.address + fn.size / 2U, where, sizeof(where));
		br_elf_symbol_t sym;
		br_error_t err;
		br_error_clear(&err);
		br_status_t st = br_elf_symbol_find(elf, fn.name, &sym, &err);
		if (st != BR_OK)
			fuzz_check_refusal(st, &err, path);
		const char *file = NULL;
		unsigned line = 0;
		if (br_elf_addr_line(elf, fn.address, &file, &line)) {
			fuzz_require(file != NULL, "a line has a file");
			uint32_t address = 0;
			br_error_clear(&err);
			st = br_elf_line_address(elf, file, line, &address, &err);
			if (st != BR_OK)
				fuzz_check_refusal(st, &err, path);
		}
	}
	const char *names[] = {"main", "_estack", "br_control", "dsp::Fir::step"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		br_elf_symbol_t sym;
		br_error_t err;
		br_error_clear(&err);
		br_status_t st = br_elf_symbol_find(elf, names[i], &sym, &err);
		if (st != BR_OK)
			fuzz_check_refusal(st, &err, path);
	}
	br_elf_function_t at;
	(void)br_elf_symbol_at(elf, br_elf_entry(elf), &at);
}

static void fuzz_image(const br_elf_t *elf, const char *path)
{
	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	br_elf_segments_begin(elf, &it);
	while (br_elf_segments_next(&it, &seg)) {
		fuzz_require(seg.filesz <= seg.memsz, "a segment's file bytes fit in memory");
		for (uint32_t i = 0; i < seg.filesz; i++)
			fuzz_sink ^= seg.data[i]; /* ASan: every byte handed out is in the file */
		uint8_t word[8];
		br_error_t err;
		br_error_clear(&err);
		br_status_t st = br_elf_read_initial(elf, seg.vaddr, word, sizeof(word), &err);
		if (st != BR_OK)
			fuzz_check_refusal(st, &err, path);
	}
	char hex[128];
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = br_elf_build_id(elf, hex, sizeof(hex), &err);
	if (st != BR_OK)
		fuzz_check_refusal(st, &err, path);
	char comment[256];
	br_elf_comment(elf, comment, sizeof(comment));
	uint32_t address = 0;
	br_error_clear(&err);
	st = br_elf_line_address(elf, "main.c", 1, &address, &err);
	if (st != BR_OK)
		fuzz_check_refusal(st, &err, path);
}

static void fuzz_cfi(const br_elf_t *elf)
{
	br_elf_cfi_t *cfi = NULL;
	br_error_t err;
	br_error_clear(&err);
	if (br_elf_cfi_open(elf, &cfi, &err) != BR_OK || cfi == NULL)
		return;
	(void)br_elf_cfi_source(cfi);
	(void)br_elf_cfi_covers(cfi, br_elf_entry(elf));
	br_elf_cfi_close(cfi);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.elf", MFD_CLOEXEC);
	fuzz_require(fd >= 0, "memfd");
	fuzz_require(size == 0 || write(fd, data, size) == (ssize_t)size, "memfd write");
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	br_elf_t *elf = NULL;
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = br_elf_open(path, &elf, &err);
	if (st != BR_OK) {
		fuzz_check_refusal(st, &err, path);
		fuzz_require(elf == NULL, "no handle on failure");
	} else {
		fuzz_sizes(elf, path);
		fuzz_symbols(elf, path);
		fuzz_image(elf, path);
		fuzz_cfi(elf);
		br_elf_close(elf);
	}
	close(fd);
	return 0;
}
