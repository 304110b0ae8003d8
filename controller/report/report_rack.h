/*
 * A rack document (rack/rack_result.h, br_rack_document_write) in a report:
 * read back strictly enough to show every board's outcome and reasons, and
 * turned into a board × bench matrix of medians against the rack's median
 * per suite and unit (the median over the boards, stats/summary.h).
 */
#ifndef BENCHRACK_REPORT_REPORT_RACK_H
#define BENCHRACK_REPORT_REPORT_RACK_H

#include "common/error.h"
#include "report/report_page.h"

/*
 * Reads the rack document at path into *out, and every suite's run record
 * into page's runs. BR_ERR_INPUT with path:line:col and what was expected
 * when it is not a rack document; *out is then empty.
 */
br_status_t br_page_rack_read(br_page_t *page, const char *path, br_page_rack_t *out,
                              br_error_t *err);

/* Links each suite to its run and computes the matrices (br_page_finish). */
void br_page_rack_finish(const br_page_t *page, br_page_rack_t *rack);

/*
 * The rack document at path (br_rack_document_write): every board's outcome,
 * health check and reasons, and each suite's run record, read as a run.
 * BR_ERR_INPUT with file:line:col when the document does not read.
 */
br_status_t br_page_add_rack_file(br_page_t *page, const char *path, br_error_t *err);

#endif
