#include "results/record.h"

#include <stdio.h>
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

void br_run_record_firmware_get(const br_run_record_t *run, br_firmware_info_t *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s", run->elf_path);
	snprintf(out->build_id, sizeof(out->build_id), "%s", run->build_id);
	snprintf(out->sha256, sizeof(out->sha256), "%s", run->sha256);
	snprintf(out->git_commit, sizeof(out->git_commit), "%s", run->git_commit);
	snprintf(out->toolchain, sizeof(out->toolchain), "%s", run->toolchain);
	out->sizes_known = run->sizes_known;
	out->text_bytes = run->text_bytes;
	out->data_bytes = run->data_bytes;
	out->bss_bytes = run->bss_bytes;
}

void br_run_record_firmware_set(br_run_record_t *run, const br_firmware_info_t *fw)
{
	run->no_firmware = false;
	snprintf(run->elf_path, sizeof(run->elf_path), "%s", fw->path);
	snprintf(run->build_id, sizeof(run->build_id), "%s", fw->build_id);
	snprintf(run->sha256, sizeof(run->sha256), "%s", fw->sha256);
	snprintf(run->git_commit, sizeof(run->git_commit), "%s", fw->git_commit);
	snprintf(run->toolchain, sizeof(run->toolchain), "%s", fw->toolchain);
	run->sizes_known = fw->sizes_known;
	run->text_bytes = fw->text_bytes;
	run->data_bytes = fw->data_bytes;
	run->bss_bytes = fw->bss_bytes;
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
	br_run_record_firmware_get(run, out);
	return true;
}

bool br_bench_firmware_is_run(const br_run_record_t *run, const br_bench_record_t *b)
{
	if (!b->has_firmware)
		return true;
	return !run->no_firmware && strcmp(run->elf_path, b->firmware.path) == 0 &&
	       b->budgets.max_text_bytes.set == run->budgets.max_text_bytes.set &&
	       b->budgets.max_text_bytes.value == run->budgets.max_text_bytes.value;
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
	}
	return "failed";
}

const char *br_bench_status_name(br_bench_status_t status)
{
	return status == BR_BENCH_NOT_RUN ? "not_run" : "measured";
}
