#include "config/board.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/counter_period.h"
#include "common/xalloc.h"
#include "debug/flavour.h"

#define BOARD_FULL_BITS 32U
#define BOARD_ADDRESS_SPACE 0x100000000ULL
#define BOARD_PORT_MAX 65535U

static const char *const cores[] = {"cortex-m0",  "cortex-m0plus", "cortex-m3",
                                    "cortex-m4",  "cortex-m7",     "cortex-m33",
                                    "cortex-m55", "cortex-m85",    NULL};
static const char *const directions[] = {"up", "down", NULL};
static const char *const region_kinds[] = {"flash", "ram", NULL};
static const char *const load_names[] = {"always", "if-different", "never", NULL};

/* FPB instruction comparators per core (ARMv6-M: 4; Cortex-M3/M4: 6; M7, M33,
 * M55, M85: 8). */
static const unsigned core_breakpoints[] = {4U, 4U, 6U, 6U, 8U, 8U, 8U, 8U};

#define S(field) offsetof(br_board_server_t, field)

static const br_cfg_field_t server_common[] = {
    {.key = "kind",
     .type = BR_CFG_ENUM,
     .offset = S(kind),
     .required = true,
     .names = br_server_kind_names},
};

/* A reached (TCP, SERIAL) kind's keys; flavour's required and note come from
 * its row. */
static const br_cfg_field_t server_host = {
    .key = "host",
    .type = BR_CFG_STRING,
    .offset = S(host),
    .required = true,
    .form = "the host name or address of the machine running the gdbserver"};
static const br_cfg_field_t server_port = {.key = "port",
                                           .type = BR_CFG_UINT,
                                           .offset = S(port),
                                           .required = true,
                                           .min = 1,
                                           .max = BOARD_PORT_MAX,
                                           .form = "a TCP port from 1 to 65535, e.g. 3333"};
static const br_cfg_field_t server_device = {.key = "device",
                                             .type = BR_CFG_STRING,
                                             .offset = S(device),
                                             .required = true,
                                             .form = "a serial device, e.g. /dev/ttyACM0"};

/* program, the row's keys, args; or host, port, flavour; or device, flavour. */
#define SERVER_KIND_MAX_FIELDS (BR_SERVER_LAUNCH_PARAMS + 2U)
#define SERVER_FORM_BYTES 96U

/* Each kind's keys, made once from its row (debug/server_kind_table.h). */
static struct {
	br_cfg_field_t fields[BR_SERVER_KIND_MAX][SERVER_KIND_MAX_FIELDS];
	char program_form[BR_SERVER_KIND_MAX][SERVER_FORM_BYTES];
	char args_form[BR_SERVER_KIND_MAX][SERVER_FORM_BYTES];
	char flavour_note[BR_SERVER_KIND_MAX][SERVER_FORM_BYTES];
	br_cfg_variant_t variants[BR_SERVER_KIND_MAX];
} server_schema;
static pthread_once_t server_schema_once = PTHREAD_ONCE_INIT;

static br_cfg_map_t server_map = {
    .what = "server",
    .size = sizeof(br_board_server_t),
    .fields = server_common,
    .field_count = BR_CFG_COUNT(server_common),
    .selector = "kind",
    .variants = server_schema.variants,
};

/* A launched kind's keys: program, the row's, args. */
static size_t launched_fields(const br_server_kind_t *k, size_t i, br_cfg_field_t *f)
{
	size_t n = 0;
	snprintf(server_schema.program_form[i], SERVER_FORM_BYTES, "the %s program, e.g. %s",
	         k->title, k->program);
	f[n++] = (br_cfg_field_t){.key = "program",
	                          .type = BR_CFG_STRING,
	                          .offset = S(program),
	                          .form = server_schema.program_form[i]};
	for (size_t j = 0; j < BR_SERVER_LAUNCH_PARAMS && k->keys[j].name != NULL; j++)
		f[n++] = (br_cfg_field_t){.key = k->keys[j].name,
		                          .type = BR_CFG_STRING,
		                          .offset = S(params) + j * sizeof(br_cfg_string_t),
		                          .required = k->keys[j].required,
		                          .form = k->keys[j].form};
	snprintf(server_schema.args_form[i], SERVER_FORM_BYTES,
	         "a list of at most %u extra %s arguments%s", BR_BOARD_MAX_SERVER_ARGS, k->title,
	         k->args_example != NULL ? k->args_example : "");
	f[n++] = (br_cfg_field_t){.key = "args",
	                          .type = BR_CFG_LIST,
	                          .element = BR_CFG_STRING,
	                          .offset = S(args),
	                          .max_items = BR_BOARD_MAX_SERVER_ARGS,
	                          .form = server_schema.args_form[i]};
	return n;
}

