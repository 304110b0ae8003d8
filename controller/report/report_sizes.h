/*
 * Sizes the run records do not hold, read from the firmware at report time
 * when it is still where the record says: the biggest functions of the
 * suite firmware, and the text each bench adds over the empty bench
 * (measure/bench_size.h: bench-<name>-O<L>.elf beside suite-O<L>.elf). When
 * the files are gone the page says so and shows the record's sizes only.
 */
#ifndef BENCHRACK_REPORT_REPORT_SIZES_H
#define BENCHRACK_REPORT_REPORT_SIZES_H

#include "report/report_page.h"

/* The most functions listed per firmware. */
#define BR_PAGE_TOP_SYMBOLS 15U

/* Fills l->symbols and l->bench_text from the ELFs of l's run, where found. */
void br_page_sizes_read(br_page_t *page, br_page_latest_t *l);

#endif
