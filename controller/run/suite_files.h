/*
 * The files a suite names, checked before any board is launched: the
 * firmware opens and holds every stub bench the suite lists, and every
 * entry's elf: opens. A problem is the suite file's, so it is reported at
 * the key that names it ("suite.yaml:line:col: ..."), exit 2, instead of
 * surfacing later from inside a run with no position.
 */
#ifndef BENCHRACK_RUN_SUITE_FILES_H
#define BENCHRACK_RUN_SUITE_FILES_H

#include "common/error.h"
#include "config/suite.h"

/*
 * Checks suite's files against firmware, the image its stub benches will run
 * from (the suite's own firmware: path, or one given instead, which then
 * carries no position in the suite). Only what the run will use is checked:
 * the firmware when a stub bench (or, with no benches listed, every one) is
 * to run, each breakpoint entry's elf. Returns BR_OK or BR_ERR_INPUT with
 * the position of the key at fault.
 */
br_status_t br_suite_files_check(const br_suite_t *suite, const char *firmware, br_error_t *err);

#endif