/* A reached kind's flavour key: required when its row names no flavour. */
static br_cfg_field_t flavour_field(const br_server_kind_t *k, size_t i)
{
	if (k->flavour != NULL)
		snprintf(server_schema.flavour_note[i], SERVER_FORM_BYTES, "(default %s)",
		         k->flavour);
	return (br_cfg_field_t){.key = "flavour",
	                        .type = BR_CFG_ENUM,
	                        .offset = S(flavour),
	                        .required = k->flavour == NULL,
	                        .names = br_flavour_name_list,
	                        .note = k->flavour != NULL ? server_schema.flavour_note[i] : NULL};
}

static void server_schema_make(void)
{
	size_t count = br_server_kind_count();
	for (size_t i = 0; i < count; i++) {
		const br_server_kind_t *k = br_server_kind_get((br_server_kind_id_t)i);
		br_cfg_field_t *f = server_schema.fields[i];
		size_t n = 0;
		switch (k->reach) {
		case BR_SERVER_REACH_LAUNCH:
			n = launched_fields(k, i, f);
			break;
		case BR_SERVER_REACH_TCP:
			f[n++] = server_host;
			f[n++] = server_port;
			f[n++] = flavour_field(k, i);
			break;
		case BR_SERVER_REACH_SERIAL:
			f[n++] = server_device;
			f[n++] = flavour_field(k, i);
			break;
		}
		server_schema.variants[i] = (br_cfg_variant_t){NULL, f, n};
	}
	server_map.variant_count = count;
}

#define C(field) offsetof(br_board_counter_t, field)

static const br_cfg_field_t counter_common[] = {
    {.key = "kind",
     .type = BR_CFG_ENUM,
     .offset = C(kind),
     .required = true,
     .names = br_counter_kind_names},
};

static const br_cfg_field_t counter_mmio[] = {
    {.key = "name",
     .type = BR_CFG_STRING,
     .offset = C(name),
     .required = true,
     .form = "a short name for the counter, e.g. tim3"},
    {.key = "address",
     .type = BR_CFG_UINT,
     .offset = C(address),
     .required = true,
     .max = UINT32_MAX,
     .form = "the count register's address, e.g. 0x40000024"},
    {.key = "width",
     .type = BR_CFG_UINT,
     .offset = C(width),
     .min = 1,
     .max = BOARD_FULL_BITS,
     .form = "the counter's width in bits, 1 to 32 (default 32)"},
    {.key = "direction",
     .type = BR_CFG_ENUM,
     .offset = C(direction),
     .names = directions,
     .form = "up or down (default up)"},
    {.key = "unit",
     .type = BR_CFG_STRING,
     .offset = C(unit),
     .form = "what one tick is, e.g. \"instructions (QEMU icount)\" (default ticks)"},
};

/* Indexed by kind: only mmio has keys of its own. */
static const br_cfg_variant_t counter_variants[] = {
    [BR_BOARD_COUNTER_MMIO] = {NULL, counter_mmio, BR_CFG_COUNT(counter_mmio)},
    [BR_BOARD_COUNTER_ICOUNT] = {NULL, NULL, 0},
};

_Static_assert(BR_CFG_COUNT(counter_variants) == BR_COUNTER_KIND_COUNT,
               "a variant for each counter kind");

static const br_cfg_map_t counter_map = {
    .what = "counter",
    .size = sizeof(br_board_counter_t),
    .fields = counter_common,
    .field_count = BR_CFG_COUNT(counter_common),
    .selector = "kind",
    .variants = counter_variants,
    .variant_count = BR_CFG_COUNT(counter_variants),
};

#define R(field) offsetof(br_board_region_t, field)

static const br_cfg_field_t region_fields[] = {
    {.key = "name",
     .type = BR_CFG_STRING,
     .offset = R(name),
     .required = true,
     .form = "a name for the region, e.g. flash"},
    {.key = "kind",
     .type = BR_CFG_ENUM,
     .offset = R(kind),
     .required = true,
     .names = region_kinds,
     .form = "flash or ram"},
    {.key = "origin",
     .type = BR_CFG_UINT,
     .offset = R(origin),
     .required = true,
     .max = UINT32_MAX,
     .form = "the region's first address, e.g. 0x08000000"},
    {.key = "length",
     .type = BR_CFG_UINT,
     .offset = R(length),
     .required = true,
     .min = 1,
     .max = UINT32_MAX,
     .size_suffix = true,
     .form = "the region's size in bytes, e.g. 1M or 0x20000"},
};

