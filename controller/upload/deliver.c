#include "upload/deliver.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "config/sink_url.h"
#include "upload/http.h"
#include "upload/item.h"
#include "upload/item_json.h"
#include "upload/render.h"
#include "upload/retry.h"
#include "upload/secret.h"
#include "upload/spool.h"
#include "upload/timestamp.h"

#define DELIVER_HEADER_BYTES (BR_UPLOAD_TOKEN_MAX + 256U)
#define DELIVER_KEY_BYTES 400U
#define DELIVER_MS_PER_S 1000
#define DELIVER_NS_PER_MS 1000000L
#define DELIVER_PATH_BYTES (BR_UPLOAD_PATH_BYTES + 256U)

/*
 * A sink's uploads, oldest first. Only the head is in flight: the next one
 * starts when the head is delivered or refused, and when the head is left
 * for a later pass the rest are too (the server is down, or asked to wait).
 * The queues take turns by due time, so one dead server's backoff never
 * holds up another server.
 */
typedef struct sink_queue {
	char *sink;
	char *kind;         /* the kind its first item names, for messages */
	char **ids;         /* owned */
	size_t count, next; /* ids[next] is the head once loaded */
	bool loaded;
	br_upload_item_t item; /* the head */
	br_upload_secret_t secret;
	br_upload_outcome_t out; /* the head's outcome, as it builds up */
	int64_t due_ms;          /* when to send the head (br_clock_ms) */
	bool finished;
} sink_queue_t;

/* What one pass shares between queues. */
typedef struct pass_state {
	const br_upload_pass_t *pass;
	br_upload_spool_t spool;
	int64_t deadline_ms; /* on br_clock_ms() */
	uint64_t random;
	sink_queue_t *queues;
	size_t queue_count;
	br_upload_report_t *report;
} pass_state_t;

/* Appends printf-style text to the outcome's message, cut to fit. */
static void note(br_upload_outcome_t *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(br_upload_outcome_t *o, const char *fmt, ...)
{
	size_t used = strlen(o->message);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->message + used, sizeof(o->message) - used, fmt, ap);
	va_end(ap);
}

static void outcome_start(const pass_state_t *ps, br_upload_outcome_t *o, const char *id,
                          const br_upload_item_t *item)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->id, sizeof(o->id), "%s", id);
	snprintf(o->sink_kind, sizeof(o->sink_kind), "?");
	if (item != NULL) {
		snprintf(o->sink, sizeof(o->sink), "%s", item->sink);
		snprintf(o->sink_kind, sizeof(o->sink_kind), "%s", item->kind);
		o->total_attempts = item->attempts;
	}
	br_upload_spool_path(&ps->spool, false, id, o->path, sizeof(o->path));
}

static void outcome_keep(pass_state_t *ps, const br_upload_outcome_t *o)
{
	br_upload_report_t *r = ps->report;
	r->items = xrealloc(r->items, (r->count + 1U) * sizeof(r->items[0]));
	r->items[r->count++] = *o;
}

