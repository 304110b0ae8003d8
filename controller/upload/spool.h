/*
 * The spool on disk: results/spool/<id>.json holds every upload not yet
 * accepted by its server (written before the first attempt, deleted only
 * after the server said 2xx), results/rejected/<id>.json every upload a
 * server refused for good, with its message, for a person to look at. Every
 * file is written atomically (temporary file, fsync, rename). One process
 * delivers at a time: results/spool/.lock (flock) keeps a second one away
 * while the first sends.
 */
#ifndef BENCHRACK_UPLOAD_SPOOL_H
#define BENCHRACK_UPLOAD_SPOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "upload/item.h"

#define BR_UPLOAD_PATH_BYTES 1024U

typedef struct br_upload_spool {
	char spool_dir[BR_UPLOAD_PATH_BYTES];    /* RESULTS/spool */
	char rejected_dir[BR_UPLOAD_PATH_BYTES]; /* RESULTS/rejected */
	int lock_fd;                             /* -1 when not locked */
} br_upload_spool_t;

/* Names the spool of results_dir; with create, also makes results_dir, its
 * spool/ and rejected/ (BR_ERR_INPUT naming the directory when it cannot). */
br_status_t br_upload_spool_open(br_upload_spool_t *sp, const char *results_dir, bool create,
                                 br_error_t *err);

/* The path of item id in the spool, or in rejected/ (rejected true). */
void br_upload_spool_path(const br_upload_spool_t *sp, bool rejected, const char *id, char *out,
                          size_t cap);

/* Writes item to the spool atomically (replacing an item of the same id). */
br_status_t br_upload_spool_put(const br_upload_spool_t *sp, const br_upload_item_t *item,
                                br_error_t *err);

/* Deletes item id from the spool (it was delivered). */
br_status_t br_upload_spool_remove(const br_upload_spool_t *sp, const char *id, br_error_t *err);

/* Writes item to rejected/ (atomically), then deletes it from the spool. */
br_status_t br_upload_spool_reject(const br_upload_spool_t *sp, const br_upload_item_t *item,
                                   br_error_t *err);

/*
 * The ids in the spool (or in rejected/), sorted by name (oldest run first:
 * ids start with the run file's time), into a new array *ids of *count
 * strings (free with br_upload_spool_ids_free). A missing directory is an
 * empty list.
 */
br_status_t br_upload_spool_list(const br_upload_spool_t *sp, bool rejected, char ***ids,
                                 size_t *count, br_error_t *err);

/* Frees what br_upload_spool_list returned. */
void br_upload_spool_ids_free(char **ids, size_t count);

/*
 * Takes the spool's lock without waiting. BR_ERR_INFRA when another process
 * holds it ("another benchrack is delivering"). Released by
 * br_upload_spool_unlock or when the process ends.
 */
br_status_t br_upload_spool_lock(br_upload_spool_t *sp, br_error_t *err);

/* Releases the lock br_upload_spool_lock took (nothing when it holds none). */
void br_upload_spool_unlock(br_upload_spool_t *sp);

#endif
