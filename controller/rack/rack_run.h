/*
 * What `benchrack rack` does around its workers (rack/rack_worker.h): every
 * suite and board file of the selected boards loaded and checked before
 * anything runs; after the workers, each run record read back and gated as
 * check does, as reports named by the rack's names for the boards; the rack
 * document saved; the summary (board x suite) written. Nothing here prints:
 * what went wrong reaches the caller through err or its warn callback.
 */
#ifndef BENCHRACK_RACK_RACK_RUN_H
#define BENCHRACK_RACK_RACK_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/error.h"
#include "config/rack.h"
#include "config/suite.h"
#include "rack/rack_result.h"
#include "results/report.h"
#include "run/board_run.h"

/*
 * The entries of full that carry one of the only_count tags in only (every
 * entry when none), as a rack of their own in *rack: it shares full's
 * memory but for rack->entries, which the caller frees.
 */
void br_rack_select(const br_rack_t *full, const char *const *only, size_t only_count,
                    br_rack_t *rack);

/*
 * Loads every suite of every entry of rack into suites (slot entry *
 * BR_RACK_MAX_SUITES + k, its pointer in suite_ptrs) and every board file
 * (checked, then freed); heavy[i] says whether entry i is a QEMU emulated
 * here (each needs a core). Stops at the first file that does not validate
 * (BR_ERR_INPUT naming it); the suites loaded so far have non-NULL
 * suite_ptrs and are the caller's to free.
 */
br_status_t br_rack_configs_load(const br_rack_t *rack, br_suite_t *suites,
                                 const br_suite_t **suite_ptrs, bool *heavy, br_error_t *err);

/* Names results[i] and its suites after rack's entry i and the suites in
 * suite_ptrs (laid out as br_rack_configs_load leaves them). */
void br_rack_results_init(const br_rack_t *rack, const br_suite_t *const *suite_ptrs,
                          br_rack_board_result_t *results);

/* Told about a run that could not be read back or gated: which board, why. */
typedef void (*br_rack_warn_fn)(void *ctx, const char *board, const char *message);

/*
 * Every suite of results that left a run record: read back into runs[n]
 * (its board file loaded), compared with RESULTS/baselines/<suite>/<board>.json when
 * there is one and gated as check does, renamed to the rack's name for the
 * board, and made reports[n]. runs and reports have room for every board
 * and suite; returns n. A run that cannot be read is left out and warned
 * about. Free each of runs with br_board_run_free.
 */
size_t br_rack_reports_collect(const char *results_dir, const br_rack_t *rack,
                               const br_rack_board_result_t *results, br_board_run_t *runs,
                               br_report_t *reports, br_rack_warn_fn warn, void *warn_ctx);

/* Writes the summary to out: a line per board and suite (outcome, retries,
 * reason), a stale lock taken over, and the count of boards per outcome
 * with exit_code. */
void br_rack_summary_write(const br_rack_t *rack, const br_rack_board_result_t *results,
                           int exit_code, FILE *out);

/* Writes the rack document (br_rack_document_write) to path, atomically. */
br_status_t br_rack_document_save(const char *path, const br_rack_t *rack,
                                  const br_rack_board_result_t *results, br_error_t *err);

/* A rack file loaded, its boards selected and every file they name loaded
 * (the state `benchrack rack` runs its workers on). */
typedef struct br_rack_session {
	br_rack_t full;                  /* the rack file */
	bool loaded;                     /* full is to be freed */
	br_rack_t rack;                  /* the selected boards (br_rack_select) */
	size_t slots;                    /* full.entry_count * BR_RACK_MAX_SUITES */
	br_suite_t *suites;              /* per slot (br_rack_configs_load) */
	const br_suite_t **suite_ptrs;   /* per slot, NULL when not loaded */
	bool *heavy;                     /* per selected board */
	br_rack_board_result_t *results; /* per selected board */
} br_rack_session_t;

/*
 * Loads the rack file at path (boards by name from configs_dir/boards),
 * selects the boards with one of the only_count tags in only, and loads
 * their suites and board files; results are named (br_rack_results_init).
 * BR_OK with no board selected is possible (s->rack.entry_count == 0).
 * Free s with br_rack_session_free, also after a failure.
 */
br_status_t br_rack_session_open(const char *path, const char *configs_dir, const char *const *only,
                                 size_t only_count, br_rack_session_t *s, br_error_t *err);

/* How many emulated boards at once: asked (0: not asked), else the rack
 * file's, else the CPUs online. */
unsigned br_rack_session_parallel(const br_rack_session_t *s, unsigned asked);

/* Frees what br_rack_session_open allocated. */
void br_rack_session_free(br_rack_session_t *s);

#endif
