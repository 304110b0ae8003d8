/* What the benchmarks' C peers share: exit on an error, a sort order. */
#ifndef BENCHRACK_TESTS_BENCH_COMMON_H
#define BENCHRACK_TESTS_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"

/* Exits 2 with what failed and why, unless st is BR_OK. */
static inline void must(br_status_t st, const br_error_t *err, const char *what)
{
	if (st != BR_OK) {
		fprintf(stderr, "%s: %s\n", what, err->message);
		exit(2);
	}
}

/* qsort's order of doubles. */
static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#endif
