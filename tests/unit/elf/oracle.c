#include "oracle.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define ORACLE_COMMAND_BYTES 8192U
#define ORACLE_READ_CHUNK 4096U

bool oracle_path_ok(const char *path)
{
	if (strchr(path, '\'') == NULL)
		return true;
	fprintf(stderr, "oracle: cannot quote %s for the shell\n", path);
	return false;
}

/* Runs a shell command and returns its standard output (the caller frees
 * it), or NULL when it could not run or exited non-zero. */
static char *oracle_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *oracle_run(const char *fmt, ...)
{
	char command[ORACLE_COMMAND_BYTES];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(command, sizeof(command), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(command))
		return NULL;

	FILE *pipe = popen(command, "r");
	if (pipe == NULL)
		return NULL;
	size_t used = 0;
	size_t capacity = ORACLE_READ_CHUNK;
	char *out = malloc(capacity);
	for (;;) {
		if (out == NULL)
			break;
		if (capacity - used < ORACLE_READ_CHUNK) {
			capacity *= 2;
			char *bigger = realloc(out, capacity);
			if (bigger == NULL) {
				free(out);
				out = NULL;
				break;
			}
			out = bigger;
		}
		size_t got = fread(out + used, 1, capacity - used - 1, pipe);
		used += got;
		if (got == 0)
			break;
	}
	int status = pclose(pipe);
	if (out == NULL || status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "oracle: `%s` failed\n", command);
		free(out);
		return NULL;
	}
	out[used] = '\0';
	return out;
}

/* The next line of *cursor (terminated in place), or NULL at the end. */
static char *oracle_next_line(char **cursor)
{
	char *line = *cursor;
	if (line == NULL || *line == '\0')
		return NULL;
	char *end = strchr(line, '\n');
	if (end != NULL) {
		*end = '\0';
		*cursor = end + 1;
	} else {
		*cursor = line + strlen(line);
	}
	return line;
}

bool oracle_entry(const oracle_tools_t *tools, const char *elf, uint32_t *entry)
{
	static const char key[] = "Entry point address:";
	char *out = oracle_run("'%s' -h '%s'", tools->readelf, elf);
	if (out == NULL)
		return false;
	char *at = strstr(out, key);
	bool ok = at != NULL;
	if (ok)
		*entry = (uint32_t)strtoul(at + sizeof(key) - 1, NULL, 0);
	free(out);
	return ok;
}

bool oracle_sizes(const oracle_tools_t *tools, const char *elf, uint64_t *text, uint64_t *data,
                  uint64_t *bss)
{
	char *out = oracle_run("'%s' -B '%s'", tools->size, elf);
	if (out == NULL)
		return false;
	/* "   text	   data	    bss	    dec	    hex	filename", then the figures. */
	char *cursor = out;
	char *line = oracle_next_line(&cursor);
	line = line == NULL ? NULL : oracle_next_line(&cursor);
	bool ok =
	    line != NULL && sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64, text, data, bss) == 3;
	free(out);
	return ok;
}

bool oracle_build_id(const oracle_tools_t *tools, const char *elf, char *hex, size_t size)
{
	static const char key[] = "Build ID:";
	char *out = oracle_run("'%s' -n '%s'", tools->readelf, elf);
	if (out == NULL)
		return false;
	hex[0] = '\0';
	char *at = strstr(out, key);
	bool ok = true;
	if (at != NULL) {
		char buf[ORACLE_NAME_BYTES];
		ok = sscanf(at + sizeof(key) - 1, "%127s", buf) == 1 && strlen(buf) < size;
		if (ok)
			memcpy(hex, buf, strlen(buf) + 1);
	}
	free(out);
	return ok;
}

/* Fills item from one line of a tool's output; false when the line is not one. */
typedef bool (*oracle_parse_t)(char *line, void *item);

/* The items parse accepts, line by line, from text (which is freed), as a new
 * array in *out (NULL when there is none; the caller frees it). Returns how
 * many; stops early when memory runs out. */
static size_t oracle_table(char *text, size_t size, oracle_parse_t parse, void **out)
{
	size_t count = 0;
	char *items = NULL;
	char *cursor = text;
	for (char *line = oracle_next_line(&cursor); line != NULL;
	     line = oracle_next_line(&cursor)) {
		char *grown = realloc(items, (count + 1) * size);
		if (grown == NULL)
			break;
		items = grown;
		if (parse(line, items + count * size))
			count++;
	}
	free(text);
	if (count == 0) {
		free(items);
		items = NULL;
	}
	*out = items;
	return count;
}

