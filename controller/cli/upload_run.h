/*
 * Posting results to dashboards from the command line (controller/upload):
 * after `benchrack run` and `check` — a single call once every run file is
 * on disk — and for `benchrack upload`. Uploads never change a verdict or an
 * exit code of run/check; what happened to each is one line on stderr.
 */
#ifndef BENCHRACK_CLI_UPLOAD_RUN_H
#define BENCHRACK_CLI_UPLOAD_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "config/suite.h"
#include "config/upload_config.h"
#include "upload/deliver.h"

/*
 * After a run: spools each of the count run files for every sink of the
 * upload config (config when not NULL, else suite's upload: section when it
 * has one), then makes one delivery pass over results_dir's spool for those
 * sinks (the items of other sinks are left alone), bounded by the config's
 * max_total_seconds (default 30 s). With neither, nothing is spooled or sent
 * (a file in the spool is no reason to send anything). Prints one line per upload;
 * returns nothing, so it cannot change the exit code.
 */
void br_cli_upload_after_run(const br_upload_config_t *config, const br_suite_t *suite,
			     const char *results_dir, const char *const *run_files, size_t count);

/* Spools each run file for every sink of section, printing any failure;
 * returns the number of items spooled, and in *failed whether any failed. */
size_t br_cli_upload_enqueue(const br_upload_section_t *section, const char *config_dir,
			     const char *results_dir, const char *const *run_files, size_t count,
			     bool *failed);

/* Prints one line on stderr per outcome of report. */
void br_cli_upload_print(const br_upload_report_t *report);

/* "benchrack/<version>": what every request says it comes from. */
const char *br_cli_upload_user_agent(void);

#endif
