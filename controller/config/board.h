/*
 * A board file (configs/boards/NAME.yaml): what is in front of the board
 * (the gdbserver and how to reach it), the core, the counter and its clock,
 * and the memory regions that decide the breakpoint kind and the default
 * stack region, and whether benchrack loads the image over the debug port.
 * Loaded and checked here; plain data only (a leaf: the counter and the way
 * to reach the board are built from it by run/board_target.h).
 */
#ifndef BENCHRACK_CONFIG_BOARD_H
#define BENCHRACK_CONFIG_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/counter_kind.h"
#include "common/error.h"
#include "debug/server_kind.h"
#include "yaml/schema.h"

/* A board's name: what a record's name field holds (results/record.h,
 * BR_RECORD_NAME less its NUL); longer is refused, never cut (issue 31). */
#define BR_BOARD_NAME_MAX 63U

/* The most extra arguments a board adds to a launched server's command line. */
#define BR_BOARD_MAX_SERVER_ARGS BR_SERVER_MAX_EXTRA_ARGS

typedef enum br_board_core {
	BR_BOARD_CORE_M0,
	BR_BOARD_CORE_M0PLUS,
	BR_BOARD_CORE_M3,
	BR_BOARD_CORE_M4,
	BR_BOARD_CORE_M7,
	BR_BOARD_CORE_M33,
	BR_BOARD_CORE_M55,
	BR_BOARD_CORE_M85,
} br_board_core_t;

/* In the order of BR_COUNTER_KIND_LIST (common/counter_kind.h). */
#define BR_BOARD_COUNTER_ROW(id, name) BR_BOARD_COUNTER_##id,
typedef enum br_board_counter_kind {
	BR_COUNTER_KIND_LIST(BR_BOARD_COUNTER_ROW)
} br_board_counter_kind_t;
#undef BR_BOARD_COUNTER_ROW

typedef enum br_board_region_kind {
	BR_BOARD_REGION_FLASH, /* hardware breakpoints only */
	BR_BOARD_REGION_RAM,   /* software breakpoints; the stack lives here */
} br_board_region_kind_t;

/* Whether the image is written to the board over the debug port. */
typedef enum br_board_load {
	BR_BOARD_LOAD_ALWAYS,       /* write and verify every time */
	BR_BOARD_LOAD_IF_DIFFERENT, /* compare first; write and verify only when it differs */
	BR_BOARD_LOAD_NEVER,        /* the image is already there: trust it */
	BR_BOARD_LOAD_DEFAULT,      /* not given: never when benchrack launched the server
	                               with the image (QEMU -kernel), else if-different */
} br_board_load_t;

/* The server section: kind picks the keys (debug/server_kind_table.h's row:
 * a launched kind's program, its own keys and args; a reached one's host,
 * port or device, and flavour). */
typedef struct br_board_server {
	br_cfg_section_t head;
	br_cfg_enum_t kind;      /* br_server_kind_id_t */
	br_cfg_string_t program; /* LAUNCH: the program to launch */
	/* LAUNCH: the row's keys, in its order (e.g. qemu's machine) */
	br_cfg_string_t params[BR_SERVER_LAUNCH_PARAMS];
	br_cfg_list_t args;     /* LAUNCH: extra arguments (br_cfg_string_t) */
	br_cfg_string_t host;   /* TCP */
	br_cfg_uint_t port;     /* TCP */
	br_cfg_enum_t flavour;  /* TCP, SERIAL: which gdbserver answers */
	br_cfg_string_t device; /* SERIAL: /dev/ttyACM0 */
} br_board_server_t;

typedef struct br_board_counter {
	br_cfg_section_t head;
	br_cfg_enum_t kind;      /* br_board_counter_kind_t */
	br_cfg_string_t name;    /* mmio: a short name, e.g. tim3 */
	br_cfg_uint_t address;   /* mmio: the count register */
	br_cfg_uint_t width;     /* mmio: bits, 1..32 */
	br_cfg_enum_t direction; /* mmio: up, down */
	br_cfg_string_t unit;    /* what one tick is, when not a cycle */
} br_board_counter_t;