static void sleep_until(int64_t due_ms)
{
	int64_t ms = due_ms - br_clock_ms();
	if (ms <= 0)
		return;
	struct timespec ts = {(time_t)(ms / DELIVER_MS_PER_S),
	                      (long)(ms % DELIVER_MS_PER_S) * DELIVER_NS_PER_MS};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

/* The attempt's result in words, tokens redacted, as the outcome's message. */
static void describe(const br_http_response_t *resp, const br_upload_secret_t *secret,
                     br_upload_outcome_t *o)
{
	char *text = xmalloc(BR_HTTP_MESSAGE_BYTES);
	snprintf(text, BR_HTTP_MESSAGE_BYTES, "%s", resp->message);
	br_upload_secret_redact(secret, text, BR_HTTP_MESSAGE_BYTES);
	o->message[0] = '\0';
	if (resp->failure != BR_HTTP_OK)
		note(o, "%s: %s", br_http_failure_name(resp->failure), text);
	else if (resp->location[0] != '\0')
		note(o,
		     "HTTP %ld: redirected to %s (benchrack does not follow redirects: fix the "
		     "sink's url)",
		     resp->status, resp->location);
	else
		note(o, "HTTP %ld%s%s", resp->status, text[0] != '\0' ? ": " : "", text);
	free(text);
	br_upload_secret_redact(secret, o->message, sizeof(o->message));
}

/* Saves the head's attempts and error in the spool; a failure to is noted. */
static void save(pass_state_t *ps, sink_queue_t *q)
{
	br_error_t err;
	br_error_clear(&err);
	if (br_upload_spool_put(&ps->spool, &q->item, &err) != BR_OK)
		note(&q->out, " (and the spool file could not be updated: %s)", err.message);
}

/* The head is settled: its outcome goes into the report and the next
 * upload of the sink becomes the head. */
static void head_done(pass_state_t *ps, sink_queue_t *q, br_upload_outcome_kind_t kind)
{
	q->out.kind = kind;
	outcome_keep(ps, &q->out);
	br_upload_secret_free(&q->secret);
	br_upload_item_free(&q->item);
	q->loaded = false;
	q->next++;
	q->due_ms = br_clock_ms();
	q->finished = q->next >= q->count;
}

/* The head stays for a later pass, and with it the rest of the sink's. */
static void queue_stop(pass_state_t *ps, sink_queue_t *q, br_upload_outcome_kind_t kind,
                       const char *why)
{
	if (q->loaded)
		head_done(ps, q, kind);
	for (; q->next < q->count; q->next++) {
		br_upload_outcome_t o;
		outcome_start(ps, &o, q->ids[q->next], NULL);
		snprintf(o.sink, sizeof(o.sink), "%s", q->sink);
		snprintf(o.sink_kind, sizeof(o.sink_kind), "%s", q->kind);
		o.kind = BR_UPLOAD_OUT_DEFERRED;
		note(&o, "not tried: %s", why);
		outcome_keep(ps, &o);
	}
	q->finished = true;
}

/* The sink of the current configuration called name, or NULL. */
static const br_upload_sink_t *sink_named(const pass_state_t *ps, const char *name)
{
	const br_upload_section_t *section = ps->pass->section;
	for (size_t i = 0; section != NULL && i < section->sinks.count; i++) {
		const br_upload_sink_t *s = br_upload_section_sink(section, i);
		if (strcmp(s->name.value, name) == 0)
			return s;
	}
	return NULL;
}

/*
 * The sink of the current configuration the head goes to: the one with its
 * name, of its kind, whose url the head's URL lies under. Its token source,
 * authentication, CA file and timeouts replace the item's. Otherwise the
 * head is refused (kept, with the reason as its last error) and false.
 */
static bool sink_take(pass_state_t *ps, sink_queue_t *q)
{
	const br_upload_section_t *section = ps->pass->section;
	const br_upload_sink_t *sink = sink_named(ps, q->item.sink);
	const char *kind =
	    sink != NULL ? br_upload_sink_kind_name((br_upload_sink_kind_t)sink->kind.value) : NULL;
	const char *base = sink == NULL    ? NULL
	                   : sink->url.set ? sink->url.value
	                                   : BR_UPLOAD_DEFAULT_BENCHER_URL;
	if (section == NULL)
		note(&q->out, "refused: no upload configuration given, so no sink to send it to "
		              "(give the --suite or --upload-config that spooled it)");
	else if (sink == NULL)
		note(&q->out,
		     "refused: the configuration names no sink '%s' (give the --suite or "
		     "--upload-config that spooled it, or delete the file)",
		     q->item.sink);
	else if (strcmp(kind, q->item.kind) != 0)
		note(&q->out, "refused: sink '%s' is of kind %s in the configuration, not %s",
		     q->item.sink, kind, q->item.kind);
	else if (!br_sink_url_within(base, q->item.url))
		note(&q->out, "refused: its URL %s is not under sink '%s''s url %s", q->item.url,
		     q->item.sink, base);
	else {
		br_upload_render_auth(section, sink, ps->pass->config_dir, &q->item);
		return true;
	}
	br_upload_item_set(&q->item.last_error, q->out.message);
	save(ps, q);
	head_done(ps, q, BR_UPLOAD_OUT_REFUSED);
	return false;
}

/* Reads the head and its token; false when the queue stopped instead. */
static bool head_load(pass_state_t *ps, sink_queue_t *q)
{
	const char *id = q->ids[q->next];
	char path[DELIVER_PATH_BYTES];
	br_upload_spool_path(&ps->spool, false, id, path, sizeof(path));
	br_error_t err;
	br_error_clear(&err);
	if (br_upload_item_read(path, &q->item, &err) != BR_OK) {
		outcome_start(ps, &q->out, id, NULL);
		snprintf(q->out.sink, sizeof(q->out.sink), "%s", q->sink);
		note(&q->out, "%s", err.message);
		q->loaded = true;
		head_done(ps, q, BR_UPLOAD_OUT_BROKEN);
		return false;
	}
	q->loaded = true;
	br_upload_item_set(&q->item.id, id); /* the file's own name, never one it claims */
	outcome_start(ps, &q->out, id, &q->item);
	if (!sink_take(ps, q))
		return false;
	if (!ps->pass->force && q->item.not_before_ms > br_upload_time_now_ms()) {
		char when[32];
		br_upload_time_format(q->item.not_before_ms, when, sizeof(when));
		note(&q->out, "not tried: the server asked to wait until %s (Retry-After)", when);
		queue_stop(ps, q, BR_UPLOAD_OUT_WAITING, "its server asked to wait (Retry-After)");
		return false;
	}
	if (br_upload_secret_load(&q->item, &q->secret, &err) != BR_OK) {
		note(&q->out, "%s", err.message);
		queue_stop(ps, q, BR_UPLOAD_OUT_PENDING, "the sink's token is missing");
		return false;
	}
	q->item.not_before_ms = 0;
	return true;
}

/* The request for the head, bounded by what is left of the pass. */
static void request_of(const pass_state_t *ps, const sink_queue_t *q, const char *const *headers,
                       size_t header_count, br_http_request_t *req)
{
	int64_t remaining = ps->deadline_ms - br_clock_ms();
	if (remaining < 1)
		remaining = 1;
	const br_upload_item_t *item = &q->item;
	memset(req, 0, sizeof(*req));
	req->method = item->method;
	req->url = item->url;
	req->content_type = item->content_type;
	req->headers = headers;
	req->header_count = header_count;
	req->body = item->body;
	req->body_len = item->body_len;
	req->ca_file = item->ca_file;
	/* The proxy as the configuration's sink says (sink_take found it). */
	const br_upload_sink_t *sink = sink_named(ps, item->sink);
	if (sink != NULL && sink->proxy.set)
		req->proxy = sink->proxy.value;
	req->use_env_proxy = sink != NULL && sink->use_env_proxy.set && sink->use_env_proxy.value;
	req->user_agent = ps->pass->user_agent;
	req->connect_timeout_ms =
	    item->connect_timeout_ms < remaining ? item->connect_timeout_ms : (long)remaining;
	req->timeout_ms = item->timeout_ms < remaining ? item->timeout_ms : (long)remaining;
}

/* One HTTP attempt at the head. */
static void attempt(const pass_state_t *ps, const sink_queue_t *q, br_http_response_t *resp)
{
	char *auth = xmalloc(DELIVER_HEADER_BYTES);
	char key[DELIVER_KEY_BYTES];
	snprintf(key, sizeof(key), "Idempotency-Key: %s", q->item.idempotency_key);
	const char *headers[2] = {key, auth};
	bool has_auth = br_upload_secret_header(&q->item, &q->secret, auth, DELIVER_HEADER_BYTES);
	br_http_request_t req;
	request_of(ps, q, headers, has_auth ? 2U : 1U, &req);
	br_upload_secret_credentials(&q->item, &q->secret, &req);
	br_http_perform(&req, resp);
	explicit_bzero(auth, DELIVER_HEADER_BYTES);
	free(auth);
}

/* A failed attempt that may be retried: schedule the next, or stop. */
static void schedule_retry(pass_state_t *ps, sink_queue_t *q, const br_http_response_t *resp)
{
	const br_upload_limits_t *l = &ps->pass->limits;
	if (q->out.attempts >= l->max_attempts) {
		note(&q->out, " (%u attempts in this pass)", q->out.attempts);
		save(ps, q);
		queue_stop(ps, q, BR_UPLOAD_OUT_PENDING, "its server did not take the one before");
		return;
	}
	uint32_t jitter = br_upload_random(&ps->random);
	int64_t wait = resp->retry_after_s > 0
	                   ? (int64_t)resp->retry_after_s * DELIVER_MS_PER_S
	                   : br_upload_backoff_ms(q->out.attempts, l->retry_initial_ms,
	                                          l->retry_max_ms, jitter);
	int64_t now = br_clock_ms();
	if (now + wait < ps->deadline_ms) {
		q->due_ms = now + wait;
		save(ps, q);
		return;
	}
	if (resp->retry_after_s > 0) {
		q->item.not_before_ms = br_upload_time_now_ms() + wait;
		note(&q->out, " (the server asks to wait %ld s)", resp->retry_after_s);
	} else {
		note(&q->out, " (no time left in this pass)");
	}
	save(ps, q);
	queue_stop(ps, q, BR_UPLOAD_OUT_PENDING, "its server did not take the one before");
}

/* Sends the head once and acts on the answer. */
static void step(pass_state_t *ps, sink_queue_t *q)
{
	br_http_response_t *resp = xmalloc(sizeof(*resp));
	attempt(ps, q, resp);
	q->out.attempts++;
	q->out.status = resp->failure == BR_HTTP_OK ? resp->status : 0;
	br_upload_verdict_t verdict = br_upload_classify(resp->failure, resp->status);
	br_error_t err;
	br_error_clear(&err);
	if (verdict == BR_UPLOAD_DELIVERED) {
		free(resp);
		q->out.message[0] = '\0';
		q->out.path[0] = '\0';
		if (br_upload_spool_remove(&ps->spool, q->item.id, &err) != BR_OK)
			note(&q->out, "%s", err.message);
		head_done(ps, q, BR_UPLOAD_OUT_DELIVERED);
		return;
	}
	describe(resp, &q->secret, &q->out);
	q->item.attempts++;
	q->out.total_attempts = q->item.attempts;
	br_upload_item_set(&q->item.last_error, q->out.message);
	if (verdict == BR_UPLOAD_RETRY) {
		schedule_retry(ps, q, resp);
	} else if (verdict == BR_UPLOAD_REJECT) {
		char at[32];
		br_upload_time_format(br_upload_time_now_ms(), at, sizeof(at));
		q->item.rejected_status = q->out.status;
		br_upload_item_set(&q->item.rejected_at, at);
		br_upload_item_set(&q->item.rejected_message, q->out.message);
		br_upload_spool_path(&ps->spool, true, q->item.id, q->out.path,
		                     sizeof(q->out.path));
		if (br_upload_spool_reject(&ps->spool, &q->item, &err) != BR_OK)
			note(&q->out, " (and it could not be moved aside: %s)", err.message);
		head_done(ps, q, BR_UPLOAD_OUT_REJECTED);
	} else {
		save(ps, q);
		queue_stop(ps, q, BR_UPLOAD_OUT_PENDING, "its sink needs fixing first");
	}
	free(resp);
}

/* The queue of sink, made when first met. */
static sink_queue_t *queue_of(pass_state_t *ps, const char *sink)
{
	for (size_t i = 0; i < ps->queue_count; i++) {
		if (strcmp(ps->queues[i].sink, sink) == 0)
			return &ps->queues[i];
	}
	ps->queues = xrealloc(ps->queues, (ps->queue_count + 1U) * sizeof(ps->queues[0]));
	sink_queue_t *q = &ps->queues[ps->queue_count++];
	memset(q, 0, sizeof(*q));
	q->sink = xstrdup(sink);
	return q;
}

/* Sorts the spooled ids into one queue per sink (oldest first in each); an
 * item that cannot be read is reported broken at once. */
static void build_queues(pass_state_t *ps, char **ids, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		char path[DELIVER_PATH_BYTES];
		br_upload_spool_path(&ps->spool, false, ids[i], path, sizeof(path));
		br_upload_item_t item;
		br_error_t err;
		br_error_clear(&err);
		if (br_upload_item_read(path, &item, &err) != BR_OK) {
			br_upload_outcome_t o;
			outcome_start(ps, &o, ids[i], NULL);
			o.kind = BR_UPLOAD_OUT_BROKEN;
			note(&o, "%s", err.message);
			outcome_keep(ps, &o);
			continue;
		}
		if (ps->pass->others_left && sink_named(ps, item.sink) == NULL) {
			br_upload_item_free(&item);
			continue; /* another configuration's: not this pass's business */
		}
		sink_queue_t *q = queue_of(ps, item.sink);
		if (q->kind == NULL)
			q->kind = xstrdup(item.kind);
		q->ids = xrealloc(q->ids, (q->count + 1U) * sizeof(char *));
		q->ids[q->count++] = xstrdup(ids[i]);
		br_upload_item_free(&item);
	}
}

