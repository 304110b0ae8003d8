/*
 * controller/elf against GNU binutils on real ARM ELFs: fixture firmware the
 * build compiles with arm-none-eabi-gcc (fixture/), checked symbol by symbol,
 * segment by segment, against nm, size, readelf and addr2line (oracle.c).
 * Skips (exit 77) when the ARM toolchain is absent, so the meson.build passes
 * no arguments.
 *
 * usage: test_elf --elf=FILE... --object=FILE --stripped=FILE --source=DIR
 *                 --nm=P --size=P --readelf=P --addr2line=P
 * The first --elf is the -O0 fixture with a build-id the fixture checks use;
 * every --elf gets the oracle checks.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "elf/elf_build_id.h"
#include "elf/elf_file.h"
#include "elf/elf_image.h"
#include "elf/elf_lines.h"
#include "elf/elf_sizes.h"
#include "elf/elf_symbols.h"
#include "fixture_values.h"
#include "oracle.h"

#define EXIT_SKIP 77
#define MAX_ELVES 4U
#define WORD_BYTES 4U
#define PATH_BYTES 4096U
#define TRUNCATED_BYTES 100U
#define LINE_BEYOND_EOF 100000U
#define UNMAPPED_ADDRESS 0x30000000U
#define RUN_OFF_BYTES 0x10000U

typedef struct options {
	const char *elves[MAX_ELVES];
	size_t elf_count;
	const char *object;
	const char *stripped;
	const char *source;
	oracle_tools_t tools;
} options_t;

/* ---- helpers ------------------------------------------------------------ */

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static br_elf_t *open_or_fail(const char *path)
{
	br_elf_t *elf = NULL;
	br_error_t err;
	br_error_clear(&err);
	br_status_t status = br_elf_open(path, &elf, &err);
	CHECK_MSG(status == BR_OK, "open %s: %s", path, err.message);
	return status == BR_OK ? elf : NULL;
}

/* The line number of the first line of path containing marker; 0 if none. */
static unsigned source_marker_line(const char *path, const char *marker)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return 0;
	char text[PATH_BYTES];
	unsigned line = 0;
	unsigned found = 0;
	while (found == 0 && fgets(text, sizeof(text), f) != NULL) {
		line++;
		if (strstr(text, marker) != NULL)
			found = line;
	}
	fclose(f);
	return found;
}

/* Reads len bytes at offset of a file, for comparing segment data. */
static bool file_read_at(const char *path, uint64_t offset, uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return false;
	bool ok = fseeko(f, (off_t)offset, SEEK_SET) == 0 && fread(buf, 1, len, f) == len;
	fclose(f);
	return ok;
}

/* True when path ends with "/suffix". */
static bool path_ends_with(const char *path, const char *suffix)
{
	size_t p = strlen(path);
	size_t s = strlen(suffix);
	return p > s && strcmp(path + p - s, suffix) == 0 && path[p - s - 1] == '/';
}

/* ---- checks every ELF gets: against binutils ------------------------------ */

static void check_entry(const options_t *o, const char *path, const br_elf_t *elf)
{
	uint32_t want;
	CHECK(oracle_entry(&o->tools, path, &want));
	CHECK_MSG(br_elf_entry(elf) == (want & ~1U),
	          "%s: entry 0x%08" PRIx32 ", readelf 0x%08" PRIx32, path, br_elf_entry(elf), want);
}

static void check_sizes(const options_t *o, const char *path, const br_elf_t *elf)
{
	uint64_t text, data, bss;
	CHECK(oracle_sizes(&o->tools, path, &text, &data, &bss));
	br_elf_sizes_t got;
	br_error_t err;
	CHECK(br_elf_sizes_compute(elf, &got, &err) == BR_OK);
	CHECK_MSG(got.text == text && got.data == data && got.bss == bss,
	          "%s: text/data/bss %" PRIu64 "/%" PRIu64 "/%" PRIu64 ", size(1) says %" PRIu64
	          "/%" PRIu64 "/%" PRIu64,
	          path, got.text, got.data, got.bss, text, data, bss);
	CHECK_MSG(text > 0, "%s: the fixture has code", path);
}