static const br_cfg_map_t region_map = {
    .what = "memory region",
    .size = sizeof(br_board_region_t),
    .fields = region_fields,
    .field_count = BR_CFG_COUNT(region_fields),
};

#define K(field) offsetof(br_board_stack_t, field)

static const br_cfg_field_t stack_fields[] = {
    {.key = "origin",
     .type = BR_CFG_UINT,
     .offset = K(origin),
     .max = UINT32_MAX,
     .form = "the lowest address of the stack region (default: top of the first RAM region)"},
    {.key = "length",
     .type = BR_CFG_UINT,
     .offset = K(length),
     .min = 4,
     .max = UINT32_MAX,
     .size_suffix = true,
     .form = "the stack region's size in bytes, e.g. 8K (default 8K)"},
};

static const br_cfg_map_t stack_map = {
    .what = "stack",
    .size = sizeof(br_board_stack_t),
    .fields = stack_fields,
    .field_count = BR_CFG_COUNT(stack_fields),
};

#define B(field) offsetof(br_board_file_t, field)

static const br_cfg_field_t board_fields[] = {
    {.key = "name",
     .type = BR_CFG_STRING,
     .offset = B(name),
     .required = true,
     .form = "the board's name, the same as the file's name without .yaml"},
    {.key = "description",
     .type = BR_CFG_STRING,
     .offset = B(description),
     .form = "one line of text"},
    {.key = "core",
     .type = BR_CFG_ENUM,
     .offset = B(core),
     .required = true,
     .names = cores,
     .form = "one of cortex-m0, cortex-m0plus, cortex-m3, cortex-m4, cortex-m7, cortex-m33, "
             "cortex-m55, cortex-m85"},
    {.key = "server",
     .type = BR_CFG_MAP,
     .offset = B(server),
     .required = true,
     .map = &server_map},
    /* Not required by the schema: check_counter names the kinds this board can have. */
    {.key = "counter", .type = BR_CFG_MAP, .offset = B(counter), .map = &counter_map},
    {.key = "clock_hz",
     .type = BR_CFG_UINT,
     .offset = B(clock_hz),
     .min = 1,
     .max = UINT32_MAX,
     .form = "the counter's clock in Hz, e.g. 180000000"},
    {.key = "memory",
     .type = BR_CFG_LIST,
     .element = BR_CFG_MAP,
     .map = &region_map,
     .offset = B(memory),
     .required = true,
     .min_items = 2,
     .form = "a list of regions, each {name, kind: flash|ram, origin, length}"},
    {.key = "stack",
     .type = BR_CFG_MAP,
     .offset = B(stack),
     .map = &stack_map,
     .form = "a mapping with origin and length"},
    {.key = "hardware_breakpoints",
     .type = BR_CFG_UINT,
     .offset = B(hardware_breakpoints),
     .min = 1,
     .max = 64,
     .form = "the number of FPB comparators, e.g. 6"},
    {.key = "load",
     .type = BR_CFG_ENUM,
     .offset = B(load),
     .names = load_names,
     .form = "always, if-different or never: whether benchrack writes the image over the "
             "debug port (default: if-different, never for a QEMU it launches with the image)"},
    {.key = "gdb",
     .type = BR_CFG_STRING,
     .offset = B(gdb),
     .form = "the debugger `benchrack gdb` starts, e.g. arm-none-eabi-gdb (default "
             "gdb-multiarch)"},
};

static const br_cfg_map_t board_map = {
    .what = "board",
    .size = sizeof(br_board_file_t),
    .fields = board_fields,
    .field_count = BR_CFG_COUNT(board_fields),
};

/* The file name of path without directories and without ".yaml"/".yml". */
static void file_stem(const char *path, char *out, size_t cap)
{
	const char *base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	snprintf(out, cap, "%s", base);
	size_t n = strlen(out);
	if (n > 5 && strcmp(out + n - 5, ".yaml") == 0)
		out[n - 5] = '\0';
	else if (n > 4 && strcmp(out + n - 4, ".yml") == 0)
		out[n - 4] = '\0';
}

static const br_board_region_t *region(const br_board_file_t *f, size_t i)
{
	return br_cfg_item(&f->memory, sizeof(br_board_region_t), i);
}

