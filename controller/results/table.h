/*
 * The terminal table: per board a header line naming the board, counter and
 * unit, one aligned line per bench (so that no figure stands without its
 * unit), then — when a baseline was compared — old, new, change and verdict
 * per bench and metric, then what the gate found; a board whose run stopped
 * before any bench is left out (the error says why). Colour (ANSI) only when
 * the caller says so: on a TTY and never with NO_COLOR.
 */
#ifndef BENCHRACK_RESULTS_TABLE_H
#define BENCHRACK_RESULTS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/report.h"

/* Writes every board's report to out. */
void br_table_write(const br_report_t *reports, size_t count, bool colour, FILE *out);

#endif
