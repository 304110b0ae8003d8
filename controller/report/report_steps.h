/*
 * Steps in each bench's history (stats/change_points.h): per series (board
 * and suite) and bench, the runs where the median moved to another level
 * and stayed, with the commit of the first run at the new level, so that a
 * creep of changes each within the gate's limit is seen where it happened.
 */
#ifndef BENCHRACK_REPORT_REPORT_STEPS_H
#define BENCHRACK_REPORT_REPORT_STEPS_H

#include "report/report_page.h"
#include "results/json_writer.h"

/*
 * Writes "change_points": [{series, suite, bench, run, commit, before,
 * after, percent}] for page (finished): run is the page's id of the first
 * run of the new level, commit its firmware's (null when not known),
 * before/after the medians of the levels either side (of their runs'
 * medians), percent the step in percent of before (null from 0).
 */
void br_report_steps_write(br_json_t *j, const br_page_t *page);

#endif
