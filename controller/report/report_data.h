/*
 * The data behind every chart of the report, as one JSON document embedded
 * in the page (script#benchrack-data), so that a reader or a test can check
 * each drawn value against the run records. controller/report/README.md
 * lists its keys; it opens with the kind and schema_version of
 * results/contract.h (BR_CONTRACT_REPORT_PAGE) and
 * results/schema/report_page.schema.json is its JSON Schema. Figures are copied from the records
 * and from results/ (diff, gate) and stats/ (outliers): the page's script computes none.
 */
#ifndef BENCHRACK_REPORT_REPORT_DATA_H
#define BENCHRACK_REPORT_REPORT_DATA_H

#include <stdio.h>

#include "report/report_page.h"

/* Writes page (finished: br_page_finish) as JSON to out; generated is the
 * UTC time the page is written, version benchrack's. */
void br_report_data_write(const br_page_t *page, const char *generated, const char *version,
                          FILE *out);

#endif
