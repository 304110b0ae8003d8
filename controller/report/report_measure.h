/*
 * What `benchrack measure` shows: the figures run/measure_figures.h made of
 * the measurement, written as the terminal report or as JSON. Every
 * figure carries its unit and the clock it came from; a figure that could
 * not be measured says so instead of standing as a number.
 */
#ifndef BENCHRACK_REPORT_REPORT_MEASURE_H
#define BENCHRACK_REPORT_REPORT_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/error.h"
#include "run/measure_figures.h"

/* Writes the terminal report of r to out. */
void br_measure_report_print(const br_measure_report_t *r, FILE *out);

/* Writes r as one JSON document to path, atomically: kind "measurement"
 * (results/contract.h, results/SCHEMA.md). */
br_status_t br_measure_report_save_json(const br_measure_report_t *r, const char *path,
                                        br_error_t *err);

#endif