static void check_build_id(const options_t *o, const char *path, const br_elf_t *elf)
{
	char want[BR_ELF_BUILD_ID_HEX_SIZE];
	char got[BR_ELF_BUILD_ID_HEX_SIZE];
	br_error_t err;
	CHECK(oracle_build_id(&o->tools, path, want, sizeof(want)));
	CHECK(br_elf_build_id(elf, got, sizeof(got), &err) == BR_OK);
	CHECK_MSG(strcmp(got, want) == 0, "%s: build-id '%s', readelf '%s'", path, got, want);
}

/* Every defined symbol nm lists once resolves to nm's address. */
static void check_symbols_nm(const options_t *o, const char *path, const br_elf_t *elf)
{
	oracle_nm_symbol_t *nm;
	size_t count = oracle_nm(&o->tools, path, &nm);
	CHECK_MSG(count > 0, "%s: nm listed nothing", path);
	for (size_t i = 0; i < count; i++) {
		size_t same_name = 0;
		for (size_t j = 0; j < count; j++)
			same_name += strcmp(nm[i].name, nm[j].name) == 0;
		if (same_name != 1)
			continue; /* ambiguous: checked by name below */
		br_elf_symbol_t sym;
		br_error_t err;
		br_status_t status = br_elf_symbol_find(elf, nm[i].name, &sym, &err);
		CHECK_MSG(status == BR_OK, "%s: %s", path, err.message);
		CHECK_MSG(status != BR_OK || sym.address == nm[i].address,
		          "%s: %s at 0x%08" PRIx32 ", nm says 0x%08" PRIx32, path, nm[i].name,
		          sym.address, nm[i].address);
	}
	free(nm);
}

/* How many defined symbols of syms are called name. */
static size_t symbols_named(const oracle_symbol_t *syms, size_t count, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < count; i++)
		n += syms[i].defined && strcmp(syms[i].name, name) == 0;
	return n;
}

/* Function symbols: find, the iterator and the reverse lookup agree with
 * readelf's symbol table (value with the Thumb bit, size, type). A name
 * defined more than once (file-local functions in several files) must be
 * reported as ambiguous by find. */
static void check_symbols_readelf(const options_t *o, const char *path, const br_elf_t *elf)
{
	oracle_symbol_t *syms;
	size_t count = oracle_symbols(&o->tools, path, &syms);
	size_t functions = 0;
	for (size_t i = 0; i < count; i++) {
		const oracle_symbol_t *s = &syms[i];
		if (!s->is_function || !s->defined)
			continue;
		functions++;
		uint32_t address = s->value & ~1U;
		CHECK_MSG((s->value & 1U) != 0, "%s: %s: Cortex-M code is Thumb", path, s->name);

		br_elf_symbol_t sym;
		br_error_t err;
		br_error_clear(&err);
		br_status_t status = br_elf_symbol_find(elf, s->name, &sym, &err);
		if (symbols_named(syms, count, s->name) > 1) {
			CHECK_MSG(
			    status == BR_ERR_INPUT && strstr(err.message, "ambiguous") != NULL,
			    "%s: %s is defined more than once: %s", path, s->name, err.message);
		} else {
			CHECK_MSG(status == BR_OK, "%s", err.message);
			CHECK_MSG(status == BR_OK && sym.address == address &&
			              sym.size == s->size && sym.is_function && sym.is_thumb,
			          "%s: %s: 0x%08" PRIx32 "/%" PRIu32
			          " thumb %d, readelf 0x%08" PRIx32 "/%" PRIu32,
			          path, s->name, sym.address, sym.size, sym.is_thumb, s->value,
			          s->size);
		}

		/* First and last byte of the function map back to it. */
		br_elf_function_t fn;
		uint32_t last = address + (s->size > 0 ? s->size - 1 : 0);
		CHECK(br_elf_symbol_at(elf, address, &fn) && strcmp(fn.name, s->name) == 0 &&
		      fn.address == address && fn.size == s->size);
		CHECK(br_elf_symbol_at(elf, last, &fn) && strcmp(fn.name, s->name) == 0 &&
		      fn.address == address);

		/* The iterator yields it exactly once. */
		br_elf_function_iter_t it;
		size_t seen = 0;
		br_elf_functions_begin(elf, &it);
		while (br_elf_functions_next(&it, &fn))
			seen += strcmp(fn.name, s->name) == 0 && fn.address == address &&
			        fn.size == s->size;
		CHECK_MSG(seen == 1, "%s: iterator yields %s %zu times", path, s->name, seen);
	}
	br_elf_function_iter_t it;
	br_elf_function_t fn;
	size_t iterated = 0;
	br_elf_functions_begin(elf, &it);
	while (br_elf_functions_next(&it, &fn))
		iterated++;
	CHECK_MSG(functions > 0 && iterated == functions, "%s: %zu functions, readelf %zu", path,
	          iterated, functions);
	free(syms);
}

