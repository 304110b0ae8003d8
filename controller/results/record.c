#include "results/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "config/suite.h"

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

bool br_run_record_bench_firmware(const br_run_record_t *run, const br_bench_record_t *b,
                                  br_firmware_info_t *out)
{
	if (b->has_firmware) {
		*out = b->firmware;
		return true;
	}
	if (run->no_firmware || run->elf_path[0] == '\0')
		return false;
	*out = run->firmware;
	return true;
}

bool br_bench_firmware_is_run(const br_run_record_t *run, const br_bench_record_t *b)
{
	if (!b->has_firmware)
		return true;
	return !run->no_firmware && strcmp(run->elf_path, b->firmware.elf_path) == 0 &&
	       b->budgets.max_text_bytes.set == run->budgets.max_text_bytes.set &&
	       b->budgets.max_text_bytes.value == run->budgets.max_text_bytes.value;
}

void br_run_record_bench_build(const br_run_record_t *run, const br_bench_record_t *b, char *out,
                               size_t cap)
{
	br_firmware_info_t fw;
	if (!br_run_record_bench_firmware(run, b, &fw))
		snprintf(out, cap, "%s", "");
	else
		snprintf(out, cap, "%s", fw.build_id[0] != '\0' ? fw.build_id : fw.sha256);
}

void br_run_record_free(br_run_record_t *run)
{
	for (size_t i = 0; i < run->bench_count; i++) {
		free(run->benches[i].samples);
		free(run->benches[i].runs);
		for (size_t k = 0; k < run->benches[i].counter_count; k++)
			free(run->benches[i].counters[k].samples);
	}
	free(run->benches);
	run->benches = NULL;
	run->bench_count = 0;
}

static br_limit_t limit_of(const br_cfg_uint_t *u)
{
	br_limit_t l = {u->set, u->value};
	return l;
}

br_budgets_t br_budgets_from_suite(const br_suite_budgets_t *b)
{
	br_budgets_t out = {limit_of(&b->max_stack_bytes), limit_of(&b->max_heap_bytes),
	                    limit_of(&b->max_cycles_per_iteration), limit_of(&b->max_text_bytes)};
	return out;
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
