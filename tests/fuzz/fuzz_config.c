/*
 * Fuzz target: the YAML config loader (controller/config) fed arbitrary
 * bytes, as a board file and as a suite file. Invariants:
 *
 * - it returns BR_OK or BR_ERR_INPUT, never crashes, leaks or reads out of
 *   bounds (ASan/UBSan in the libFuzzer build);
 * - a failure leaves a NUL-terminated one-line message that starts with the
 *   file's name and a line:column, and an empty result;
 * - a success has every required field set and every derived figure in
 *   range (a stack inside RAM, a counter width of 1..32 bits, at least one
 *   bench, iterations within the stub's sample buffer).
 */
#include "fuzz_target.h"

#include <string.h>

#include "config/board.h"
#include "config/suite.h"

#define FUZZ_NAME "fuzz.yaml"

static void fuzz_check_error(br_status_t st, const br_error_t *err)
{
	fuzz_require(st == BR_ERR_INPUT && err->status == BR_ERR_INPUT, "error status");
	fuzz_require(memchr(err->message, '\0', sizeof(err->message)) != NULL, "message NUL");
	fuzz_require(strncmp(err->message, FUZZ_NAME ":", strlen(FUZZ_NAME) + 1U) == 0,
		     "message names the file");
	fuzz_require(strchr(err->message, '\n') == NULL, "message is one line");
}

static void fuzz_board(const uint8_t *data, size_t size)
{
	br_board_t b;
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = br_board_parse(FUZZ_NAME, data, size, &b, &err);
	if (st != BR_OK) {
		fuzz_check_error(st, &err);
		fuzz_require(b.path == NULL && b.file.memory.items == NULL, "empty on failure");
		return;
	}
	fuzz_require(b.name != NULL && strcmp(b.name, "fuzz") == 0, "name is the file's");
	fuzz_require(b.counter_kind <= BR_BOARD_COUNTER_MMIO, "counter kind");
	fuzz_require(br_board_counter_name(&b) != NULL, "counter name");
	fuzz_require(b.load <= BR_BOARD_LOAD_DEFAULT, "load policy");
	fuzz_require(b.stack_length >= 4, "stack length");
	fuzz_require((uint64_t)b.stack_origin + b.stack_length <= 0x100000000ULL, "stack in range");
	fuzz_require(b.hardware_breakpoints >= 1, "breakpoints");
	char server[256];
	br_board_describe_server(&b, server, sizeof(server));
	br_board_free(&b);
}

static void fuzz_suite(const uint8_t *data, size_t size)
{
	br_suite_t s;
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = br_suite_parse(FUZZ_NAME, data, size, &s, &err);
	if (st != BR_OK) {
		fuzz_check_error(st, &err);
		fuzz_require(s.path == NULL && s.benches == NULL, "empty on failure");
		return;
	}
	fuzz_require(s.bench_count >= 1 && s.bench_count <= 32, "bench count");
	fuzz_require(s.iterations >= 1 && s.iterations <= BR_SUITE_MAX_ITERATIONS, "iterations");
	fuzz_require(s.file.boards.count >= 1, "boards");
	for (size_t i = 0; i < s.bench_count; i++) {
		const br_suite_bench_t *b = &s.benches[i];
		fuzz_require(strlen(b->name.value) <= BR_SUITE_NAME_MAX, "name length");
		fuzz_require((b->kind == BR_SUITE_ENTRY_STUB) == !b->elf.set, "entry kind");
		fuzz_require(b->kind == BR_SUITE_ENTRY_STUB || b->elf_path != NULL, "elf path");
		br_suite_budgets_t budgets = br_suite_bench_budgets(&s, b);
		(void)budgets;
	}
	br_suite_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_board(data, size);
	fuzz_suite(data, size);
	return 0;
}
