/*
 * Posting a run's results to dashboards: after `benchrack run`, `check` and
 * `rack` — a single call once every run file is on disk — and for
 * `benchrack upload`. Uploads never change a verdict or an exit code of
 * run/check; what happened to each is one line on the log stream the
 * caller names (the command line's stderr).
 */
#ifndef BENCHRACK_UPLOAD_UPLOAD_RUN_H
#define BENCHRACK_UPLOAD_UPLOAD_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/suite.h"
#include "config/upload_config.h"
#include "upload/deliver.h"
#include "upload/spool.h"

/*
 * After a run: spools each of the count run files for every sink of the
 * upload config (config when not NULL, else suite's upload: section when it
 * has one), then makes one delivery pass over results_dir's spool for those
 * sinks (the items of other sinks are left alone), bounded by the config's
 * max_total_seconds (default 30 s). With neither, nothing is spooled or sent
 * (a file in the spool is no reason to send anything). Writes one line per
 * upload to log; returns nothing, so it cannot change the exit code.
 */
void br_upload_run_after(const br_upload_config_t *config, const br_suite_t *suite,
                         const char *results_dir, const char *const *run_files, size_t count,
                         FILE *log);

/* Spools each run file for every sink of section, a line on log for each
 * failure; returns the number of items spooled, and in *failed whether any
 * failed. */
size_t br_upload_run_enqueue(const br_upload_section_t *section, const char *config_dir,
                             const char *results_dir, const char *const *run_files, size_t count,
                             bool *failed, FILE *log);

/* Writes one line to log per outcome of report. */
void br_upload_run_print(const br_upload_report_t *report, FILE *log);

/* Writes to out one line per item of sp's spool (rejected: of its
 * rejected/): sink, method, URL, attempts, the last error or the server's
 * refusal; what cannot be listed goes to log. */
void br_upload_run_list(const br_upload_spool_t *sp, bool rejected, FILE *out, FILE *log);

/* "benchrack/<version>": what every request says it comes from. */
const char *br_upload_run_user_agent(void);

#endif
