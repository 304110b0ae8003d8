#include "config/rack.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "config/cfg_path.h"
#include "config/board_locate.h"

#define RACK_MAX_RETRIES 10U
#define RACK_MAX_PARALLEL 256U
#define RACK_MAX_TAGS 16U
#define RACK_MAX_SUITES 16U
#define RACK_PATH_BYTES 1024U
#define RACK_MAX_PORT 65535UL

#define E(field) offsetof(br_rack_entry_t, field)

static const br_cfg_field_t entry_fields[] = {
    {.key = "name",
     .type = BR_CFG_STRING,
     .offset = E(name),
     .required = true,
     .form = "the board's name in this rack, e.g. np2-a (letters, digits, _ . -)"},
    {.key = "board",
     .type = BR_CFG_STRING,
     .offset = E(board),
     .required = true,
     .form = "a board file: a name from configs/boards or a path"},
    {.key = "tags",
     .type = BR_CFG_LIST,
     .element = BR_CFG_STRING,
     .offset = E(tags),
     .max_items = RACK_MAX_TAGS,
     .form = "a list of up to 16 tags, e.g. [cortex-m4, qemu]"},
    {.key = "suites",
     .type = BR_CFG_LIST,
     .element = BR_CFG_STRING,
     .offset = E(suites),
     .max_items = RACK_MAX_SUITES,
     .form = "a list of up to 16 suite files, relative to the rack file ([]: the health "
             "check only)"},
    {.key = "serial",
     .type = BR_CFG_STRING,
     .offset = E(serial),
     .form = "the probe's serial number (an openocd board)"},
    {.key = "remote",
     .type = BR_CFG_STRING,
     .offset = E(remote),
     .form = "host:port where the board's gdbserver already runs"},
    {.key = "device",
     .type = BR_CFG_STRING,
     .offset = E(device),
     .form = "a serial probe's device, e.g. /dev/ttyACM0"},
    {.key = "retries",
     .type = BR_CFG_UINT,
     .offset = E(retries),
     .max = RACK_MAX_RETRIES,
     .form = "a whole number from 0 to 10"},
};

static const br_cfg_map_t entry_map = {
    .what = "board",
    .size = sizeof(br_rack_entry_t),
    .fields = entry_fields,
    .field_count = BR_CFG_COUNT(entry_fields),
};

#define F(field) offsetof(br_rack_file_t, field)

static const br_cfg_field_t rack_fields[] = {
    {.key = "name",
     .type = BR_CFG_STRING,
     .offset = F(name),
     .required = true,
     .form = "the rack's name, e.g. lab"},
    {.key = "description",
     .type = BR_CFG_STRING,
     .offset = F(description),
     .form = "one line of text"},
    {.key = "suites",
     .type = BR_CFG_LIST,
     .element = BR_CFG_STRING,
     .offset = F(suites),
     .min_items = 1,
     .max_items = RACK_MAX_SUITES,
     .form = "a list of 1 to 16 suite files, relative to the rack file"},
    {.key = "retries",
     .type = BR_CFG_UINT,
     .offset = F(retries),
     .max = RACK_MAX_RETRIES,
     .form = "a whole number from 0 to 10 (infrastructure errors retried per board)"},
    {.key = "parallel",
     .type = BR_CFG_UINT,
     .offset = F(parallel),
     .min = 1,
     .max = RACK_MAX_PARALLEL,
     .form = "a whole number from 1 to 256 (emulated boards at once)"},
    {.key = "boards",
     .type = BR_CFG_LIST,
     .element = BR_CFG_MAP,
     .map = &entry_map,
     .offset = F(boards),
     .required = true,
     .min_items = 1,
     .max_items = BR_RACK_MAX_BOARDS,
     .form = "a list of 1 to 64 boards: {name, board, tags, suites, ...}"},
};

static const br_cfg_map_t rack_map = {
    .what = "rack",
    .size = sizeof(br_rack_file_t),
    .fields = rack_fields,
    .field_count = BR_CFG_COUNT(rack_fields),
};

/* A board name becomes a folder name: letters, digits, _ . -, not "." or
 * "..", at most BR_RACK_BOARD_NAME_MAX characters. */
static bool name_ok(const char *s)
{
	if (s[0] == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0 ||
	    strlen(s) > BR_RACK_BOARD_NAME_MAX)
		return false;
	for (; *s != '\0'; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
		if (!ok)
			return false;
	}
	return true;
}

/* host:port into e->remote_host and e->remote_port. */
static br_status_t split_remote(const char *file, br_rack_entry_t *e, br_error_t *err)
{
	const char *text = e->remote.value;
	const char *colon = strrchr(text, ':');
	char *end = NULL;
	unsigned long port = colon != NULL ? strtoul(colon + 1, &end, 10) : 0UL;
	if (colon == NULL || colon == text || colon[1] == '\0' || *end != '\0' || port == 0UL ||
	    port > RACK_MAX_PORT)
		return br_cfg_error(err, file, e->remote.mark,
		                    "remote '%s' is not host:port; expected e.g. lab-pi:3333",
		                    text);
	size_t n = (size_t)(colon - text);
	e->remote_host = xmalloc(n + 1U);
	memcpy(e->remote_host, text, n);
	e->remote_host[n] = '\0';
	e->remote_port = (uint16_t)port;
	return BR_OK;
}

