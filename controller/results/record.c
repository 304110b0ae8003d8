#include "results/record.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

br_bench_record_t *br_run_record_add_bench(br_run_record_t *run)
{
	run->benches = xrealloc(run->benches, (run->bench_count + 1U) * sizeof(run->benches[0]));
	br_bench_record_t *b = &run->benches[run->bench_count++];
	memset(b, 0, sizeof(*b));
	return b;
}

const br_bench_record_t *br_run_record_find(const br_run_record_t *run, const char *name)
{
	for (size_t i = 0; i < run->bench_count; i++) {
		if (strcmp(run->benches[i].name, name) == 0)
			return &run->benches[i];
	}
	return NULL;
}

void br_run_record_free(br_run_record_t *run)
{
	for (size_t i = 0; i < run->bench_count; i++) {
		free(run->benches[i].samples);
		for (size_t k = 0; k < run->benches[i].counter_count; k++)
			free(run->benches[i].counters[k].samples);
	}
	free(run->benches);
	run->benches = NULL;
	run->bench_count = 0;
}

const char *br_record_kind_name(br_record_kind_t kind)
{
	return kind == BR_RECORD_BASELINE ? "baseline" : "run";
}

const char *br_record_status_name(br_record_status_t status)
{
	switch (status) {
	case BR_RECORD_RUNNING:
		return "running";
	case BR_RECORD_COMPLETE:
		return "complete";
	case BR_RECORD_FAILED:
		return "failed";
	case BR_RECORD_INTERRUPTED:
		return "interrupted";
	}
	return "failed";
}

const char *br_bench_status_name(br_bench_status_t status)
{
	return status == BR_BENCH_NOT_RUN ? "not_run" : "measured";
}
