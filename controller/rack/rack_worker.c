#include "rack/rack_worker.h"

#include "results/paths.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "config/board.h"
#include "rack/board_identity.h"
#include "rack/rack_lock.h"
#include "rack/rack_pool.h"
#include "debug/cortex_m.h"
#include "debug/endpoint.h"
#include "run/board_run.h"
#include "run/board_target.h"
#include "run/install_paths.h"

#define WORKER_PATH_BYTES 1024U
#define WORKER_EXIT_REGRESSION 1
#define WORKER_EXIT_INFRA 3
#define WORKER_FIELDS 8U

/* The text of an error for an event line: no tabs, no newlines. */
static void flatten(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	for (; *in != '\0' && n + 1U < cap; in++)
		out[n++] = (*in == '\t' || *in == '\n' || *in == '\r') ? ' ' : *in;
	out[n] = '\0';
}

static void emit_failed(int fd, int suite, const char *reason)
{
	char flat[BR_RACK_REASON_BYTES];
	flatten(reason, flat, sizeof(flat));
	br_rack_pool_emit(fd, "failed\t%d\t%s", suite, flat);
}

static void replace(br_cfg_string_t *field, const char *value)
{
	free(field->value);
	field->value = xstrdup(value);
	field->set = true;
}

/* The board file, with what makes this rack's board unique applied. */
static br_status_t board_load(const br_rack_entry_t *e, br_board_t *board, br_error_t *err)
{
	br_status_t st = br_board_load(e->board_path, board, err);
	if (st != BR_OK)
		return st;
	br_board_server_t *srv = &board->file.server;
	/* the serial number goes to the key that names the probe (OpenOCD's serial) */
	const br_server_kind_t *kind = br_board_server_kind(board);
	for (size_t i = 0; e->serial.set && i < BR_SERVER_LAUNCH_PARAMS; i++) {
		if (kind->keys[i].name != NULL && kind->keys[i].identity == BR_SERVER_KEY_PROBE)
			replace(&srv->params[i], e->serial.value);
	}
	if (e->device.set)
		replace(&srv->device, e->device.value);
	return BR_OK;
}

/* The settings every run of entry e starts from: a board reached at a
 * `remote:` host:port is handed to the runner as that endpoint. */
static void base_settings(const br_rack_worker_options_t *o, const br_rack_entry_t *e,
                          br_run_settings_t *s)
{
	*s = *o->run_base;
	s->progress = NULL;
	s->progress_done = NULL;
	s->load_progress = NULL;
	s->lock = NULL; /* the worker holds the board's lock */
	if (e->remote.set) {
		s->remote_host = e->remote_host;
		s->remote_port = e->remote_port;
	}
}

static const char *suite_elf(const br_suite_t *suite, const char *board)
{
	return suite->firmware_path != NULL ? suite->firmware_path : br_default_firmware(board);
}

/* The health check: reach the board as its file says and identify the core. */
static br_status_t probe_once(const br_rack_worker_options_t *o, const br_rack_entry_t *e,
                              const char *elf, br_error_t *err)
{
	br_board_t board;
	br_status_t st = board_load(e, &board, err);
	if (st != BR_OK)
		return st;
	br_endpoint_t ep;
	br_run_settings_t s;
	base_settings(o, e, &s);
	st = br_run_settings_endpoint(&s, &board, elf, &ep, err);
	if (st == BR_OK) {
		ep.timeout_ms = o->probe_timeout_ms;
		br_session_t session;
		st = br_session_open(&ep, &session, err);
		if (st == BR_OK) {
			br_cortex_m_info_t info;
			memset(&info, 0, sizeof(info));
			st = br_cortex_m_identify(&session.target, &info, err);
			if (st != BR_OK)
				br_session_explain(&session, err);
			br_session_close(&session, false);
		}
	}
	br_board_free(&board);
	return st;
}

/*
 * The name a board's lock is kept under: the hardware's identity (probe
 * serial, host:port, device), shared with `probe` and `measure` at a desk
 * (rack/board_lock.h), or, for an emulated board, the rack entry's name.
 */
static void lock_name(const br_rack_worker_options_t *o, const br_rack_entry_t *e, const char *elf,
                      char *out, size_t cap)
{
	snprintf(out, cap, "%s", e->name.value);
	br_board_t board;
	br_error_t err;
	if (board_load(e, &board, &err) != BR_OK)
		return;
	br_endpoint_t ep;
	char identity[BR_RACK_LOCK_PATH_BYTES];
	br_run_settings_t s;
	base_settings(o, e, &s);
	if (br_run_settings_endpoint(&s, &board, elf, &ep, &err) == BR_OK &&
	    br_board_identity(&ep, identity, sizeof(identity)))
		snprintf(out, cap, "%s", identity);
	br_board_free(&board);
}