static br_status_t check_memory(const char *file, const br_board_file_t *f, br_error_t *err)
{
	bool have[2] = {false, false};
	for (size_t i = 0; i < f->memory.count; i++) {
		const br_board_region_t *r = region(f, i);
		uint64_t end = r->origin.value + r->length.value;
		if (end > BOARD_ADDRESS_SPACE)
			return br_cfg_error(err, file, r->length.mark,
			                    "memory region %s ends past 4 GiB (0x%llx); expected "
			                    "origin + length <= 0x100000000",
			                    r->name.value, (unsigned long long)end);
		have[r->kind.value] = true;
		for (size_t j = 0; j < i; j++) {
			const br_board_region_t *o = region(f, j);
			uint64_t oend = o->origin.value + o->length.value;
			if (r->origin.value < oend && o->origin.value < end)
				return br_cfg_error(err, file, r->head.mark,
				                    "memory region %s overlaps %s; expected "
				                    "separate address ranges",
				                    r->name.value, o->name.value);
		}
	}
	if (!have[BR_BOARD_REGION_FLASH] || !have[BR_BOARD_REGION_RAM])
		return br_cfg_error(err, file, f->memory.mark,
		                    "memory lacks a %s region; expected at least one flash and "
		                    "one ram region",
		                    have[BR_BOARD_REGION_FLASH] ? "ram" : "flash");
	return BR_OK;
}

/* The default stack: the top of the first RAM region; then it must lie in RAM. */
static br_status_t place_stack(const char *file, br_board_t *b, br_error_t *err)
{
	const br_board_file_t *f = &b->file;
	const br_board_region_t *ram = NULL;
	for (size_t i = 0; i < f->memory.count && ram == NULL; i++) {
		if (region(f, i)->kind.value == BR_BOARD_REGION_RAM)
			ram = region(f, i);
	}
	uint64_t length =
	    f->stack.length.set ? f->stack.length.value : BR_BOARD_DEFAULT_STACK_BYTES;
	uint64_t origin = f->stack.origin.set ? f->stack.origin.value
	                                      : ram->origin.value + ram->length.value - length;
	if (!f->stack.origin.set && length > ram->length.value)
		return br_cfg_error(err, file,
		                    f->stack.length.set ? f->stack.length.mark : f->head.mark,
		                    "stack length %llu is larger than RAM region %s; expected at "
		                    "most %llu",
		                    (unsigned long long)length, ram->name.value,
		                    (unsigned long long)ram->length.value);
	for (size_t i = 0; i < f->memory.count; i++) {
		const br_board_region_t *r = region(f, i);
		uint64_t end = r->origin.value + r->length.value;
		if (r->kind.value == BR_BOARD_REGION_RAM && origin >= r->origin.value &&
		    origin + length <= end) {
			b->stack_origin = (uint32_t)origin;
			b->stack_length = (uint32_t)length;
			return BR_OK;
		}
	}
	br_yaml_mark_t m = f->stack.head.set ? f->stack.head.mark : f->head.mark;
	return br_cfg_error(err, file, m,
	                    "the stack region 0x%llx..0x%llx is not inside a ram region; "
	                    "expected stack: {origin, length} within RAM",
	                    (unsigned long long)origin, (unsigned long long)(origin + length));
}

/* True when the board's gdbserver is QEMU: launched, or a remote one. */
static bool board_is_qemu(const br_board_t *b)
{
	return br_board_server_kind(b)->emulated ||
	       strcmp(br_board_flavour_name(b), BR_FLAVOUR_QEMU_NAME) == 0;
}

/* The counter kinds this board can have, for the hint of a missing one. */
static void counter_choices(const br_board_t *b, char *out, size_t cap)
{
	bool armv6m = b->core == BR_BOARD_CORE_M0 || b->core == BR_BOARD_CORE_M0PLUS;
	const char *const *k = br_counter_kind_names;
	if (board_is_qemu(b))
		snprintf(out, cap,
		         "{kind: %s} (QEMU's own instruction count: exact, 64 bits, on every "
		         "single-core machine; %s on an STM32 machine counts instructions too)",
		         k[BR_COUNTER_KIND_ICOUNT], k[BR_COUNTER_KIND_TIM2]);
	else if (armv6m)
		snprintf(out, cap,
		         "{kind: %s} with clock_hz, or {kind: %s, ...} for a timer of "
		         "the chip (a %s has no DWT)",
		         k[BR_COUNTER_KIND_SYSTICK], k[BR_COUNTER_KIND_MMIO], cores[b->core]);
	else
		snprintf(out, cap,
		         "{kind: %s} or {kind: %s} with clock_hz, or {kind: %s, ...} "
		         "for a timer of the chip (%s on an STM32)",
		         k[BR_COUNTER_KIND_DWT], k[BR_COUNTER_KIND_SYSTICK],
		         k[BR_COUNTER_KIND_MMIO], k[BR_COUNTER_KIND_TIM2]);
}