/* Loadable segments equal readelf's LOAD rows, data equal the file's bytes. */
static void check_segments(const options_t *o, const char *path, const br_elf_t *elf)
{
	oracle_segment_t want[ORACLE_MAX_SEGMENTS];
	size_t count = oracle_segments(&o->tools, path, want, ORACLE_MAX_SEGMENTS);
	CHECK_MSG(count > 0, "%s: readelf shows no LOAD segment", path);

	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	size_t i = 0;
	br_elf_segments_begin(elf, &it);
	while (br_elf_segments_next(&it, &seg)) {
		CHECK_MSG(i < count, "%s: more segments than readelf shows", path);
		if (i >= count)
			break;
		const oracle_segment_t *w = &want[i++];
		CHECK_MSG(seg.vaddr == w->vaddr && seg.paddr == w->paddr &&
		              seg.filesz == w->filesz && seg.memsz == w->memsz,
		          "%s: segment %zu differs from readelf", path, i - 1);
		CHECK(((seg.flags & PF_R) != 0) == w->readable);
		CHECK(((seg.flags & PF_W) != 0) == w->writable);
		CHECK(((seg.flags & PF_X) != 0) == w->executable);
		uint8_t *bytes = malloc(seg.filesz + 1U);
		CHECK(bytes != NULL && file_read_at(path, w->offset, bytes, seg.filesz) &&
		      memcmp(bytes, seg.data, seg.filesz) == 0);
		free(bytes);
	}
	CHECK_MSG(i == count, "%s: %zu segments, readelf %zu", path, i, count);
}

static void check_against_binutils(const options_t *o, const char *path)
{
	br_elf_t *elf = open_or_fail(path);
	if (elf == NULL)
		return;
	CHECK(strcmp(br_elf_path(elf), path) == 0);
	check_entry(o, path, elf);
	check_sizes(o, path, elf);
	check_build_id(o, path, elf);
	check_symbols_nm(o, path, elf);
	check_symbols_readelf(o, path, elf);
	check_segments(o, path, elf);
	br_elf_close(elf);
}

/* ---- checks that know the fixture's source -------------------------------- */