static bool retryable(br_status_t st)
{
	return st == BR_ERR_INFRA || st == BR_ERR_TIMEOUT || st == BR_ERR_PROTOCOL ||
	       st == BR_ERR_TARGET;
}

static void on_progress(void *ctx, unsigned index, unsigned count, const char *name)
{
	int fd = *(const int *)ctx;
	br_rack_pool_emit(fd, "bench\t%u\t%u\t%s", index, count, name);
}

/* One try of one suite: what came of it, with the run's path and reason. */
static br_rack_outcome_t suite_once(const br_rack_worker_options_t *o, const br_rack_entry_t *e,
                                    const br_suite_t *suite, int fd, char *run_path, char *reason,
                                    bool *retry)
{
	char results[WORKER_PATH_BYTES], baseline[WORKER_PATH_BYTES];
	snprintf(results, sizeof(results), "%s/racks/%s", o->results_dir, e->name.value);
	br_run_settings_t s;
	base_settings(o, e, &s);
	s.progress = on_progress;
	s.progress_ctx = &fd;
	s.check = true;
	s.suite_path = suite->path;
	s.results_dir = results;
	br_board_run_t run;
	memset(&run, 0, sizeof(run));
	br_error_t err;
	br_error_clear(&err);
	*retry = false;
	if (board_load(e, &run.board, &err) != BR_OK) {
		flatten(err.message, reason, BR_RACK_REASON_BYTES);
		return BR_RACK_INFRA;
	}
	/* baselines are kept per suite and board file, with the rest of the results */
	if (br_results_baseline_path(o->results_dir, suite->name, run.board.name, false, baseline,
	                             sizeof(baseline), NULL) == BR_OK &&
	    access(baseline, F_OK) == 0)
		s.baseline_path = baseline;
	br_board_run_execute(&s, suite, suite_elf(suite, run.board.name), &run);
	if (run.has_run_path)
		snprintf(run_path, BR_RACK_PATH_BYTES, "%s", run.run_path);
	br_rack_outcome_t out = BR_RACK_PASS;
	reason[0] = '\0';
	if (run.status == BR_ERR_REGRESSION) {
		/* a run that ended as a regression (a bench that does not finish
		 * is not one: it is 3, an infrastructure outcome, retried) */
		flatten(run.failure.message, reason, BR_RACK_REASON_BYTES);
		out = BR_RACK_REGRESSION;
	} else if (run.status != BR_OK) {
		flatten(run.failure.message, reason, BR_RACK_REASON_BYTES);
		*retry = retryable(run.status);
		out = BR_RACK_INFRA;
	} else if (run.gated && run.gate.failures > 0) {
		out = BR_RACK_REGRESSION;
		for (size_t k = 0; k < run.gate.count; k++) {
			if (run.gate.findings[k].kind != BR_FINDING_NOT_RUN) {
				flatten(run.gate.findings[k].message, reason, BR_RACK_REASON_BYTES);
				break;
			}
		}
	} else if (run.gated && run.gate.not_run > 0) {
		out = BR_RACK_INFRA;
		*retry = true;
		for (size_t k = 0; k < run.gate.count; k++) {
			if (run.gate.findings[k].kind == BR_FINDING_NOT_RUN) {
				flatten(run.gate.findings[k].message, reason, BR_RACK_REASON_BYTES);
				break;
			}
		}
	}
	br_board_run_free(&run);
	return out;
}

/* Every suite marked with outcome and reason (the board could not be used). */
static void all_suites(int fd, const br_rack_entry_t *e, br_rack_outcome_t outcome,
                       const char *reason)
{
	char flat[BR_RACK_REASON_BYTES];
	flatten(reason, flat, sizeof(flat));
	for (size_t k = 0; k < e->suite_count; k++)
		br_rack_pool_emit(fd, "result\t%zu\t%s\t\t%s", k, br_rack_outcome_key(outcome),
		                  flat);
}

/* The worker's own output (the firmware's console, server messages) goes to
 * RESULTS/racks/<name>.log, not through the parent's live view. */
static void redirect_output(const br_rack_worker_options_t *o, const br_rack_entry_t *e)
{
	char dir[WORKER_PATH_BYTES], path[WORKER_PATH_BYTES + 80U];
	snprintf(dir, sizeof(dir), "%s/racks", o->results_dir);
	mkdir(o->results_dir, 0777);
	mkdir(dir, 0777);
	snprintf(path, sizeof(path), "%s/%s.log", dir, e->name.value);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
}

