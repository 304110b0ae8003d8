/*
 * Fuzz target: the baseline / run record reader (controller/results/
 * record_read.c) fed arbitrary bytes. Invariants:
 *
 * - BR_OK or BR_ERR_INPUT with a one-line message starting with the file's
 *   name, never a crash, a leak or an out-of-bounds read;
 * - a record it accepts, written back by run_json.c and read again, is the
 *   same record (board, counter, unit, every bench's name, status and
 *   figures): the writer and the reader agree on every input the reader
 *   takes, including odd strings.
 */
#include "fuzz_target.h"

#include <stdlib.h>
#include <string.h>

#include "results/record_read.h"
#include "results/run_json.h"

#define FUZZ_NAME "fuzz.json"

static void fuzz_same(const br_run_record_t *a, const br_run_record_t *b)
{
	fuzz_require(a->kind == b->kind && a->status == b->status, "kind/status differ");
	fuzz_require(strcmp(a->board, b->board) == 0 && strcmp(a->counter, b->counter) == 0 &&
		     strcmp(a->unit, b->unit) == 0 && a->clock_hz == b->clock_hz,
		     "board/counter differ");
	fuzz_require(strcmp(a->build_id, b->build_id) == 0 && strcmp(a->error, b->error) == 0,
		     "provenance differs");
	fuzz_require(a->bench_count == b->bench_count, "bench count differs");
	for (size_t i = 0; i < a->bench_count; i++) {
		const br_bench_record_t *x = &a->benches[i], *y = &b->benches[i];
		fuzz_require(strcmp(x->name, y->name) == 0 && x->status == y->status,
			     "bench differs");
		if (x->status != BR_BENCH_MEASURED)
			continue;
		fuzz_require(x->n == y->n && x->summary.median == y->summary.median &&
			     x->summary.p10 == y->summary.p10 && x->summary.p90 == y->summary.p90,
			     "figures differ");
		fuzz_require(x->stack_measured == y->stack_measured &&
			     x->stack_bytes == y->stack_bytes && x->heap_peak == y->heap_peak,
			     "sizes differ");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	br_run_record_t rec;
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = br_record_parse(FUZZ_NAME, data, size, &rec, &err);
	if (st != BR_OK) {
		fuzz_require(st == BR_ERR_INPUT, "error status");
		fuzz_require(memchr(err.message, '\0', sizeof(err.message)) != NULL, "message NUL");
		fuzz_require(strncmp(err.message, FUZZ_NAME ":", strlen(FUZZ_NAME) + 1U) == 0,
			     "message names the file");
		fuzz_require(rec.bench_count == 0 && rec.benches == NULL, "empty on failure");
		return 0;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fuzz_require(f != NULL, "memstream");
	br_run_json_write(&rec, f);
	fclose(f);
	br_run_record_t again;
	br_error_clear(&err);
	st = br_record_parse(FUZZ_NAME, (const uint8_t *)text, len, &again, &err);
	if (st != BR_OK)
		fprintf(stderr, "rewritten record refused: %s\n%s\n", err.message, text);
	fuzz_require(st == BR_OK, "a written record reads back");
	fuzz_same(&rec, &again);
	br_run_record_free(&again);
	br_run_record_free(&rec);
	free(text);
	return 0;
}