static br_status_t check_entry(br_rack_t *rack, const char *configs_dir, size_t i, br_error_t *err)
{
	br_rack_entry_t *e = &rack->entries[i];
	const char *file = rack->path;
	if (!name_ok(e->name.value))
		return br_cfg_error(err, file, e->name.mark,
		                    "board name '%s' cannot name a folder; expected at most %u "
		                    "letters, digits, _ . - (not . or ..)",
		                    e->name.value, BR_RACK_BOARD_NAME_MAX);
	for (size_t j = 0; j < i; j++) {
		if (strcmp(rack->entries[j].name.value, e->name.value) == 0)
			return br_cfg_error(err, file, e->name.mark,
			                    "board '%s' listed twice (first at line %u); expected "
			                    "each name once",
			                    e->name.value, rack->entries[j].name.mark.line);
	}
	char repo[RACK_PATH_BYTES], path[RACK_PATH_BYTES];
	snprintf(repo, sizeof(repo), "%s/boards", configs_dir);
	const char *dirs[] = {repo};
	if (br_board_locate(e->board.value, rack->dir, dirs, 1, path, sizeof(path), NULL) != BR_OK)
		return br_cfg_error(err, file, e->board.mark,
		                    "board file '%s' not found; expected a name from "
		                    "configs/boards or a board file's path",
		                    e->board.value);
	e->board_path = xstrdup(path);
	const br_cfg_list_t *suites = e->suites.set ? &e->suites : &rack->file.suites;
	if (suites->count == 0 && !e->suites.set)
		return br_cfg_error(err, file, e->head.mark,
		                    "board '%s' has no suites; expected suites: [...] here or at "
		                    "the top of the rack file",
		                    e->name.value);
	e->suite_paths = xcalloc(suites->count + 1U, sizeof(char *));
	e->suite_count = suites->count;
	for (size_t k = 0; k < suites->count; k++) {
		const br_cfg_string_t *s = br_cfg_item(suites, sizeof(*s), k);
		e->suite_paths[k] = br_cfg_path_resolve(rack->dir, s->value);
	}
	if (e->remote.set)
		return split_remote(file, e, err);
	return BR_OK;
}

br_status_t br_rack_load(const char *path, const char *configs_dir, br_rack_t *rack,
                         br_error_t *err)
{
	memset(rack, 0, sizeof(*rack));
	br_yaml_doc_t doc;
	br_status_t st = br_yaml_load(path, &doc, err);
	if (st != BR_OK)
		return st;
	st = br_cfg_decode(&doc, &rack_map, &rack->file, err);
	br_yaml_doc_free(&doc);
	if (st != BR_OK)
		return st;
	rack->path = xstrdup(path);
	rack->dir = br_cfg_path_dirname(path);
	rack->name = rack->file.name.value;
	rack->entries = rack->file.boards.items;
	rack->entry_count = rack->file.boards.count;
	rack->retries =
	    rack->file.retries.set ? (unsigned)rack->file.retries.value : BR_RACK_DEFAULT_RETRIES;
	rack->parallel = rack->file.parallel.set ? (unsigned)rack->file.parallel.value : 0U;
	if (!name_ok(rack->name))
		st = br_cfg_error(err, path, rack->file.name.mark,
		                  "rack name '%s' cannot name a file; expected at most %u letters, "
		                  "digits, _ . - (not . or ..)",
		                  rack->name, BR_RACK_BOARD_NAME_MAX);
	for (size_t i = 0; i < rack->entry_count && st == BR_OK; i++)
		st = check_entry(rack, configs_dir, i, err);
	if (st != BR_OK)
		br_rack_free(rack);
	return st;
}

void br_rack_free(br_rack_t *rack)
{
	for (size_t i = 0; i < rack->entry_count; i++) {
		br_rack_entry_t *e = &rack->entries[i];
		free(e->board_path);
		for (size_t k = 0; k < e->suite_count; k++)
			free(e->suite_paths[k]);
		free(e->suite_paths);
		free(e->remote_host);
	}
	br_cfg_free(&rack_map, &rack->file);
	free(rack->path);
	free(rack->dir);
	memset(rack, 0, sizeof(*rack));
}

bool br_rack_entry_has_tag(const br_rack_entry_t *entry, const char *tag)
{
	if (strcmp(entry->name.value, tag) == 0)
		return true;
	for (size_t i = 0; i < entry->tags.count; i++) {
		const br_cfg_string_t *t = br_cfg_item(&entry->tags, sizeof(*t), i);
		if (strcmp(t->value, tag) == 0)
			return true;
	}
	return false;
}
