/* The gate-test firmware's bench table (tests/e2e/test_gate.py). */
#include "benches.h"
#include "benchrack/suite.h"
#include "gate_benches.h"

const br_suite_entry_t br_suite[] = {
	{"empty", bench_empty},
	{"nop1000", bench_nop1000},
	{"work", bench_work},
	{"stall", bench_stall},
	{"stack_probe", bench_stack_probe},
};
BR_SUITE_COUNT_DEFINE(br_suite);
