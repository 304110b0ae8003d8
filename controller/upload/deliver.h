/*
 * One delivery pass over the spool: every pending upload, oldest first, is
 * sent; a 2xx deletes it, a refusal (retry.h) moves it to rejected/ with the
 * server's message, anything a later attempt may fix leaves it in the spool
 * with its attempts and last error, after retries with capped exponential
 * backoff and jitter (or the server's Retry-After) within this pass. The
 * whole pass ends by its deadline, whatever the servers do: no request runs
 * past it and no wait is started that would. A sink that failed once in the
 * pass is not tried again in it (its other items wait for the next pass).
 * A spool file is data, not an instruction: it is sent only to a sink the
 * current configuration names, as that configuration says to (pass->section).
 * Every message in the outcome is redacted (secret.h).
 */
#ifndef BENCHRACK_UPLOAD_DELIVER_H
#define BENCHRACK_UPLOAD_DELIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "config/upload_config.h"

typedef enum br_upload_outcome_kind {
	BR_UPLOAD_OUT_DELIVERED, /* the server accepted it: gone from the spool */
	BR_UPLOAD_OUT_REJECTED,  /* refused for good: moved to rejected/ */
	BR_UPLOAD_OUT_PENDING,   /* tried, not delivered: stays in the spool */
	BR_UPLOAD_OUT_WAITING,   /* not tried: the server's Retry-After has not passed */
	BR_UPLOAD_OUT_DEFERRED,  /* not tried: its sink failed earlier in this pass, or no
	                            time was left */
	BR_UPLOAD_OUT_BROKEN,    /* its spool file cannot be read: left as it is */
	BR_UPLOAD_OUT_REFUSED,   /* not sent: the current configuration names no sink of its
	                            name, kind and URL; kept, the reason in its last_error */
} br_upload_outcome_kind_t;

typedef struct br_upload_outcome {
	br_upload_outcome_kind_t kind;
	char id[256];
	char sink[80];
	char sink_kind[16];
	unsigned attempts;       /* sends in this pass */
	unsigned total_attempts; /* failed sends over every pass (in the spool file) */
	long status;             /* the last HTTP status, 0 when none came back */
	char message[1024];      /* why, for anything but DELIVERED (tokens redacted) */
	char path[1280];         /* where the item is now (spool or rejected), "" when gone */
} br_upload_outcome_t;

typedef struct br_upload_report {
	br_upload_outcome_t *items; /* owned */
	size_t count;
} br_upload_report_t;

typedef struct br_upload_pass {
	const char *results_dir;
	/* The current configuration: an item goes only to a sink of section with
	 * its name, kind and a URL under the sink's url, with the token source,
	 * authentication, CA file and timeouts of that sink (relative paths
	 * against config_dir), never those its spool file names. NULL: every
	 * item is refused. */
	const br_upload_section_t *section;
	const char *config_dir;
	/* Leave the items of sinks section does not name untouched and out of
	 * the report (another configuration's, e.g. the other suites of a
	 * rack), instead of refusing them. An item that claims a name the
	 * section has, with another kind or URL, is refused either way. */
	bool others_left;
	br_upload_limits_t limits; /* max_total_ms bounds the pass */
	bool force;                /* send items still waiting for a Retry-After too */
	const char *user_agent;
	uint64_t seed; /* jitter; 0: from the clock and the process id */
} br_upload_pass_t;

/*
 * Runs one pass over pass->results_dir's spool and fills *report (free with
 * br_upload_report_free). Returns BR_OK whatever the servers said (read the
 * report); BR_ERR_INFRA when another process is delivering, BR_ERR_INPUT
 * when the spool cannot be listed.
 */
br_status_t br_upload_deliver(const br_upload_pass_t *pass, br_upload_report_t *report,
                              br_error_t *err);

/* Frees what br_upload_deliver put in report and zeroes it. */
void br_upload_report_free(br_upload_report_t *report);

/* How many outcomes of report are of kind. */
size_t br_upload_report_count(const br_upload_report_t *report, br_upload_outcome_kind_t kind);

#endif
