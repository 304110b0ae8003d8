/*
 * The terminal table: one line per bench, columns aligned, the unit named
 * in the header line so that no figure stands without it.
 */
#ifndef BENCHRACK_RESULTS_TABLE_H
#define BENCHRACK_RESULTS_TABLE_H

#include <stdio.h>

#include "results/record.h"

/* Writes the table of run to out: bench, n, median, p10, p90, min, max, stack, unit. */
void br_table_write(const br_run_record_t *run, FILE *out);

#endif