static void check_fixture_symbols(const options_t *o, const br_elf_t *elf)
{
	const char *path = o->elves[0];
	br_elf_symbol_t sym;
	br_error_t err;

	/* A function: Thumb bit cleared, as nm shows it. */
	oracle_nm_symbol_t *nm;
	size_t count = oracle_nm(&o->tools, path, &nm);
	uint32_t nm_address = 0;
	for (size_t i = 0; i < count; i++) {
		if (strcmp(nm[i].name, "fixture_sum") == 0)
			nm_address = nm[i].address;
	}
	free(nm);
	CHECK(br_elf_symbol_find(elf, "fixture_sum", &sym, &err) == BR_OK);
	CHECK(sym.address == nm_address && (sym.address & 1U) == 0);
	CHECK(sym.is_function && sym.is_thumb && sym.size > 0);

	/* Data: not a function, size from the source. */
	CHECK(br_elf_symbol_find(elf, "fixture_data", &sym, &err) == BR_OK);
	CHECK(!sym.is_function && !sym.is_thumb);
	CHECK(sym.size == FIXTURE_DATA_WORDS * WORD_BYTES);

	/* A file-local function is found too. */
	CHECK(br_elf_symbol_find(elf, "fixture_local_helper", &sym, &err) == BR_OK);

	/* Missing: BR_ERR_INPUT naming the symbol and the file. */
	br_error_clear(&err);
	CHECK(br_elf_symbol_find(elf, "no_such_symbol", &sym, &err) == BR_ERR_INPUT);
	CHECK(err.status == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "no_such_symbol") != NULL &&
	              strstr(err.message, path) != NULL,
	          "%s", err.message);

	/* A misspelling: the nearest names by edit distance, nearest first. */
	br_error_clear(&err);
	CHECK(br_elf_symbol_find(elf, "fixture_smu", &sym, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "(did you mean 'fixture_sum'") != NULL, "%s", err.message);
	/* ... and none when nothing is near. */
	br_error_clear(&err);
	CHECK(br_elf_symbol_find(elf, "no_such_symbol", &sym, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "did you mean") == NULL, "%s", err.message);

	/* Mapping symbols ($t, $d) are not names. */
	CHECK(br_elf_symbol_find(elf, "$t", &sym, &err) == BR_ERR_INPUT);

	/* Two file-local variables of the same name: ambiguous. */
	br_error_clear(&err);
	CHECK(br_elf_symbol_find(elf, "fixture_same_count", &sym, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "ambiguous") != NULL && strstr(err.message, path) != NULL,
	          "%s", err.message);

	/* Reverse lookup: inside a function, and nowhere. */
	br_elf_function_t fn;
	CHECK(br_elf_symbol_find(elf, "fixture_sum", &sym, &err) == BR_OK);
	CHECK(br_elf_symbol_at(elf, sym.address + 2, &fn) && strcmp(fn.name, "fixture_sum") == 0);
	CHECK(!br_elf_symbol_at(elf, sym.address + sym.size + 0x100000U, &fn));
	char text[128];
	char want[128];
	br_elf_symbol_describe(elf, sym.address + 2, text, sizeof(text));
	snprintf(want, sizeof(want), "0x%08" PRIx32 " (fixture_sum+0x2)", sym.address + 2);
	CHECK_MSG(strcmp(text, want) == 0, "%s", text);
	br_elf_symbol_describe(elf, UNMAPPED_ADDRESS, text, sizeof(text));
	CHECK_MSG(strcmp(text, "0x30000000") == 0, "%s", text);

	/* The entry point is main (-Wl,-e,main). */
	CHECK(br_elf_symbol_find(elf, "main", &sym, &err) == BR_OK);
	CHECK(br_elf_entry(elf) == sym.address);
}