/* The unfinished queue due first, or NULL. */
static sink_queue_t *next_due(pass_state_t *ps)
{
	sink_queue_t *best = NULL;
	for (size_t i = 0; i < ps->queue_count; i++) {
		sink_queue_t *q = &ps->queues[i];
		if (!q->finished && (best == NULL || q->due_ms < best->due_ms))
			best = q;
	}
	return best;
}

static void run_queues(pass_state_t *ps)
{
	int64_t now = br_clock_ms();
	for (size_t i = 0; i < ps->queue_count; i++) {
		ps->queues[i].due_ms = now;
		ps->queues[i].finished = ps->queues[i].count == 0;
	}
	for (;;) {
		sink_queue_t *q = next_due(ps);
		if (q == NULL)
			break;
		if (q->due_ms >= ps->deadline_ms || br_clock_ms() >= ps->deadline_ms) {
			if (q->loaded) {
				note(&q->out, "%sno time left in this pass",
				     q->out.message[0] != '\0' ? "; " : "");
			} else {
				outcome_start(ps, &q->out, q->ids[q->next], NULL);
				snprintf(q->out.sink, sizeof(q->out.sink), "%s", q->sink);
				snprintf(q->out.sink_kind, sizeof(q->out.sink_kind), "%s", q->kind);
				note(&q->out, "not tried: no time left in this pass");
				q->loaded = true;
			}
			queue_stop(ps, q,
			           q->out.attempts > 0 ? BR_UPLOAD_OUT_PENDING
			                               : BR_UPLOAD_OUT_DEFERRED,
			           "no time left in this pass");
			continue;
		}
		sleep_until(q->due_ms);
		if (!q->loaded && !head_load(ps, q))
			continue;
		step(ps, q);
	}
}

