/*
 * The oracle of the ELF unit test: GNU binutils for ARM (nm, size, readelf,
 * addr2line) run on the same file, their output parsed. Expected values come
 * from these tools at test time, never from constants copied from a run.
 */
#ifndef BENCHRACK_TESTS_ELF_ORACLE_H
#define BENCHRACK_TESTS_ELF_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ORACLE_NAME_BYTES 128U
#define ORACLE_PATH_BYTES 4096U
#define ORACLE_MAX_SEGMENTS 16U

typedef struct oracle_tools {
	const char *nm;
	const char *size;
	const char *readelf;
	const char *addr2line;
} oracle_tools_t;

/* One row of `readelf -sW`. */
typedef struct oracle_symbol {
	char name[ORACLE_NAME_BYTES];
	uint32_t value; /* as stored: Thumb bit included */
	uint32_t size;
	bool is_function; /* Type FUNC */
	bool defined;     /* Ndx not UND */
} oracle_symbol_t;

/* One row of `nm`. */
typedef struct oracle_nm_symbol {
	char name[ORACLE_NAME_BYTES];
	uint32_t address;
	char type; /* T, t, D, B, R, ... */
} oracle_nm_symbol_t;

/* One LOAD row of `readelf -lW`. */
typedef struct oracle_segment {
	uint64_t offset, vaddr, paddr, filesz, memsz;
	bool readable, writable, executable;
} oracle_segment_t;

/* False (with a message on stderr) when a path cannot be quoted for the shell. */
bool oracle_path_ok(const char *path);

/* `readelf -h`: the entry point address as stored. */
bool oracle_entry(const oracle_tools_t *tools, const char *elf, uint32_t *entry);

/* `size` (Berkeley format): text, data, bss. */
bool oracle_sizes(const oracle_tools_t *tools, const char *elf, uint64_t *text, uint64_t *data,
                  uint64_t *bss);

/* `readelf -n`: the build-id as hex, "" when there is none. */
bool oracle_build_id(const oracle_tools_t *tools, const char *elf, char *hex, size_t size);

/* `readelf -sW`: the symbols of .symtab. Returns the count; *out is the
 * caller's to free. */
size_t oracle_symbols(const oracle_tools_t *tools, const char *elf, oracle_symbol_t **out);

/* `nm`: the defined symbols with addresses. Returns the count; *out is the
 * caller's to free. */
size_t oracle_nm(const oracle_tools_t *tools, const char *elf, oracle_nm_symbol_t **out);

/* `readelf -lW`: the LOAD segments, at most max. Returns the count. */
size_t oracle_segments(const oracle_tools_t *tools, const char *elf, oracle_segment_t *out,
                       size_t max);

/* `addr2line`: the file and line of an address; false for "??". */
bool oracle_addr2line(const oracle_tools_t *tools, const char *elf, uint32_t address, char *path,
                      size_t path_size, unsigned *line);

#endif