static void check_fixture_initial(const options_t *o, const br_elf_t *elf)
{
	const char *path = o->elves[0];
	br_elf_symbol_t sym;
	br_error_t err;
	uint8_t buf[FIXTURE_BSS_WORDS * WORD_BYTES];

	/* .data: the initializers, read at the RAM address from the load image. */
	static const uint32_t data_words[FIXTURE_DATA_WORDS] = {
	    FIXTURE_DATA_WORD0, FIXTURE_DATA_WORD1, FIXTURE_DATA_WORD2, FIXTURE_DATA_WORD3};
	CHECK(br_elf_symbol_find(elf, "fixture_data", &sym, &err) == BR_OK);
	br_error_clear(&err);
	CHECK_MSG(br_elf_read_initial(elf, sym.address, buf, sizeof(data_words), &err) == BR_OK,
	          "%s", err.message);
	for (size_t i = 0; i < FIXTURE_DATA_WORDS; i++)
		CHECK_MSG(le32(buf + WORD_BYTES * i) == data_words[i], "word %zu: 0x%08" PRIx32, i,
		          le32(buf + WORD_BYTES * i));
	/* Part of it, unaligned. */
	CHECK(br_elf_read_initial(elf, sym.address + 1, buf, 2, &err) == BR_OK);
	CHECK(buf[0] == ((FIXTURE_DATA_WORD0 >> 8) & 0xFFU) &&
	      buf[1] == ((FIXTURE_DATA_WORD0 >> 16) & 0xFFU));

	/* .data really runs from RAM and loads from flash: some segment says so. */
	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	bool relocated = false;
	br_elf_segments_begin(elf, &it);
	while (br_elf_segments_next(&it, &seg))
		relocated = relocated || (seg.vaddr == sym.address && seg.paddr != seg.vaddr);
	CHECK_MSG(relocated, "%s: .data's load and run addresses should differ", path);

	/* .rodata, in flash. */
	CHECK(br_elf_symbol_find(elf, "fixture_rodata", &sym, &err) == BR_OK);
	CHECK(br_elf_read_initial(elf, sym.address, buf, 2 * WORD_BYTES, &err) == BR_OK);
	CHECK(le32(buf) == FIXTURE_RODATA_WORD0 && le32(buf + WORD_BYTES) == FIXTURE_RODATA_WORD1);

	/* .bss: zeros (the buffer is dirtied first). */
	CHECK(br_elf_symbol_find(elf, "fixture_bss", &sym, &err) == BR_OK);
	memset(buf, 0xAA, sizeof(buf));
	CHECK(br_elf_read_initial(elf, sym.address, buf, sizeof(buf), &err) == BR_OK);
	bool zeros = true;
	for (size_t i = 0; i < sizeof(buf); i++)
		zeros = zeros && buf[i] == 0;
	CHECK(zeros);

	/* Across the end of .data into .bss, which the linker script puts right after. */
	CHECK(br_elf_symbol_find(elf, "fixture_data", &sym, &err) == BR_OK);
	memset(buf, 0xAA, sizeof(buf));
	uint32_t last_word = sym.address + (FIXTURE_DATA_WORDS - 1) * WORD_BYTES;
	br_error_clear(&err);
	CHECK_MSG(br_elf_read_initial(elf, last_word, buf, 2 * WORD_BYTES, &err) == BR_OK, "%s",
	          err.message);
	CHECK(le32(buf) == FIXTURE_DATA_WORD3 && le32(buf + WORD_BYTES) == 0);

	/* Outside every section: BR_ERR_INPUT naming the address and the file. */
	br_error_clear(&err);
	CHECK(br_elf_read_initial(elf, UNMAPPED_ADDRESS, buf, WORD_BYTES, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "0x30000000") != NULL && strstr(err.message, path) != NULL,
	          "%s", err.message);
	/* Running off the end of RAM's last section. */
	uint8_t *big = malloc(RUN_OFF_BYTES);
	CHECK(big != NULL && br_elf_symbol_find(elf, "fixture_bss", &sym, &err) == BR_OK);
	CHECK(big != NULL &&
	      br_elf_read_initial(elf, sym.address, big, RUN_OFF_BYTES, &err) == BR_ERR_INPUT);
	free(big);
}