br_status_t br_upload_deliver(const br_upload_pass_t *pass, br_upload_report_t *report,
                              br_error_t *err)
{
	memset(report, 0, sizeof(*report));
	pass_state_t ps;
	memset(&ps, 0, sizeof(ps));
	ps.pass = pass;
	ps.report = report;
	ps.deadline_ms = br_clock_ms() + pass->limits.max_total_ms;
	ps.random =
	    pass->seed != 0 ? pass->seed : ((uint64_t)br_clock_ns() ^ ((uint64_t)getpid() << 32));
	br_status_t st = br_upload_spool_open(&ps.spool, pass->results_dir, false, err);
	char **ids = NULL;
	size_t count = 0;
	if (st == BR_OK)
		st = br_upload_spool_list(&ps.spool, false, &ids, &count, err);
	if (st == BR_OK && count > 0) {
		/* the list again under the lock: another pass may have just finished */
		st = br_upload_spool_lock(&ps.spool, err);
		br_upload_spool_ids_free(ids, count);
		ids = NULL;
		count = 0;
		if (st == BR_OK)
			st = br_upload_spool_list(&ps.spool, false, &ids, &count, err);
	}
	if (st == BR_OK) {
		build_queues(&ps, ids, count);
		run_queues(&ps);
	}
	br_upload_spool_unlock(&ps.spool);
	br_upload_spool_ids_free(ids, count);
	for (size_t i = 0; i < ps.queue_count; i++) {
		free(ps.queues[i].sink);
		free(ps.queues[i].kind);
		br_upload_spool_ids_free(ps.queues[i].ids, ps.queues[i].count);
	}
	free(ps.queues);
	return st;
}

void br_upload_report_free(br_upload_report_t *report)
{
	free(report->items);
	memset(report, 0, sizeof(*report));
}

size_t br_upload_report_count(const br_upload_report_t *report, br_upload_outcome_kind_t kind)
{
	size_t n = 0;
	for (size_t i = 0; i < report->count; i++)
		n += report->items[i].kind == kind;
	return n;
}