/* The checks a board's counter can fail (run/board_target.h builds it). */
static br_status_t check_counter(const char *file, br_board_t *b, br_error_t *err)
{
	const br_board_file_t *f = &b->file;
	const br_board_counter_t *c = &f->counter;
	char choices[256];
	if (!c->head.set) {
		counter_choices(b, choices, sizeof(choices));
		return br_cfg_error(err, file, f->head.mark,
		                    "board lacks required key 'counter'; expected counter: %s",
		                    choices);
	}
	br_board_counter_kind_t kind = (br_board_counter_kind_t)c->kind.value;
	if (kind == BR_BOARD_COUNTER_ICOUNT && !board_is_qemu(b))
		return br_cfg_error(
		    err, file, c->kind.mark,
		    "counter icount is QEMU's own instruction count and this board's "
		    "server is %s, not QEMU; expected counter: %s",
		    br_board_flavour_name(b),
		    (counter_choices(b, choices, sizeof(choices)), choices));
	bool needs_clock = kind == BR_BOARD_COUNTER_DWT || kind == BR_BOARD_COUNTER_SYSTICK;
	if (kind == BR_BOARD_COUNTER_DWT &&
	    (b->core == BR_BOARD_CORE_M0 || b->core == BR_BOARD_CORE_M0PLUS))
		return br_cfg_error(err, file, c->kind.mark,
		                    "%s has no DWT cycle counter; expected counter kind %s, "
		                    "%s or %s",
		                    cores[b->core], br_counter_kind_names[BR_COUNTER_KIND_SYSTICK],
		                    br_counter_kind_names[BR_COUNTER_KIND_TIM2],
		                    br_counter_kind_names[BR_COUNTER_KIND_MMIO]);
	if (needs_clock && !f->clock_hz.set)
		return br_cfg_error(
		    err, file, f->head.mark,
		    "board lacks required key 'clock_hz' for a %s counter; expected "
		    "clock_hz: the core clock in Hz, e.g. 180000000",
		    br_counter_kind_names[kind]);
	b->counter_kind = kind;
	b->clock_hz = f->clock_hz.set ? f->clock_hz.value : 0U;
	/* Narrow counters: the command line's rule (common/counter_period.h). */
	br_error_t why;
	if (kind == BR_BOARD_COUNTER_MMIO && c->width.set &&
	    br_counter_period_check(c->name.value, (unsigned)c->width.value, b->clock_hz,
	                            "clock_hz", BR_ERR_INPUT, &why) != BR_OK)
		return br_cfg_error(err, file, c->width.mark, "%s", why.message);
	return BR_OK;
}

static br_status_t check_board(br_board_t *b, br_error_t *err)
{
	const br_board_file_t *f = &b->file;
	const char *file = b->path;
	char stem[256];
	file_stem(file, stem, sizeof(stem));
	if (strcmp(stem, f->name.value) != 0)
		return br_cfg_error(
		    err, file, f->name.mark,
		    "name '%s' differs from the file's name '%s'; expected name: %s", f->name.value,
		    stem, stem);
	if (strlen(f->name.value) > BR_BOARD_NAME_MAX)
		return br_cfg_error(err, file, f->name.mark,
		                    "board name '%s' is %zu bytes long; expected at most %u (a "
		                    "record keeps no more, and a name is never cut)",
		                    f->name.value, strlen(f->name.value), BR_BOARD_NAME_MAX);
	b->name = f->name.value;
	b->server_kind = (br_server_kind_id_t)f->server.kind.value;
	b->core = (br_board_core_t)f->core.value;
	b->hardware_breakpoints = f->hardware_breakpoints.set
	                              ? (unsigned)f->hardware_breakpoints.value
	                              : core_breakpoints[b->core];
	b->server_arg_count = f->server.args.count;
	b->server_args = xcalloc(b->server_arg_count + 1U, sizeof(b->server_args[0]));
	for (size_t i = 0; i < b->server_arg_count; i++)
		b->server_args[i] = ((const br_cfg_string_t *)br_cfg_item(
		                         &f->server.args, sizeof(br_cfg_string_t), i))
		                        ->value;
	b->load = f->load.set ? (br_board_load_t)f->load.value : BR_BOARD_LOAD_DEFAULT;
	br_status_t st = check_counter(file, b, err);
	if (st == BR_OK)
		st = check_memory(file, f, err);
	if (st == BR_OK)
		st = place_stack(file, b, err);
	return st;
}