int br_rack_worker_run(void *ctx, size_t index, int fd)
{
	const br_rack_worker_options_t *o = ctx;
	const br_rack_entry_t *e = &o->rack->entries[index];
	const br_suite_t *const *suites = o->suites + index * BR_RACK_MAX_SUITES;
	redirect_output(o, e);
	br_rack_pool_emit(fd, "started\t%" PRId64, br_rack_lock_now_ms());
	unsigned retries = e->retries.set ? (unsigned)e->retries.value : o->rack->retries;

	br_rack_pool_emit(fd, "state\tlocking");
	br_rack_lock_t lock;
	br_error_t err;
	br_error_clear(&err);
	char name[BR_RACK_LOCK_PATH_BYTES];
	lock_name(o, e, e->suite_count > 0 ? suite_elf(suites[0], e->board.value) : NULL, name,
	          sizeof(name));
	if (br_rack_lock_acquire(o->lock_dir, name, o->lock_wait_ms, &lock, NULL, &err) != BR_OK) {
		char flat[BR_RACK_REASON_BYTES];
		flatten(err.message, flat, sizeof(flat));
		br_rack_pool_emit(fd, "lockbusy\t%s", flat);
		all_suites(fd, e, BR_RACK_NOT_RUN, err.message);
		br_rack_pool_emit(fd, "ended\t%" PRId64, br_rack_lock_now_ms());
		return WORKER_EXIT_INFRA;
	}
	br_rack_pool_emit(fd, "lock\t%ld\t%s\t%" PRId64 "\t%d\t%ld\t%s\t%" PRId64, lock.self.pid,
	                  lock.self.host, lock.self.started_ms, lock.took_over ? 1 : 0,
	                  lock.stale.pid, lock.stale.host[0] != '\0' ? lock.stale.host : "-",
	                  lock.stale.started_ms);

	int code = 0;
	bool healthy = true;
	if (o->probe) {
		br_rack_pool_emit(fd, "state\tprobing");
		br_status_t st = BR_OK;
		for (unsigned a = 0; a <= retries; a++) {
			br_error_clear(&err);
			st = probe_once(
			    o, e, e->suite_count > 0 ? suite_elf(suites[0], e->board.value) : NULL,
			    &err);
			if (st == BR_OK || !retryable(st))
				break;
			if (a < retries)
				emit_failed(fd, -1, err.message);
		}
		char flat[BR_RACK_REASON_BYTES];
		flatten(st == BR_OK ? "ok" : err.message, flat, sizeof(flat));
		br_rack_pool_emit(fd, "probe\t%s\t%s", st == BR_OK ? "ok" : "fail", flat);
		if (st != BR_OK) {
			char why[BR_RACK_REASON_BYTES + 32];
			snprintf(why, sizeof(why), "unhealthy, skipped: %s", flat);
			all_suites(fd, e, BR_RACK_INFRA, why);
			healthy = false;
			code = WORKER_EXIT_INFRA;
		}
	}
	for (size_t k = 0; healthy && k < e->suite_count; k++) {
		char run_path[BR_RACK_PATH_BYTES] = "", reason[BR_RACK_REASON_BYTES] = "";
		br_rack_outcome_t out = BR_RACK_NOT_RUN;
		for (unsigned a = 0; a <= retries; a++) {
			br_rack_pool_emit(fd, "suite\t%zu\t%u\t%s", k, a + 1U, suites[k]->name);
			bool retry = false;
			run_path[0] = '\0';
			out = suite_once(o, e, suites[k], fd, run_path, reason, &retry);
			if (out != BR_RACK_INFRA || !retry)
				break;
			if (a < retries)
				emit_failed(fd, (int)k, reason);
		}
		br_rack_pool_emit(fd, "result\t%zu\t%s\t%s\t%s", k, br_rack_outcome_key(out),
		                  run_path, reason);
		if (out == BR_RACK_REGRESSION)
			code = WORKER_EXIT_REGRESSION;
		else if (out != BR_RACK_PASS && code == 0)
			code = WORKER_EXIT_INFRA;
	}
	br_rack_lock_release(&lock);
	br_rack_pool_emit(fd, "released\t%" PRId64, lock.released_ms);
	br_rack_pool_emit(fd, "ended\t%" PRId64, br_rack_lock_now_ms());
	return code;
}

/* Splits line at tabs into at most WORKER_FIELDS fields (in place). */
static size_t split(char *line, char **fields)
{
	size_t n = 0;
	fields[n++] = line;
	for (char *p = line; *p != '\0' && n < WORKER_FIELDS; p++) {
		if (*p == '\t') {
			*p = '\0';
			fields[n++] = p + 1;
		}
	}
	return n;
}

