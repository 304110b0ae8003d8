#include "upload/upload_run.h"

#include <stdio.h>

#include "common/escape.h"
#include "upload/enqueue.h"
#include "upload/spool.h"
#include "upload/item_json.h"
#include "upload/item.h"

const char *br_upload_run_user_agent(void)
{
	return "benchrack/" BENCHRACK_VERSION;
}

size_t br_upload_run_enqueue(const br_upload_section_t *section, const char *config_dir,
                             const char *results_dir, const char *const *run_files, size_t count,
                             bool *failed, FILE *log)
{
	*failed = false;
	if (section == NULL || count == 0)
		return 0;
	br_error_t err;
	br_error_clear(&err);
	br_upload_spool_t sp;
	if (br_upload_spool_open(&sp, results_dir, true, &err) != BR_OK) {
		fprintf(log, "benchrack: upload: nothing spooled: %s\n", err.message);
		*failed = true;
		return 0;
	}
	size_t total = 0;
	for (size_t i = 0; i < count; i++) {
		size_t n = 0;
		br_error_clear(&err);
		if (br_upload_enqueue(&sp, section, config_dir, run_files[i], &n, &err) != BR_OK) {
			fprintf(log, "benchrack: upload: %s not spooled: %s\n", run_files[i],
			        err.message);
			*failed = true;
		}
		total += n;
	}
	return total;
}

void br_upload_run_print(const br_upload_report_t *report, FILE *log)
{
	for (size_t i = 0; i < report->count; i++) {
		const br_upload_outcome_t *o = &report->items[i];
		/* a spool file's words and a server's, escaped: either may be hostile */
		char name[BR_ESCAPE_BYTES(sizeof(o->sink))];
		char kind[BR_ESCAPE_BYTES(sizeof(o->sink_kind))];
		char message[BR_ESCAPE_BYTES(sizeof(o->message))];
		br_escape_text(o->message, message, sizeof(message));
		char id[BR_ESCAPE_BYTES(sizeof(o->id))]; /* a file's name, planted or not */
		br_escape_text(o->id, id, sizeof(id));
		char where[BR_ESCAPE_BYTES(sizeof(o->path))];
		br_escape_text(o->path, where, sizeof(where));
		char sink[sizeof(name) + sizeof(kind) + 8U] = "";
		if (o->sink[0] != '\0')
			snprintf(sink, sizeof(sink),
			         "%s (%s): ", br_escape_text(o->sink, name, sizeof(name)),
			         br_escape_text(o->sink_kind, kind, sizeof(kind)));
		switch (o->kind) {
		case BR_UPLOAD_OUT_DELIVERED:
			fprintf(log, "benchrack: upload: %sdelivered %s\n", sink, id);
			break;
		case BR_UPLOAD_OUT_REJECTED:
			fprintf(log,
			        "benchrack: upload: %sREJECTED %s: %s; not retried: kept aside in "
			        "%s for a person\n",
			        sink, id, message, where);
			break;
		case BR_UPLOAD_OUT_PENDING:
		case BR_UPLOAD_OUT_WAITING:
		case BR_UPLOAD_OUT_DEFERRED:
			fprintf(log,
			        "benchrack: upload: %snot delivered yet %s (%u attempt%s so far): "
			        "%s; kept in %s, `benchrack upload` retries it\n",
			        sink, id, o->total_attempts, o->total_attempts == 1 ? "" : "s",
			        message, where);
			break;
		case BR_UPLOAD_OUT_REFUSED:
			fprintf(log, "benchrack: upload: %sNOT SENT %s: %s; kept in %s\n", sink, id,
			        message, where);
			break;
		case BR_UPLOAD_OUT_BROKEN:
			fprintf(log, "benchrack: upload: %s cannot be read: %s; left as it is\n",
			        where, message);
			break;
		}
	}
}

void br_upload_run_after(const br_upload_config_t *config, const br_suite_t *suite,
                         const char *results_dir, const char *const *run_files, size_t count,
                         FILE *log)
{
	const br_upload_section_t *section = NULL;
	const char *config_dir = NULL;
	if (config != NULL) {
		section = &config->section;
		config_dir = config->dir;
	} else if (suite != NULL && suite->file.upload.head.set) {
		section = &suite->file.upload;
		config_dir = suite->dir;
	}
	if (section == NULL)
		return; /* no sinks: nothing in the spool may be sent on this run's word */
	bool failed = false;
	br_upload_run_enqueue(section, config_dir, results_dir, run_files, count, &failed, log);
	br_upload_pass_t pass = {
	    .results_dir = results_dir,
	    .section = section,
	    .config_dir = config_dir,
	    .others_left = true, /* other suites' uploads wait for their own runs */
	    .limits = br_upload_section_limits(section),
	    .user_agent = br_upload_run_user_agent(),
	};
	br_upload_report_t report;
	br_error_t err;
	br_error_clear(&err);
	if (br_upload_deliver(&pass, &report, &err) != BR_OK)
		fprintf(log, "benchrack: upload: %s\n", err.message);
	br_upload_run_print(&report, log);
	br_upload_report_free(&report);
}

void br_upload_run_list(const br_upload_spool_t *sp, bool rejected, FILE *out, FILE *log)
{
	char **ids = NULL;
	size_t count = 0;
	br_error_t err;
	br_error_clear(&err);
	if (br_upload_spool_list(sp, rejected, &ids, &count, &err) != BR_OK) {
		fprintf(log, "benchrack: %s\n", err.message);
		return;
	}
	fprintf(out, "%s: %zu\n", rejected ? sp->rejected_dir : sp->spool_dir, count);
	for (size_t i = 0; i < count; i++) {
		char path[BR_UPLOAD_PATH_BYTES + 256U];
		br_upload_spool_path(sp, rejected, ids[i], path, sizeof(path));
		br_upload_item_t item;
		/* a spool file's name and words, escaped: it may have been planted */
		fputs("  ", out);
		br_escape_text_write(out, ids[i]);
		if (br_upload_item_read(path, &item, &err) != BR_OK) {
			fputs(": cannot be read: ", out);
			br_escape_text_write(out, err.message);
			fputc('\n', out);
			continue;
		}
		fputs(": ", out);
		br_escape_text_write(out, item.sink);
		fputs(" (", out);
		br_escape_text_write(out, item.kind);
		fputs(") ", out);
		br_escape_text_write(out, item.method);
		fputc(' ', out);
		br_escape_text_write(out, item.url);
		fprintf(out, ", %u attempt%s", item.attempts, item.attempts == 1 ? "" : "s");
		if (rejected) {
			fprintf(out, ", refused with HTTP %ld: ", item.rejected_status);
			br_escape_text_write(
			    out, item.rejected_message != NULL ? item.rejected_message : "");
		} else if (item.last_error != NULL) {
			fputs(", last: ", out);
			br_escape_text_write(out, item.last_error);
		}
		fputc('\n', out);
		br_upload_item_free(&item);
	}
	br_upload_spool_ids_free(ids, count);
}