static br_status_t board_from_doc(const br_yaml_doc_t *doc, br_board_t *board, br_error_t *err)
{
	memset(board, 0, sizeof(*board));
	pthread_once(&server_schema_once, server_schema_make);
	br_status_t st = br_cfg_decode(doc, &board_map, &board->file, err);
	if (st != BR_OK)
		return st;
	board->path = xstrdup(doc->name);
	st = check_board(board, err);
	if (st != BR_OK)
		br_board_free(board);
	return st;
}

br_status_t br_board_load(const char *path, br_board_t *board, br_error_t *err)
{
	memset(board, 0, sizeof(*board));
	br_yaml_doc_t doc;
	br_status_t st = br_yaml_load(path, &doc, err);
	if (st != BR_OK)
		return st;
	st = board_from_doc(&doc, board, err);
	br_yaml_doc_free(&doc);
	return st;
}

br_status_t br_board_parse(const char *name, const unsigned char *data, size_t size,
                           br_board_t *board, br_error_t *err)
{
	memset(board, 0, sizeof(*board));
	br_yaml_doc_t doc;
	br_status_t st = br_yaml_parse(name, data, size, &doc, err);
	if (st != BR_OK)
		return st;
	st = board_from_doc(&doc, board, err);
	br_yaml_doc_free(&doc);
	return st;
}

void br_board_free(br_board_t *board)
{
	free(board->server_args);
	br_cfg_free(&board_map, &board->file);
	free(board->path);
	memset(board, 0, sizeof(*board));
}

const char *br_board_load_name(br_board_load_t load)
{
	return load == BR_BOARD_LOAD_DEFAULT ? "default" : load_names[load];
}

bool br_board_load_parse(const char *name, br_board_load_t *out)
{
	for (size_t i = 0; load_names[i] != NULL; i++) {
		if (strcmp(name, load_names[i]) == 0) {
			*out = (br_board_load_t)i;
			return true;
		}
	}
	return false;
}

const char *br_board_counter_name(const br_board_t *board)
{
	const br_board_counter_t *c = &board->file.counter;
	if (board->counter_kind == BR_BOARD_COUNTER_MMIO)
		return c->name.value;
	return br_counter_kind_names[board->counter_kind];
}

const br_board_region_t *br_board_region(const br_board_t *board, size_t i)
{
	return region(&board->file, i);
}

const br_server_kind_t *br_board_server_kind(const br_board_t *board)
{
	return br_server_kind_get(board->server_kind);
}

const char *br_board_flavour_name(const br_board_t *board)
{
	const br_board_server_t *s = &board->file.server;
	if (s->flavour.set)
		return br_flavour_name_list[s->flavour.value];
	const char *own = br_board_server_kind(board)->flavour;
	return own != NULL ? own : BR_FLAVOUR_GENERIC_NAME;
}

void br_board_server_launch(const br_board_t *board, br_server_launch_t *opts)
{
	const br_board_server_t *s = &board->file.server;
	memset(opts, 0, sizeof(*opts));
	opts->program = s->program.value;
	for (size_t i = 0; i < BR_SERVER_LAUNCH_PARAMS; i++)
		opts->params[i] = s->params[i].value;
	opts->extra_args = board->server_args;
	opts->extra_arg_count = board->server_arg_count;
}

void br_board_describe_server(const br_board_t *board, char *buf, size_t cap)
{
	const br_board_server_t *s = &board->file.server;
	const br_server_kind_t *kind = br_board_server_kind(board);
	br_server_launch_t opts;
	switch (kind->reach) {
	case BR_SERVER_REACH_LAUNCH:
		br_board_server_launch(board, &opts);
		br_server_kind_describe(kind, &opts, buf, cap);
		return;
	case BR_SERVER_REACH_TCP:
		snprintf(buf, cap, "%s at %s:%llu", br_board_flavour_name(board), s->host.value,
		         (unsigned long long)s->port.value);
		return;
	case BR_SERVER_REACH_SERIAL:
		snprintf(buf, cap, "%s on %s", br_board_flavour_name(board), s->device.value);
		return;
	}
	snprintf(buf, cap, "unknown server");
}