static void add_attempt(br_rack_attempt_t *list, size_t *count, const char *reason)
{
	if (*count >= BR_RACK_MAX_ATTEMPTS)
		return;
	snprintf(list[*count].reason, sizeof(list[*count].reason), "%s", reason);
	(*count)++;
}

static void state(br_rack_worker_view_t *v, const char *s)
{
	snprintf(v->state, sizeof(v->state), "%s", s);
}

void br_rack_worker_event_apply(const char *text, br_rack_board_result_t *r,
                                br_rack_worker_view_t *v, char *note, size_t note_cap)
{
	char line[BR_RACK_POOL_LINE_BYTES];
	snprintf(line, sizeof(line), "%s", text);
	char *f[WORKER_FIELDS] = {0};
	size_t n = split(line, f);
	note[0] = '\0';
	const char *what = f[0];
	if (strcmp(what, "started") == 0 && n >= 2) {
		r->started_ms = strtoll(f[1], NULL, 10);
	} else if (strcmp(what, "ended") == 0 && n >= 2) {
		r->ended_ms = strtoll(f[1], NULL, 10);
		state(v, "done");
	} else if (strcmp(what, "state") == 0 && n >= 2) {
		state(v, f[1]);
		snprintf(note, note_cap, "%s", f[1]);
	} else if (strcmp(what, "lock") == 0 && n >= 8) {
		r->locked = true;
		r->lock.pid = strtol(f[1], NULL, 10);
		snprintf(r->lock.host, sizeof(r->lock.host), "%s", f[2]);
		r->lock.started_ms = strtoll(f[3], NULL, 10);
		r->took_over = strcmp(f[4], "1") == 0;
		if (r->took_over) {
			r->stale.pid = strtol(f[5], NULL, 10);
			snprintf(r->stale.host, sizeof(r->stale.host), "%s", f[6]);
			r->stale.started_ms = strtoll(f[7], NULL, 10);
			snprintf(note, note_cap,
			         "took over a stale lock of pid %ld on %s (its owner is gone)",
			         r->stale.pid, r->stale.host);
		}
	} else if (strcmp(what, "lockbusy") == 0 && n >= 2) {
		snprintf(note, note_cap, "not run: %s", f[1]);
	} else if (strcmp(what, "released") == 0 && n >= 2) {
		r->released_ms = strtoll(f[1], NULL, 10);
	} else if (strcmp(what, "probe") == 0 && n >= 3) {
		r->probed = true;
		r->healthy = strcmp(f[1], "ok") == 0;
		snprintf(r->probe_reason, sizeof(r->probe_reason), "%s", f[2]);
		snprintf(note, note_cap, "health: %s", f[2]);
	} else if (strcmp(what, "suite") == 0 && n >= 4) {
		size_t k = strtoul(f[1], NULL, 10);
		if (k < r->suite_count)
			r->suites[k].attempts = strtoul(f[2], NULL, 10);
		state(v, "running");
		snprintf(v->suite, sizeof(v->suite), "%s", f[3]);
		v->attempt = (unsigned)strtoul(f[2], NULL, 10);
		v->bench[0] = '\0';
		v->index = v->count = 0;
		snprintf(note, note_cap, "suite %s, attempt %s", f[3], f[2]);
	} else if (strcmp(what, "bench") == 0 && n >= 4) {
		v->index = (unsigned)strtoul(f[1], NULL, 10);
		v->count = (unsigned)strtoul(f[2], NULL, 10);
		snprintf(v->bench, sizeof(v->bench), "%s", f[3]);
	} else if (strcmp(what, "failed") == 0 && n >= 3) {
		long k = strtol(f[1], NULL, 10);
		if (k < 0)
			add_attempt(r->probe_failed, &r->probe_failed_count, f[2]);
		else if ((size_t)k < r->suite_count)
			add_attempt(r->suites[k].failed, &r->suites[k].failed_count, f[2]);
		snprintf(note, note_cap, "%s failed, will retry: %s", k < 0 ? "probe" : "attempt",
		         f[2]);
	} else if (strcmp(what, "result") == 0 && n >= 5) {
		size_t k = strtoul(f[1], NULL, 10);
		if (k >= r->suite_count)
			return;
		br_rack_suite_result_t *s = &r->suites[k];
		if (!br_rack_outcome_parse(f[2], &s->outcome))
			s->outcome = BR_RACK_INFRA;
		snprintf(s->run_path, sizeof(s->run_path), "%s", f[3]);
		snprintf(s->reason, sizeof(s->reason), "%s", f[4]);
		snprintf(note, note_cap, "%s: %s%s%s", s->suite, br_rack_outcome_name(s->outcome),
		         f[4][0] != '\0' ? ": " : "", f[4]);
	}
}
