/*
 * A measurement's raw samples (measure/measure_run.h) turned into figures:
 * statistics of the measured samples, raw and net of the calibration, the
 * stack per sample or per bench, and the sizes. Shared by `benchrack
 * measure` (report/report_measure.h writes it out) and the suite's breakpoint
 * entries (run/elf_entry.h keeps it as a bench record): one summary, one
 * place. Every figure carries its unit; a sample that could not be measured
 * is counted as such, never as a number.
 */
#ifndef BENCHRACK_RUN_MEASURE_FIGURES_H
#define BENCHRACK_RUN_MEASURE_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "measure/bench_size.h"
#include "measure/measure_run.h"
#include "measure/stub_footprint.h"
#include "stats/summary.h"

typedef struct br_measure_report {
	const char *elf_path;
	const br_measure_raw_t *raw; /* NULL: sizes only, nothing was run */
	const br_error_t *failure;   /* what stopped the measurement (NULL: it completed);
	                                the figures are then of the samples taken */
	/* Counter samples. */
	size_t measured, not_measured;
	double worst_host_seconds; /* the longest interval among samples not measured */
	bool summarized;           /* measured > 0 */
	br_summary_t raw_summary;
	br_summary_t net_summary; /* raw less the calibration's median, when net_known */
	/* The calibration is known to apply to every sample (it did not vary) and
	 * no sample lies below it: only then is there a net figure; otherwise
	 * net_why says why not ("not measured", never a negative number). */
	bool net_known;
	char net_why[192];
	bool calibrated;
	br_summary_t calibration;
	/* Stack: per sample in breakpoint mode, per bench in stub mode. */
	bool stack_reported;
	size_t stack_measured;       /* samples (breakpoint mode) with a figure */
	size_t stack_missing;        /* samples without one */
	br_stack_status_t stack_why; /* why the first missing one is missing */
	br_summary_t stack;          /* over stack_measured samples */
	/* Sizes. */
	br_elf_sizes_t sizes;
	bool bench_size_known;
	br_bench_size_t bench_size;
	const char *bench_elf, *empty_elf;
	bool symbols_shown;
	bool symbols_against_empty; /* sized against the empty bench's image (stub
	                               firmware): the "empty" and growth columns mean
	                               something; without it they are left out */
	br_size_symbol_t *symbols;  /* owned by the caller */
	size_t symbol_count;
	const br_suite_footprint_t *footprint; /* --sizes: flash and RAM, the stub's and each
	                                          bench's on top (NULL: not asked) */
} br_measure_report_t;

/*
 * Fills the figures of r (counts, summaries, calibration, stack) from
 * r->raw. The net figures exist only when the calibration is known to apply
 * to each sample (it did not vary: min == max) and no sample lies below it
 * (r->net_known; r->net_why otherwise). Returns BR_OK or the statistics' error.
 */
br_status_t br_measure_report_summarize(br_measure_report_t *r, br_error_t *err);

/* The first sample of a breakpoint session that is not measured, or NULL. */
const br_bp_sample_t *br_measure_report_first_not_measured(const br_measure_raw_t *raw);

/* The one-line reason for r's samples not measured (r->not_measured > 0),
 * "K of N samples not measured: ...": a stray stop or reset when that is what
 * ended the first of them, else a possible counter wrap. */
#define BR_MEASURE_WHY_TEXT 224U
void br_measure_report_why(const br_measure_report_t *r, char *buf, size_t size);

#define BR_MEASURE_PATH_BYTES 1024U

/* The images a measurement's sizes come from, as asked. */
typedef struct br_measure_sizes_ask {
	const char *elf_path;  /* the image measured */
	const char *bench;     /* the bench run, or NULL */
	const char *bench_elf; /* the bench's own image, or NULL: found beside elf_path */
	const char *empty_elf; /* the empty bench's image, or NULL: found beside elf_path */
	bool breakdown;        /* the footprint and the size of each function */
} br_measure_sizes_ask_t;

/*
 * Fills the size figures of r beyond the ELF's own: a bench's size against
 * the empty bench (images as asked, else bench-<NAME>-O<L>.elf and
 * bench-empty-O<L>.elf beside elf_path, whose paths go into bench_buf and
 * empty_buf of BR_MEASURE_PATH_BYTES; without a bench, elf_path itself when
 * an empty image was named or it is a bench-* image), and with breakdown
 * the footprint (into *footprint, which r then points at) and the sizes per
 * function (r->symbols, the caller's to free).
 */
br_status_t br_measure_report_sizes(br_measure_report_t *r, const br_measure_sizes_ask_t *q,
                                    char *bench_buf, char *empty_buf,
                                    br_suite_footprint_t *footprint, br_error_t *err);

#endif
