/* The suite image's bench table (suite-O<level>.elf, the default firmware), in
 * the order the host reports them. */
#include "benches.h"
#include "benchrack/suite.h"

const br_suite_entry_t br_suite[] = {
    {"empty", bench_empty},
    {"nop1000", bench_nop1000},
    {"crc32_64", bench_crc32_64},
    {"crc32_256", bench_crc32_256},
    {"malloc_free", bench_malloc_free},
    {"malloc_leak", bench_malloc_leak},
    {"recursion", bench_recursion},
    {"memcpy_1k", bench_memcpy_1k},
};
BR_SUITE_COUNT_DEFINE(br_suite);