/* Resolves file:line and checks addr2line maps the address back to it. */
static void check_line_resolves(const options_t *o, const br_elf_t *elf, const char *file,
                                const char *source_suffix, unsigned line, const char *function)
{
	const char *path = o->elves[0];
	uint32_t address = 0;
	br_error_t err;
	br_error_clear(&err);
	br_status_t status = br_elf_line_address(elf, file, line, &address, &err);
	CHECK_MSG(status == BR_OK, "%s:%u: %s", file, line, err.message);
	if (status != BR_OK)
		return;
	char back[ORACLE_PATH_BYTES];
	unsigned back_line = 0;
	CHECK(oracle_addr2line(&o->tools, path, address, back, sizeof(back), &back_line));
	CHECK_MSG(back_line == line && path_ends_with(back, source_suffix),
	          "%s:%u -> 0x%08" PRIx32 " -> addr2line %s:%u", file, line, address, back,
	          back_line);
	br_elf_function_t fn;
	CHECK_MSG(br_elf_symbol_at(elf, address, &fn) && strcmp(fn.name, function) == 0,
	          "%s:%u is not in %s", file, line, function);
}

static void check_line_fails(const br_elf_t *elf, const char *file, unsigned line,
                             const char *want_text)
{
	uint32_t address = 0;
	br_error_t err;
	br_error_clear(&err);
	CHECK(br_elf_line_address(elf, file, line, &address, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, want_text) != NULL, "%s:%u: message '%s' lacks '%s'", file,
	          line, err.message, want_text);
}

static void check_fixture_lines(const options_t *o, const br_elf_t *elf)
{
	char source[PATH_BYTES];
	snprintf(source, sizeof(source), "%s/fixture.c", o->source);
	unsigned target = source_marker_line(source, "/* LINE_TARGET */");
	unsigned no_code = source_marker_line(source, "/* LINE_NO_CODE */");
	CHECK_MSG(target != 0 && no_code != 0, "markers missing in %s", source);
	snprintf(source, sizeof(source), "%s/a/same.c", o->source);
	unsigned same_a = source_marker_line(source, "/* LINE_TARGET */");
	snprintf(source, sizeof(source), "%s/b/same.c", o->source);
	unsigned same_b = source_marker_line(source, "/* LINE_TARGET */");
	snprintf(source, sizeof(source), "%s/fixture_inline.h", o->source);
	unsigned inline_line = source_marker_line(source, "/* LINE_TARGET */");
	CHECK(same_a != 0 && same_b != 0 && inline_line != 0);

	/* By basename, and with more of the path. */
	check_line_resolves(o, elf, "fixture.c", "fixture.c", target, "fixture_sum");
	check_line_resolves(o, elf, "fixture/fixture.c", "fixture.c", target, "fixture_sum");
	check_line_resolves(o, elf, "a/same.c", "a/same.c", same_a, "fixture_same_a");
	check_line_resolves(o, elf, "b/same.c", "b/same.c", same_b, "fixture_same_b");
	/* One header, named differently by two compilation units: not ambiguous. */
	check_line_resolves(o, elf, "fixture_inline.h", "fixture_inline.h", inline_line,
	                    "fixture_twice");

	/* The lowest is_stmt address: no lower address of the function maps to the line. */
	uint32_t address;
	br_error_t err;
	CHECK(br_elf_line_address(elf, "fixture.c", target, &address, &err) == BR_OK);
	br_elf_symbol_t fn;
	CHECK(br_elf_symbol_find(elf, "fixture_sum", &fn, &err) == BR_OK);
	for (uint32_t a = fn.address; a < address; a += 2) {
		char back[ORACLE_PATH_BYTES];
		unsigned back_line = 0;
		if (oracle_addr2line(&o->tools, o->elves[0], a, back, sizeof(back), &back_line))
			CHECK_MSG(back_line != target, "0x%08" PRIx32 " is lower and maps to %u", a,
			          target);
	}

	/* No code on a comment line: the nearest lines with code are named, and
	 * at -O0 they are the statements just around it. */
	char want[PATH_BYTES];
	snprintf(want, sizeof(want),
	         "the nearest lines with code are fixture.c:%u and fixture.c:%u", target,
	         no_code + 1);
	check_line_fails(elf, "fixture.c", no_code, want);
	check_line_fails(elf, "fixture.c", no_code, o->elves[0]);
	check_line_fails(elf, "fixture.c", LINE_BEYOND_EOF, "the nearest line with code is");
	check_line_fails(elf, "fixture.c", 0, "numbered from 1");
	/* Files: absent, not on a component boundary, ambiguous. */
	check_line_fails(elf, "nosuch.c", 1, "no source file 'nosuch.c'");
	check_line_fails(elf, "ixture.c", target, "no source file");
	check_line_fails(elf, "same.c", same_a, "ambiguous");
	check_line_fails(elf, "same.c", same_a, "a/same.c");
	check_line_fails(elf, "same.c", same_a, "b/same.c");
}

