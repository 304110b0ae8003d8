/*
 * The plan of one board's share of `run`, `check` or a rack worker, resolved
 * once before anything is measured: what the board is measured with (its
 * counter, how its image is loaded, which server reaches it) and each entry
 * of the suite with every setting it runs under (iterations, warm-up,
 * timeout, stack watermark, budgets, the regression limit), each with where
 * it came from: the command line, the suite entry, the suite, the board or
 * the default. The execution (run/board_execute.c, board_host.c,
 * board_ab.c) reads these settings from the plan and from nowhere else, and
 * the record (run/board_record.c) writes what the plan says. Pure: reads
 * no file and talks to no target.
 */
#ifndef BENCHRACK_RUN_RUN_PLAN_H
#define BENCHRACK_RUN_RUN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/board.h"
#include "config/suite.h"
#include "measure/counter.h"
#include "results/record.h"
#include "run/run_settings.h"

/* Where a setting came from, declared once, here, as X(ID, name), from the
 * weakest to the strongest: a stronger source overrides a weaker one. */
#define BR_RUN_SOURCE_LIST(X)                                                                      \
	X(DEFAULT, "default")                                                                      \
	X(BOARD, "board file")                                                                     \
	X(SUITE, "suite")                                                                          \
	X(ENTRY, "suite entry")                                                                    \
	X(CLI, "command line")                                                                     \
	X(SPREAD, "--min-detectable (the baseline's spread)")

#define BR_RUN_SOURCE_ENUM_ROW(id, name) BR_RUN_FROM_##id,
typedef enum br_run_source { BR_RUN_SOURCE_LIST(BR_RUN_SOURCE_ENUM_ROW) } br_run_source_t;
#undef BR_RUN_SOURCE_ENUM_ROW

/* The source's name in BR_RUN_SOURCE_LIST. */
const char *br_run_source_name(br_run_source_t source);

/* A whole-number setting and where it came from. */
typedef struct br_plan_uint {
	uint32_t value;
	br_run_source_t source;
} br_plan_uint_t;

/* One entry of the suite as it will run on this board. */
typedef struct br_plan_entry {
	const br_suite_bench_t *bench; /* the suite's entry (owned by the suite) */
	const char *name;
	br_suite_entry_kind_t kind;
	/* For a stub bench on the host the suite's values (the host program
	 * runs every bench with one count): an entry's own keys do not apply. */
	br_plan_uint_t iterations, warmup;
	br_plan_uint_t timeout_ms;
	/* The entry's budgets over the suite's, key by key: a stub bench's
	 * without max_text_bytes (a firmware's figure, run level); none for a
	 * stub bench on the host (its figures are not the boards' units). */
	br_budgets_t budgets;
} br_plan_entry_t;

typedef struct br_run_plan {
	const br_suite_t *suite; /* NULL: every bench of one firmware */
	const br_board_t *board; /* the caller's; outlives the plan */
	bool host;               /* --board host: the benches as a host program */
	/* What runs every bench of a firmware without a suite, and every bench
	 * of the host program: the command line's, else the suite's, else the
	 * default. */
	br_plan_uint_t iterations, warmup, timeout_ms;
	/* The counter (on the host, its monotonic clock: source default); text
	 * points into the board. */
	br_counter_t counter;
	br_run_source_t counter_source;
	br_board_load_t load; /* how the image is loaded: the board's load: */
	br_run_source_t load_source;
	br_run_source_t endpoint_source; /* CLI: --remote or a rack's remote:; BOARD: its server */
	bool stack_watermark;
	br_run_source_t stack_watermark_source;
	double regression_percent;
	br_run_source_t regression_source;
	br_budgets_t budgets;     /* the suite's own (none without a suite or on the host) */
	br_plan_entry_t *entries; /* the suite's entries in its order (owned) */
	size_t entry_count;
	size_t stub_count; /* entries of kind BR_SUITE_ENTRY_STUB */
} br_run_plan_t;

#define BR_RUN_HOST_COUNTER "clock_monotonic_raw"
#define BR_RUN_HOST_UNIT "ns (CLOCK_MONOTONIC_RAW)"
#define BR_RUN_NS_PER_S 1000000000ULL

/*
 * Resolves the plan of suite (NULL: every bench of one firmware) on board
 * (ignored when host) under settings s, every setting once: the command
 * line over the suite entry over the suite over the default. Fills *plan
 * (free with br_run_plan_free); never fails.
 */
void br_run_plan_resolve(const br_run_settings_t *s, const br_suite_t *suite,
                         const br_board_t *board, bool host, br_run_plan_t *plan);

/* --min-detectable: every bench's iterations set to iterations, sized from
 * the baseline's spread (over the command line's -n too). */
void br_run_plan_size(br_run_plan_t *plan, uint32_t iterations);

/* The entry called name, or NULL. */
const br_plan_entry_t *br_run_plan_entry(const br_run_plan_t *plan, const char *name);

/* Whether the plan measures stub benches: the suite's, or, without a
 * suite, every bench of the firmware. */
bool br_run_plan_has_stub(const br_run_plan_t *plan);

/* Frees what br_run_plan_resolve allocated. */
void br_run_plan_free(br_run_plan_t *plan);

#endif
