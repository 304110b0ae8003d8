/*
 * Spool first: one result record, read back from disk (what results/ holds
 * is what is uploaded), mapped once, rendered for every sink of a config,
 * and each pending upload written to the spool before anything is sent. The
 * same run spooled twice for a sink replaces its item (same id): one upload,
 * not two.
 */
#ifndef BENCHRACK_UPLOAD_ENQUEUE_H
#define BENCHRACK_UPLOAD_ENQUEUE_H

#include <stddef.h>

#include "common/error.h"
#include "config/upload_config.h"
#include "upload/spool.h"

/*
 * Spools the record at run_file for every sink of section (relative token
 * and CA files against config_dir). *spooled counts the items written (a
 * sink the record has nothing for is skipped). On a problem with one sink
 * the others still get theirs; the first error is returned (BR_ERR_INPUT:
 * the record cannot be read, or a spool file cannot be written).
 */
br_status_t br_upload_enqueue(const br_upload_spool_t *sp, const br_upload_section_t *section,
                              const char *config_dir, const char *run_file, size_t *spooled,
                              br_error_t *err);

#endif
