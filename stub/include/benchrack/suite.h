/*
 * benchrack suite table — the list of benches a firmware image offers.
 *
 * The firmware (benches/) defines br_suite[] and br_suite_count, written out
 * by hand in the order the host lists them; the runner copies the names into
 * the control block in that order, and a request's bench_index indexes it.
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

/* Defined by the firmware. */
extern const br_suite_entry_t br_suite[];
extern const uint32_t br_suite_count;

#define BR_SUITE_LENGTH(table) (sizeof(table) / sizeof((table)[0]))

/* Define br_suite_count from the table, refusing at compile time a suite the
 * control block cannot describe. */
#define BR_SUITE_COUNT_DEFINE(table)                                                               \
	_Static_assert(BR_SUITE_LENGTH(table) <= BR_CB_MAX_BENCHES, "too many benches in suite");  \
	const uint32_t br_suite_count = BR_SUITE_LENGTH(table)

#endif
