/*
 * What every fuzz target shares: the libFuzzer entry point, which replay_main.c
 * also calls when the target is built as a plain corpus-replay program, and
 * the way an invariant fails (abort, so libFuzzer saves the input and the
 * replay test fails).
 */
#ifndef BENCHRACK_TESTS_FUZZ_TARGET_H
#define BENCHRACK_TESTS_FUZZ_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Runs one input; returns 0 (libFuzzer's contract). Aborts on a broken
 * invariant. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with what when cond is false. */
static inline void fuzz_require(bool cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz invariant failed: %s\n", what);
		abort();
	}
}

#endif