typedef struct br_board_region {
	br_cfg_section_t head;
	br_cfg_string_t name;
	br_cfg_enum_t kind; /* br_board_region_kind_t */
	br_cfg_uint_t origin;
	br_cfg_uint_t length;
} br_board_region_t;

typedef struct br_board_stack {
	br_cfg_section_t head;
	br_cfg_uint_t origin; /* default: the top `length` bytes of the first RAM region */
	br_cfg_uint_t length; /* default BR_BOARD_DEFAULT_STACK_BYTES */
} br_board_stack_t;

typedef struct br_board_file {
	br_cfg_section_t head;
	br_cfg_string_t name;
	br_cfg_string_t description;
	br_cfg_enum_t core; /* br_board_core_t */
	br_board_server_t server;
	br_board_counter_t counter;
	br_cfg_uint_t clock_hz;
	br_cfg_list_t memory; /* br_board_region_t */
	br_board_stack_t stack;
	br_cfg_uint_t hardware_breakpoints;
	br_cfg_enum_t load;  /* br_board_load_t */
	br_cfg_string_t gdb; /* the debugger `benchrack gdb` starts (default gdb-multiarch) */
} br_board_file_t;

#define BR_BOARD_DEFAULT_STACK_BYTES 8192U

/* A board as loaded and checked, with everything that has a default filled in. */
typedef struct br_board {
	br_board_file_t file; /* as written (owned) */
	char *path;           /* the file it came from (owned) */
	const char *name;     /* file.name */
	br_server_kind_id_t server_kind;
	br_board_core_t core;
	br_board_counter_kind_t counter_kind;
	uint64_t clock_hz;    /* 0 when not given */
	br_board_load_t load; /* as written, or BR_BOARD_LOAD_DEFAULT */
	uint32_t stack_origin, stack_length;
	unsigned hardware_breakpoints;
	const char **server_args; /* the server's extra arguments (owned array, file's text) */
	size_t server_arg_count;
} br_board_t;

/*
 * Loads and checks the board file at path. Besides the schema: name must be
 * the file's name without .yaml (baselines are kept per board name); a
 * counter is given (when not, the error names only the kinds this board can
 * have); a dwt or systick counter needs clock_hz; Cortex-M0/M0+ have no
 * DWT; icount needs a QEMU (launched, or a remote one of flavour qemu); a counter's
 * unit, when given, replaces the counter's own; memory needs
 * a flash and a RAM region, none overlapping and none past 4 GiB; the stack
 * must lie in RAM. Returns BR_OK with *board filled (free with
 * br_board_free), or BR_ERR_INPUT "file:line:col: ...".
 */
br_status_t br_board_load(const char *path, br_board_t *board, br_error_t *err);

/* The same, from a YAML text in memory named name (for tests and fuzzing). */
br_status_t br_board_parse(const char *name, const unsigned char *data, size_t size,
                           br_board_t *board, br_error_t *err);

/* Frees what br_board_load allocated. */
void br_board_free(br_board_t *board);

/* The gdbserver flavour (debug/flavour.h name) answering the board: its
 * flavour key, else its server kind's (qemu, openocd, bmp for a serial
 * probe). */
const char *br_board_flavour_name(const br_board_t *board);

/* The row of the board's server kind. */
const br_server_kind_t *br_board_server_kind(const br_board_t *board);

/* What a launched kind's server is started with, as the board says: its
 * program (NULL: the kind's), its keys' values and extra arguments (no
 * image: run/board_target.h adds it). */
void br_board_server_launch(const br_board_t *board, br_server_launch_t *opts);

/*
 * Writes a one-line description of the board's server into buf, e.g.
 * "qemu-system-arm -M netduinoplus2" or "openocd at lab-pi:3333".
 */
void br_board_describe_server(const br_board_t *board, char *buf, size_t cap);

/* "always", "if-different", "never", "default". */
const char *br_board_load_name(br_board_load_t load);

/* The policy called name ("always", "if-different", "never"); false when
 * name is none of them. */
bool br_board_load_parse(const char *name, br_board_load_t *out);

/* The counter's name as records show it: the mmio counter's own, else its kind. */
const char *br_board_counter_name(const br_board_t *board);

/* Region i of the board's memory list (0 <= i < file.memory.count). */
const br_board_region_t *br_board_region(const br_board_t *board, size_t i);

#endif
