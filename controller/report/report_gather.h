/*
 * A page made whole (report_page.h holds what it shows): br_page_finish
 * orders and compares what was added, reading the firmware's sizes
 * (report_sizes.h) and computing each rack's matrix (report_rack.h);
 * br_page_gather adds what `benchrack report` names and finishes the page.
 */
#ifndef BENCHRACK_REPORT_REPORT_GATHER_H
#define BENCHRACK_REPORT_REPORT_GATHER_H

#include <stddef.h>

#include "common/error.h"
#include "report/report_page.h"

/*
 * Orders the runs oldest first, picks the latest run of each board and
 * suite, compares each against its board's baseline (where compatible) and
 * gates it as `check` would, reads its firmware's sizes where the ELF is
 * still there, and computes each rack's matrix. Call once, after adding.
 */
void br_page_finish(br_page_t *page);

/* What `benchrack report` gathers a page from. */
typedef struct br_page_sources {
	const char *results_dir;  /* runs from RESULTS/runs, baselines from RESULTS/baselines */
	const char *baseline_dir; /* instead of RESULTS/baselines, or NULL */
	const char *const *runs;  /* run globs instead of RESULTS/runs */
	size_t run_count;
	const char *const *racks; /* rack documents (with their boards' runs) */
	size_t rack_count;
	const char *const *profiles; /* folded or speedscope files */
	size_t profile_count;
} br_page_sources_t;

/*
 * Adds what src names to page — the run globs, else RESULTS/runs unless
 * racks are given; the racks; the profiles; the baselines — and finishes it.
 * BR_ERR_USAGE when nothing is left to report; a rack or profile that does
 * not read is its error.
 */
br_status_t br_page_gather(br_page_t *page, const br_page_sources_t *src, br_error_t *err);

#endif
