#include "measure/location.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elf_lines.h"
#include "elf/elf_symbols.h"

#define LOCATION_THUMB_BIT 1U
#define LOCATION_MAX_LINE 10000000UL
#define LOCATION_ZERO_OFFSET "+0x0)"

static bool all_digits(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
	}
	return true;
}

/* An address: 0x... hex or plain decimal, fitting 32 bits. */
static bool parse_address(const char *text, uint32_t *out)
{
	bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	if (!hex && !all_digits(text))
		return false;
	if (hex && text[2] == '\0')
		return false;
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(text, &end, hex ? 16 : 10);
	if (errno != 0 || *end != '\0' || v > 0xFFFFFFFFULL)
		return false;
	*out = (uint32_t)v & ~LOCATION_THUMB_BIT;
	return true;
}

/* Keeps err's message but makes it a usage error: the user named something
 * the ELF does not have (the ELF itself is fine). */
static br_status_t as_usage(br_error_t *err)
{
	if (err != NULL)
		err->status = BR_ERR_USAGE;
	return BR_ERR_USAGE;
}

/* file:line when text ends in ":digits" after a non-empty file. */
static br_status_t resolve_line(const br_elf_t *elf, const char *text, const char *colon,
                                uint32_t *address, br_error_t *err)
{
	char file[BR_LOCATION_TEXT];
	size_t len = (size_t)(colon - text);
	if (len >= sizeof(file))
		return br_error_set(err, BR_ERR_USAGE, "'%s': file name too long", text);
	memcpy(file, text, len);
	file[len] = '\0';
	unsigned long line = strtoul(colon + 1, NULL, 10);
	if (line == 0 || line > LOCATION_MAX_LINE)
		return br_error_set(err, BR_ERR_USAGE, "'%s': line %s does not exist", text,
		                    colon + 1);
	br_status_t st = br_elf_line_address(elf, file, (unsigned)line, address, err);
	return st != BR_OK ? as_usage(err) : BR_OK;
}

br_status_t br_location_resolve(const br_elf_t *elf, const char *text, br_location_t *out,
                                br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->text, sizeof(out->text), "%s", text);
	const char *colon = strrchr(text, ':');
	br_status_t st = BR_OK;
	if (text[0] == '\0')
		return br_error_set(err, BR_ERR_USAGE,
		                    "an empty location: give a function, an "
		                    "address or file:line");
	if (colon != NULL && colon != text && all_digits(colon + 1)) {
		st = resolve_line(elf, text, colon, &out->address, err);
		if (st != BR_OK)
			return st;
	} else if (parse_address(text, &out->address)) {
		br_elf_function_t fn;
		br_elf_function_iter_t it;
		br_elf_functions_begin(elf, &it);
		bool has_functions = br_elf_functions_next(&it, &fn);
		if (has_functions && !br_elf_symbol_at(elf, out->address, &fn))
			return br_error_set(
			    err, BR_ERR_USAGE,
			    "address %s is in no function of %s: a breakpoint there "
			    "would never hit",
			    text, br_elf_path(elf));
	} else {
		br_elf_symbol_t sym;
		st = br_elf_symbol_find(elf, text, &sym, err);
		if (st != BR_OK) {
			br_error_prefix(err, "'%s' is no function, address or file:line", text);
			return as_usage(err);
		}
		if (!sym.is_function)
			return br_error_set(
			    err, BR_ERR_USAGE,
			    "%s in %s is data, not code: a breakpoint needs a function, "
			    "an address or file:line",
			    text, br_elf_path(elf));
		out->address = sym.address;
	}
	br_elf_symbol_describe(elf, out->address, out->describe, sizeof(out->describe));
	/* A function's entry reads better as "(name)" than "(name+0x0)". */
	char *zero = strstr(out->describe, LOCATION_ZERO_OFFSET);
	if (zero != NULL && strcmp(zero, LOCATION_ZERO_OFFSET) == 0)
		strcpy(zero, ")");
	return BR_OK;
}
