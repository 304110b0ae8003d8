/*
 * benchrack suite table — the list of benches a firmware image offers.
 *
 * The firmware (benches/) defines br_suite[], written out by hand in the
 * order the host lists them, and with BR_SUITE_COUNT_DEFINE the constant
 * control block (control_block.h) that points the host at it: a request's
 * bench_index indexes this table, whose names the host reads from flash.
 *
 *	const br_suite_entry_t br_suite[] = {
 *		{"empty", bench_empty},
 *		{"nop1000", bench_nop1000},
 *	};
 *	BR_SUITE_COUNT_DEFINE(br_suite);
 */
#ifndef BENCHRACK_SUITE_H
#define BENCHRACK_SUITE_H

#include <stdint.h>

#include "benchrack/bench.h"

/* One bench: its name (at most BR_CB_NAME_BYTES - 1 characters are reported)
 * and its function. */
typedef struct br_suite_entry {
	const char *name;
	void (*fn)(br_run_t *run);
} br_suite_entry_t;

#define BR_SUITE_LENGTH(table) (sizeof(table) / sizeof((table)[0]))

/* Defined by the firmware. */
extern const br_suite_entry_t br_suite[];

#if defined(BR_HOST)
/* Built for the host (benches/host/): no control block; the host program
 * reads the table and its length itself. */
extern const uint32_t br_suite_count;
#define BR_SUITE_COUNT_DEFINE(table)                                                               \
	const uint32_t br_suite_count = (uint32_t)BR_SUITE_LENGTH(table)
#else
_Static_assert(sizeof(br_suite_entry_t) == BR_CB_BENCH_ENTRY_BYTES, "bench table entry layout");
_Static_assert(__builtin_offsetof(br_suite_entry_t, name) == BR_CB_BENCH_ENTRY_NAME,
               "bench table name offset");

/* Defined by BR_SUITE_COUNT_DEFINE: the contract's constant part, in flash. */
extern const br_control_block_t br_control_block;

/* Defined by the stub (runner.c): the request and result areas, in .bss. */
extern br_control_state_t br_control_state;

/* Defined by the linker script (stub/link.ld.in): the sample buffer and its
 * length in samples (an address-valued symbol: use it only as such). A
 * firmware build chooses the length with -Wl,--defsym=br_ld_sample_count=N. */
extern uint32_t br_ld_samples[];
extern const uint8_t br_ld_sample_count[];

/* Define the constant control block for the table (in flash), refusing at
 * compile time a suite the host cannot describe. Everything in it is known at
 * link time: nothing is copied to RAM at start-up. */
#define BR_SUITE_COUNT_DEFINE(table)                                                               \
	_Static_assert(BR_SUITE_LENGTH(table) <= BR_CB_MAX_BENCHES, "too many benches in suite");  \
	__attribute__((used)) const br_control_block_t br_control_block = {                        \
	    .magic = BR_CB_MAGIC,                                                                  \
	    .version = BR_CB_VERSION,                                                              \
	    .size = (uint32_t)sizeof(br_control_block_t),                                          \
	    .bench_count = (uint32_t)BR_SUITE_LENGTH(table),                                       \
	    .bench_table = (uint32_t)(uintptr_t)(table),                                           \
	    .state_address = (uint32_t)(uintptr_t)&br_control_state,                               \
	    .max_samples = (uint32_t)(uintptr_t)br_ld_sample_count,                                \
	    .samples_address = (uint32_t)(uintptr_t)br_ld_samples,                                 \
	}
#endif /* BR_HOST */

#endif