static void check_fixture_build_id(const br_elf_t *elf)
{
	char hex[BR_ELF_BUILD_ID_HEX_SIZE];
	br_error_t err;
	/* ld --build-id defaults to sha1: 20 bytes, 40 hex digits. */
	CHECK(br_elf_build_id(elf, hex, sizeof(hex), &err) == BR_OK);
	CHECK_MSG(strlen(hex) == 40, "build-id '%s'", hex);
	/* Too small a buffer is the caller's mistake, said so. */
	char small[8];
	br_error_clear(&err);
	CHECK(br_elf_build_id(elf, small, sizeof(small), &err) == BR_ERR_USAGE);
	CHECK(small[0] == '\0');
}

/* A stripped firmware opens; symbols and lines say what is missing. */
static void check_stripped(const options_t *o)
{
	br_elf_t *elf = open_or_fail(o->stripped);
	if (elf == NULL)
		return;
	br_elf_symbol_t sym;
	br_error_t err;
	br_error_clear(&err);
	CHECK(br_elf_symbol_find(elf, "main", &sym, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "no symbol table") != NULL &&
	              strstr(err.message, o->stripped) != NULL,
	          "%s", err.message);
	uint32_t address;
	br_error_clear(&err);
	CHECK(br_elf_line_address(elf, "fixture.c", 1, &address, &err) == BR_ERR_INPUT);
	CHECK_MSG(strstr(err.message, "no debug information") != NULL, "%s", err.message);
	br_elf_function_t fn;
	br_elf_function_iter_t it;
	br_elf_functions_begin(elf, &it);
	CHECK(!br_elf_functions_next(&it, &fn));
	CHECK(!br_elf_symbol_at(elf, br_elf_entry(elf), &fn));
	check_sizes(o, o->stripped, elf);
	check_segments(o, o->stripped, elf);
	br_elf_close(elf);
}

/* ---- bad inputs ------------------------------------------------------------ */

/* Opening path fails with BR_ERR_INPUT, a message naming path and want_text. */
static void check_refused(const char *path, const char *want_text)
{
	static char sentinel;
	br_elf_t *elf = (br_elf_t *)(void *)&sentinel; /* must come back NULL */
	br_error_t err;
	br_error_clear(&err);
	br_status_t status = br_elf_open(path, &elf, &err);
	CHECK_MSG(status == BR_ERR_INPUT && err.status == BR_ERR_INPUT, "%s: status %d", path,
	          (int)status);
	CHECK(elf == NULL);
	CHECK_MSG(strstr(err.message, path) != NULL && strstr(err.message, want_text) != NULL,
	          "%s: message '%s' lacks '%s'", path, err.message, want_text);
	CHECK_MSG(strchr(err.message, '\n') == NULL, "%s: message is not one line", path);
	if (status == BR_OK)
		br_elf_close(elf);
}

static bool write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (f == NULL)
		return false;
	bool ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

