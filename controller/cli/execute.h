/*
 * `benchrack run` and `benchrack check`, after their options are parsed:
 * load the suite and its boards (every config error before anything runs),
 * then per board write the run record first, measure, keep each bench as it
 * finishes, compare with the baseline and apply the gate (check), write the
 * baseline when asked, and print or write the outputs.
 */
#ifndef BENCHRACK_CLI_EXECUTE_H
#define BENCHRACK_CLI_EXECUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "config/upload_config.h"

typedef struct br_cli_settings {
	bool check;                /* enforce budgets and regressions through the exit code */
	const char *suite_path;    /* NULL: every bench of one firmware, no suite */
	const char *elf_path;      /* the firmware (ELF argument or --firmware), or NULL */
	const char *board;         /* --board: instead of the suite's boards */
	const char *results_dir;   /* where runs/ and baselines/ are */
	const char *format;        /* --format, or NULL */
	const char *output;        /* --output, or NULL (stdout) */
	const char *json_path;     /* --json: the run record, also here */
	const char *baseline_path; /* --baseline: instead of results/baselines/<board>.json */
	const char *qemu_program;  /* --qemu */
	const char *commit;        /* --commit */
	bool write_baseline;
	bool iterations_set, warmup_set;
	uint32_t iterations, warmup;
	int timeout_s;             /* 0: the suite's */
	const br_upload_config_t *upload_config; /* --upload-config: sinks instead of the suite's */
} br_cli_settings_t;

/* Runs everything settings describe; returns the process exit code. */
int br_cli_execute(const br_cli_settings_t *settings);

#endif
