#include "debug/memory_map.h"

#include <stdlib.h>
#include <string.h>

#include "debug/xml_attr.h"

void br_memory_map_clear(br_memory_map_t *map)
{
	memset(map, 0, sizeof(*map));
}

br_status_t br_memory_map_add(br_memory_map_t *map, uint32_t start, uint32_t length,
                              br_region_kind_t kind, uint32_t blocksize, br_error_t *err)
{
	uint64_t end = (uint64_t)start + length;
	if (length == 0U || end > 0x100000000ULL)
		return br_error_set(err, BR_ERR_INPUT,
		                    "memory region 0x%08x+0x%x is empty or past 4 GiB", start,
		                    length);
	for (size_t i = 0; i < map->count; i++) {
		const br_region_t *r = &map->regions[i];
		if (start < (uint64_t)r->start + r->length && r->start < end)
			return br_error_set(err, BR_ERR_INPUT,
			                    "memory region 0x%08x+0x%x overlaps 0x%08x+0x%x", start,
			                    length, r->start, r->length);
	}
	if (map->count == BR_MEMORY_MAP_MAX)
		return br_error_set(err, BR_ERR_INPUT, "more than %u memory regions",
		                    BR_MEMORY_MAP_MAX);
	map->regions[map->count++] =
	    (br_region_t){.start = start, .length = length, .kind = kind, .blocksize = blocksize};
	return BR_OK;
}

const br_region_t *br_memory_map_find(const br_memory_map_t *map, uint32_t address)
{
	for (size_t i = 0; i < map->count; i++) {
		const br_region_t *r = &map->regions[i];
		if (address >= r->start && (uint64_t)address < (uint64_t)r->start + r->length)
			return r;
	}
	return NULL;
}

const char *br_region_kind_name(br_region_kind_t kind)
{
	switch (kind) {
	case BR_REGION_FLASH:
		return "flash";
	case BR_REGION_ROM:
		return "rom";
	case BR_REGION_RAM:
		break;
	}
	return "ram";
}

static bool parse_number(const char *text, uint64_t *out)
{
	char *e = NULL;
	if (text[0] == '\0' || text[0] == '-')
		return false;
	unsigned long long v = strtoull(text, &e, 0);
	if (*e != '\0' || v > 0xFFFFFFFFULL + 1ULL)
		return false;
	*out = v;
	return true;
}

/* Finds the next "<name" tag at or after p; returns NULL when there is none. */
static const char *find_tag(const char *p, const char *end, const char *name)
{
	size_t n = strlen(name);
	for (; p + n + 1 < end; p++) {
		if (p[0] == '<' && memcmp(p + 1, name, n) == 0 &&
		    (p[n + 1] == ' ' || p[n + 1] == '>' || p[n + 1] == '/' || p[n + 1] == '\t' ||
		     p[n + 1] == '\n'))
			return p;
	}
	return NULL;
}

/* The blocksize property inside a flash element [p, end). */
static uint32_t flash_blocksize(const char *p, const char *end)
{
	const char *prop = find_tag(p, end, "property");
	while (prop != NULL) {
		const char *close = memchr(prop, '>', (size_t)(end - prop));
		if (close == NULL)
			return 0;
		char name[32];
		if (br_xml_attr_get(prop, close, "name", name, sizeof(name)) &&
		    strcmp(name, "blocksize") == 0) {
			const char *vend = memchr(close, '<', (size_t)(end - close));
			char value[32];
			size_t vlen = vend != NULL ? (size_t)(vend - close - 1) : 0U;
			uint64_t v = 0;
			if (vend != NULL && vlen < sizeof(value)) {
				memcpy(value, close + 1, vlen);
				value[vlen] = '\0';
				if (parse_number(value, &v) && v <= 0xFFFFFFFFULL)
					return (uint32_t)v;
			}
			return 0;
		}
		prop = find_tag(close, end, "property");
	}
	return 0;
}

br_status_t br_memory_map_parse(const char *xml, size_t len, br_memory_map_t *out, br_error_t *err)
{
	br_memory_map_clear(out);
	const char *end = xml + len;
	const char *p = find_tag(xml, end, "memory");
	while (p != NULL) {
		const char *close = memchr(p, '>', (size_t)(end - p));
		if (close == NULL)
			return br_error_set(err, BR_ERR_PROTOCOL,
			                    "memory map: unterminated <memory>");
		char type[16], start[32], length[32];
		uint64_t s = 0, l = 0;
		if (!br_xml_attr_get(p, close, "type", type, sizeof(type)) ||
		    !br_xml_attr_get(p, close, "start", start, sizeof(start)) ||
		    !br_xml_attr_get(p, close, "length", length, sizeof(length)) ||
		    !parse_number(start, &s) || !parse_number(length, &l) || s > 0xFFFFFFFFULL ||
		    l > 0xFFFFFFFFULL)
			return br_error_set(err, BR_ERR_PROTOCOL,
			                    "memory map: a <memory> element without a valid type, "
			                    "start and length");
		br_region_kind_t kind;
		if (strcmp(type, "ram") == 0)
			kind = BR_REGION_RAM;
		else if (strcmp(type, "flash") == 0)
			kind = BR_REGION_FLASH;
		else if (strcmp(type, "rom") == 0)
			kind = BR_REGION_ROM;
		else
			return br_error_set(err, BR_ERR_PROTOCOL, "memory map: unknown type '%s'",
			                    type);
		const char *next = find_tag(close, end, "memory");
		uint32_t blocksize = 0;
		if (kind == BR_REGION_FLASH && close[-1] != '/')
			blocksize = flash_blocksize(close, next != NULL ? next : end);
		br_status_t st =
		    br_memory_map_add(out, (uint32_t)s, (uint32_t)l, kind, blocksize, err);
		if (st != BR_OK) {
			err->status = BR_ERR_PROTOCOL;
			return br_error_prefix(err, "memory map");
		}
		p = next;
	}
	return BR_OK;
}
