/*
 * A minimal test harness for table-driven unit tests: CHECK records a failure
 * with file:line and goes on; check_finish() prints the tally and returns the
 * process exit status (0 only when every check passed and at least one ran).
 */
#ifndef BENCHRACK_TESTS_CHECK_H
#define BENCHRACK_TESTS_CHECK_H

#include <stdio.h>

static int check_run_count;
static int check_fail_count;

#define CHECK(cond)                                                                     \
	do {                                                                            \
		check_run_count++;                                                      \
		if (!(cond)) {                                                          \
			check_fail_count++;                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                       \
	} while (0)

#define CHECK_MSG(cond, ...)                                                            \
	do {                                                                            \
		check_run_count++;                                                      \
		if (!(cond)) {                                                          \
			check_fail_count++;                                             \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                   \
			fputc('\n', stderr);                                            \
		}                                                                       \
	} while (0)

static inline int check_finish(void)
{
	printf("%d checks, %d failed\n", check_run_count, check_fail_count);
	return (check_fail_count == 0 && check_run_count > 0) ? 0 : 1;
}

#endif
