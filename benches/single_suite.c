/*
 * A one-bench table for the single-bench images (bench-<name>-O<level>.elf)
 * whose sizes, against the empty bench's image, are the benches' code sizes.
 * Compiled with -DBR_SINGLE_BENCH=<name>, which must name bench_<name>.
 */
#include "benches.h"
#include "benchrack/suite.h"

#ifndef BR_SINGLE_BENCH
#error "compile with -DBR_SINGLE_BENCH=<bench name>"
#endif

const br_suite_entry_t br_suite[] = {
    {BR_STR(BR_SINGLE_BENCH), BR_CAT(bench_, BR_SINGLE_BENCH)},
};
BR_SUITE_COUNT_DEFINE(br_suite);
