/*
 * A suite file (configs/suites/NAME.yaml): the benches in order, how many
 * iterations, budgets, the regression limit, the boards to run on, and
 * entries that measure unmodified firmware (an ELF with from/to or
 * function) instead of a bench of the suite firmware.
 */
#ifndef BENCHRACK_CONFIG_SUITE_H
#define BENCHRACK_CONFIG_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "yaml/schema.h"
#include "config/regression_limit.h"
#include "config/upload_config.h"

#define BR_SUITE_MAX_ITERATIONS                                                                    \
	1024U                 /* the host's samples per bench (the stub's buffer is                \
	                         asked in chunks: any size fits) */
#define BR_SUITE_NAME_MAX 23U /* the stub's bench name slot, less its NUL */
/* A suite's own name: what a record's name field holds (results/record.h,
 * BR_RECORD_NAME less its NUL); longer is refused, never cut (issue 31). */
#define BR_SUITE_TITLE_MAX 63U

/* Limits a bench must stay within. Unset keys impose nothing. */
typedef struct br_suite_budgets {
	br_cfg_section_t head;
	br_cfg_uint_t max_stack_bytes;
	br_cfg_uint_t max_heap_bytes;
	br_cfg_uint_t max_cycles_per_iteration; /* the median, in the counter's unit */
	br_cfg_uint_t max_text_bytes;           /* suite level: the firmware's text */
} br_suite_budgets_t;

/* A limit on one symbol's or one section's bytes in the suite firmware
 * (`size_budgets:`, held by check): exactly one of symbol and section, at
 * least one of the limits. */
typedef struct br_suite_size_budget {
	br_cfg_section_t head;
	br_cfg_string_t symbol;  /* any of its names (aliases folded) */
	br_cfg_string_t section; /* e.g. .bss; sections of one name are summed */
	br_cfg_uint_t max_flash_bytes;
	br_cfg_uint_t max_ram_bytes;
} br_suite_size_budget_t;

typedef enum br_suite_entry_kind {
	BR_SUITE_ENTRY_STUB,     /* a bench of the suite firmware, run by the stub */
	BR_SUITE_ENTRY_RANGE,    /* unmodified ELF: from a location to another */
	BR_SUITE_ENTRY_FUNCTION, /* unmodified ELF: each call of a function */
} br_suite_entry_kind_t;

typedef struct br_suite_bench {
	br_cfg_section_t head;
	br_cfg_string_t name;
	br_cfg_string_t elf;  /* unmodified firmware, relative to the suite file */
	br_cfg_string_t from; /* symbol, address or file:line */
	br_cfg_string_t to;
	br_cfg_string_t function;
	br_cfg_uint_t iterations;
	br_cfg_uint_t warmup_runs;
	br_suite_budgets_t budgets; /* over the suite's, key by key */
	br_suite_entry_kind_t kind; /* derived */
	char *elf_path;             /* derived: elf resolved against the suite's directory */
} br_suite_bench_t;

/* How to build the suite firmware at any commit (check --against): command,
 * run by /bin/sh at the root of a git worktree of that commit, yields the
 * ELF at firmware (relative to that root). */
typedef struct br_suite_build {
	br_cfg_section_t head;
	br_cfg_string_t command;
	br_cfg_string_t firmware;
	br_cfg_string_t host_program; /* --board host: the host bench program it yields */
} br_suite_build_t;

/* The suite's regression: section, one text per metric name
 * (config/regression_limit.h's names, in that order). */
typedef struct br_suite_regression {
	br_cfg_section_t head;
	br_cfg_string_t by_metric[BR_REGRESSION_METRICS];
} br_suite_regression_t;

typedef struct br_suite_file {
	br_cfg_section_t head;
	br_cfg_string_t name;
	br_cfg_string_t description;
	br_cfg_string_t firmware; /* the suite ELF, relative to the suite file */
	br_cfg_list_t boards;     /* br_cfg_string_t: board names or paths */
	br_cfg_uint_t default_iterations;
	br_cfg_uint_t warmup_runs;
	br_cfg_bool_t stack_watermark;
	br_cfg_number_t fail_on_regression_percent;
	br_suite_regression_t regression; /* per-metric limits over the percentage */
	br_cfg_uint_t timeout_seconds;
	br_suite_budgets_t budgets;
	br_cfg_list_t size_budgets; /* br_suite_size_budget_t */
	br_cfg_list_t benches;      /* br_suite_bench_t */
	br_upload_section_t upload; /* where results are posted (config/upload_config.h) */
	br_suite_build_t build;     /* how to build the firmware at a commit */
} br_suite_file_t;

#define BR_SUITE_DEFAULT_REGRESSION_PERCENT 5.0

typedef struct br_suite {
	br_suite_file_t file;
	char *path;          /* the suite file (owned) */
	char *dir;           /* its directory, for relative paths (owned) */
	char *firmware_path; /* firmware resolved against dir, or NULL when not given (owned) */
	const char *name;
	const br_suite_size_budget_t *size_budgets; /* file.size_budgets.items */
	size_t size_budget_count;
	br_suite_bench_t *benches; /* file.benches.items */
	size_t bench_count;
	uint32_t iterations, warmup;
	bool stack_watermark;
	double regression_percent;
	br_regression_limits_t regression; /* parsed from file.regression */
	unsigned timeout_seconds;
} br_suite_t;

/*
 * Loads and checks a suite file. Besides the schema: bench names unique and
 * at most BR_SUITE_NAME_MAX characters; an entry with elf needs function, or
 * from and to (not both forms); from/to/function need elf; boards unique;
 * max_stack_bytes needs stack_watermark; a size budget names one symbol or
 * one section and sets a limit. Returns BR_OK with *suite filled
 * (free with br_suite_free), or BR_ERR_INPUT "file:line:col: ...".
 */
br_status_t br_suite_load(const char *path, br_suite_t *suite, br_error_t *err);

/* The same from YAML text in memory named name (relative paths resolve against
 * name's directory). */
br_status_t br_suite_parse(const char *name, const unsigned char *data, size_t size,
                           br_suite_t *suite, br_error_t *err);

/* Frees what br_suite_load allocated. */
void br_suite_free(br_suite_t *suite);

/* The name of board i as the suite lists it. */
const char *br_suite_board(const br_suite_t *suite, size_t i);

/* The budgets that apply to bench: the bench's own keys over the suite's. */
br_suite_budgets_t br_suite_bench_budgets(const br_suite_t *suite, const br_suite_bench_t *bench);

#endif