static bool oracle_symbol_parse(char *line, void *item)
{
	/* "    26: 08000025    68 FUNC    GLOBAL DEFAULT    2 fixture_sum" */
	oracle_symbol_t *s = item;
	unsigned index;
	char value[32], size[32], type[32], bind[32], vis[32], ndx[32];
	char name[ORACLE_NAME_BYTES];
	if (sscanf(line, " %u: %31s %31s %31s %31s %31s %31s %127s", &index, value, size, type,
	           bind, vis, ndx, name) != 8)
		return false;
	memcpy(s->name, name, sizeof(s->name));
	s->value = (uint32_t)strtoul(value, NULL, 16);
	s->size = (uint32_t)strtoul(size, NULL, 0);
	s->is_function = strcmp(type, "FUNC") == 0;
	s->defined = strcmp(ndx, "UND") != 0;
	return true;
}

size_t oracle_symbols(const oracle_tools_t *tools, const char *elf, oracle_symbol_t **out)
{
	*out = NULL;
	char *text = oracle_run("'%s' -sW '%s'", tools->readelf, elf);
	if (text == NULL)
		return 0;
	void *items = NULL;
	size_t count = oracle_table(text, sizeof(**out), oracle_symbol_parse, &items);
	*out = items;
	return count;
}

static bool oracle_nm_parse(char *line, void *item)
{
	/* "08000024 T fixture_sum" */
	oracle_nm_symbol_t *s = item;
	char address[32];
	char type;
	char name[ORACLE_NAME_BYTES];
	if (sscanf(line, "%31s %c %127s", address, &type, name) != 3)
		return false;
	memcpy(s->name, name, sizeof(s->name));
	s->address = (uint32_t)strtoul(address, NULL, 16);
	s->type = type;
	return true;
}

size_t oracle_nm(const oracle_tools_t *tools, const char *elf, oracle_nm_symbol_t **out)
{
	*out = NULL;
	char *text = oracle_run("'%s' --defined-only '%s'", tools->nm, elf);
	if (text == NULL)
		return 0;
	void *items = NULL;
	size_t count = oracle_table(text, sizeof(**out), oracle_nm_parse, &items);
	*out = items;
	return count;
}

size_t oracle_segments(const oracle_tools_t *tools, const char *elf, oracle_segment_t *out,
                       size_t max)
{
	char *text = oracle_run("'%s' -lW '%s'", tools->readelf, elf);
	if (text == NULL)
		return 0;
	size_t count = 0;
	char *cursor = text;
	for (char *line = oracle_next_line(&cursor); line != NULL && count < max;
	     line = oracle_next_line(&cursor)) {
		/* "  LOAD  0x001000 0x08000000 0x08000000 0x000f8 0x000f8 R E 0x1000" */
		oracle_segment_t *s = &out[count];
		int flags_at = 0;
		if (sscanf(line,
		           " LOAD %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %n",
		           &s->offset, &s->vaddr, &s->paddr, &s->filesz, &s->memsz, &flags_at) != 5)
			continue;
		/* The flags are the letters before the alignment, the last field. */
		char *flags = line + flags_at;
		char *align = strrchr(flags, ' ');
		if (align != NULL)
			*align = '\0';
		s->readable = strchr(flags, 'R') != NULL;
		s->writable = strchr(flags, 'W') != NULL;
		s->executable = strchr(flags, 'E') != NULL;
		count++;
	}
	free(text);
	return count;
}

bool oracle_addr2line(const oracle_tools_t *tools, const char *elf, uint32_t address, char *path,
                      size_t path_size, unsigned *line)
{
	char *out = oracle_run("'%s' -e '%s' 0x%" PRIx32, tools->addr2line, elf, address);
	if (out == NULL)
		return false;
	/* "/dir/fixture.c:38" or "/dir/fixture.c:38 (discriminator 1)" */
	char *discriminator = strstr(out, " (discriminator");
	if (discriminator != NULL)
		*discriminator = '\0';
	char *newline = strchr(out, '\n');
	if (newline != NULL)
		*newline = '\0';
	char *colon = strrchr(out, ':');
	bool ok = colon != NULL && strncmp(out, "??", 2) != 0 && (size_t)(colon - out) < path_size;
	if (ok) {
		*colon = '\0';
		memcpy(path, out, strlen(out) + 1);
		*line = (unsigned)strtoul(colon + 1, NULL, 10);
	}
	free(out);
	return ok;
}