static void check_bad_inputs(const options_t *o)
{
	char source[PATH_BYTES];
	snprintf(source, sizeof(source), "%s/fixture.c", o->source);

	check_refused("/nonexistent/benchrack/firmware.elf", "cannot open");
	check_refused(source, "not an ELF file");
	check_refused("/bin/true", "not an ARM ELF");
	check_refused(o->object, "relocatable object");
	check_refused(o->source, "not a regular file");

	/* Files made here: empty, and the fixture cut short. */
	char dir[PATH_BYTES];
	snprintf(dir, sizeof(dir), "%s.tmp-XXXXXX", o->elves[0]);
	CHECK_MSG(mkdtemp(dir) != NULL, "mkdtemp %s: %s", dir, strerror(errno));
	char empty[PATH_BYTES + 32];
	char truncated[PATH_BYTES + 32];
	snprintf(empty, sizeof(empty), "%s/empty.elf", dir);
	snprintf(truncated, sizeof(truncated), "%s/truncated.elf", dir);

	CHECK(write_file(empty, "", 0));
	check_refused(empty, "not an ELF file");

	uint8_t head[TRUNCATED_BYTES];
	CHECK(file_read_at(o->elves[0], 0, head, sizeof(head)));
	CHECK(write_file(truncated, head, sizeof(head)));
	check_refused(truncated, "corrupt ELF");

	unlink(empty);
	unlink(truncated);
	rmdir(dir);
}

/* ---- main ------------------------------------------------------------------ */

static bool option(const char *arg, const char *name, const char **value)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0)
		return false;
	*value = arg + n;
	return true;
}

static bool options_parse(int argc, char **argv, options_t *o)
{
	for (int i = 1; i < argc; i++) {
		const char *elf;
		if (option(argv[i], "--elf=", &elf)) {
			if (o->elf_count < MAX_ELVES)
				o->elves[o->elf_count++] = elf;
			continue;
		}
		if (!option(argv[i], "--object=", &o->object) &&
		    !option(argv[i], "--stripped=", &o->stripped) &&
		    !option(argv[i], "--source=", &o->source) &&
		    !option(argv[i], "--nm=", &o->tools.nm) &&
		    !option(argv[i], "--size=", &o->tools.size) &&
		    !option(argv[i], "--readelf=", &o->tools.readelf) &&
		    !option(argv[i], "--addr2line=", &o->tools.addr2line))
			return false;
	}
	return o->elf_count > 0 && o->object != NULL && o->stripped != NULL && o->source != NULL &&
	       o->tools.nm != NULL && o->tools.size != NULL && o->tools.readelf != NULL &&
	       o->tools.addr2line != NULL;
}

int main(int argc, char **argv)
{
	options_t o = {0};
	if (argc == 1) {
		printf("skipped: arm-none-eabi-gcc or its binutils not found at configure time\n");
		return EXIT_SKIP;
	}
	if (!options_parse(argc, argv, &o)) {
		fprintf(stderr, "usage: test_elf --elf=FILE... --object=FILE --stripped=FILE "
		                "--source=DIR --nm=P --size=P --readelf=P --addr2line=P\n");
		return 1;
	}
	bool paths_ok = oracle_path_ok(o.object) && oracle_path_ok(o.stripped);
	for (size_t i = 0; i < o.elf_count; i++)
		paths_ok = paths_ok && oracle_path_ok(o.elves[i]);
	if (!paths_ok)
		return 1;

	for (size_t i = 0; i < o.elf_count; i++)
		check_against_binutils(&o, o.elves[i]);

	br_elf_t *elf = open_or_fail(o.elves[0]);
	if (elf != NULL) {
		check_fixture_symbols(&o, elf);
		check_fixture_initial(&o, elf);
		check_fixture_lines(&o, elf);
		check_fixture_build_id(elf);
		br_elf_close(elf);
	}
	check_stripped(&o);
	check_bad_inputs(&o);
	return check_finish();
}
