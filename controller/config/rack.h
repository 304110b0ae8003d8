/*
 * A rack file (configs/racks/NAME.yaml): the boards of a lab rack by name,
 * each a board file plus what makes this one unique (a probe serial, the
 * host:port where its gdbserver already runs, a serial device), tags to
 * select boards with, and the suites to run on it.
 */
#ifndef BENCHRACK_CONFIG_RACK_H
#define BENCHRACK_CONFIG_RACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "yaml/schema.h"

#define BR_RACK_MAX_BOARDS 64U
#define BR_RACK_BOARD_NAME_MAX 63U /* a record's board name, less its NUL */
#define BR_RACK_DEFAULT_RETRIES 1U

/* One board of the rack. */
typedef struct br_rack_entry {
	br_cfg_section_t head;
	br_cfg_string_t name;  /* unique in the rack: locks and results go by it */
	br_cfg_string_t board; /* a board file: a name in configs/boards, or a path */
	br_cfg_list_t tags;    /* br_cfg_string_t */
	br_cfg_list_t
	    suites; /* br_cfg_string_t: suite files (default: the rack's; []: probe only) */
	br_cfg_string_t serial; /* the probe's serial number (openocd boards) */
	br_cfg_string_t remote; /* host:port where its gdbserver already runs */
	br_cfg_string_t device; /* a serial probe's device (Black Magic Probe) */
	br_cfg_uint_t retries;  /* over the rack's */
	/* derived */
	char *board_path;   /* the board file, located (owned) */
	char **suite_paths; /* suite files resolved against the rack file (owned) */
	size_t suite_count;
	char *remote_host; /* remote split (owned), or NULL */
	uint16_t remote_port;
} br_rack_entry_t;

typedef struct br_rack_file {
	br_cfg_section_t head;
	br_cfg_string_t name;
	br_cfg_string_t description;
	br_cfg_list_t suites;   /* br_cfg_string_t: the default suites of every board */
	br_cfg_uint_t retries;  /* infrastructure errors retried per board and suite */
	br_cfg_uint_t parallel; /* emulated boards at once (default: the CPUs) */
	br_cfg_list_t boards;   /* br_rack_entry_t */
} br_rack_file_t;

typedef struct br_rack {
	br_rack_file_t file;
	char *path; /* owned */
	char *dir;  /* owned: relative paths resolve against it */
	const char *name;
	br_rack_entry_t *entries; /* file.boards.items */
	size_t entry_count;
	unsigned retries;
	unsigned parallel; /* 0: not given */
} br_rack_t;

/*
 * Loads and checks a rack file. Besides the schema: entry names unique and
 * made of [A-Za-z0-9_.-]; every entry has suites (its own or the rack's;
 * its own `suites: []` makes it a health check only);
 * remote is host:port with a port from 1 to 65535; the board files are
 * located (configs_dir/boards by name, or a path relative to the rack file)
 * but not loaded. Returns BR_OK with *rack filled (free with br_rack_free),
 * or BR_ERR_INPUT "file:line:col: ...".
 */
br_status_t br_rack_load(const char *path, const char *configs_dir, br_rack_t *rack,
                         br_error_t *err);

/* Frees what br_rack_load allocated. */
void br_rack_free(br_rack_t *rack);

/* True when entry carries tag (tags are compared exactly), or when its name
 * is tag. */
bool br_rack_entry_has_tag(const br_rack_entry_t *entry, const char *tag);

#endif
