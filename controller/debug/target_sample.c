/*
 * The profiler's per-halt read-and-resume (debug/target_sample.h).
 */
#include "debug/target_sample.h"

#include <stdio.h>
#include <string.h>

#include "rsp/hex.h"
#include "rsp/quote.h"
#include "rsp/stop_reply.h"
#include "debug/target_private.h"

/* A g reply carries at least r0..r15, 8 hex digits each, first. */
#define SAMPLE_G_CORE_HEX (16U * 8U)

/* Whether g's first 16 registers are r0..r15 (the description numbers them 0..15). */
static bool g_layout_known(const br_target_t *t)
{
	for (unsigned i = 0; i < 16U; i++)
		if (br_target_regnum(t, i) != i)
			return false;
	return true;
}

static br_status_t parse_g(const char *reply, size_t len, br_target_regs_t *regs, br_error_t *err)
{
	memset(regs, 0, sizeof(*regs));
	if (len < SAMPLE_G_CORE_HEX)
		return br_error_set(err,
		                    len >= 1U && reply[0] == 'E' ? BR_ERR_TARGET : BR_ERR_PROTOCOL,
		                    "reading the registers (g): a reply of %zu characters, not "
		                    "r0..r15",
		                    len);
	const char *cursor = reply;
	for (unsigned i = 0; i < 16U; i++)
		if (!rsp_hex_le_u32(&cursor, reply + len, &regs->r[i]))
			return br_error_set(err, BR_ERR_PROTOCOL,
			                    "reading the registers (g): register %u is not hex", i);
	return BR_OK;
}

static const char *resume_packet(br_target_sample_resume_t r)
{
	return r == BR_TARGET_SAMPLE_CONTINUE ? "c" : r == BR_TARGET_SAMPLE_STEP ? "s" : NULL;
}

static void note_resume(br_target_t *t, br_target_sample_resume_t r)
{
	if (r == BR_TARGET_SAMPLE_STAY)
		return;
	t->running = true;
	t->stepping = r == BR_TARGET_SAMPLE_STEP;
	br_target_forget_halt(t);
}

/* One request at a time: a server that waits for acknowledgements. */
static br_status_t sample_sequential(br_target_t *t, br_target_sample_t *s, br_error_t *err)
{
	br_status_t st = br_target_regs_read(t, &s->regs, err);
	for (size_t i = 0; st == BR_OK && i < s->nwindows; i++) {
		br_target_sample_window_t *w = &s->windows[i];
		br_error_t ignored;
		w->ok = br_target_mem_read(t, w->address, w->buf, w->len, &ignored) == BR_OK;
		if (!w->ok && !rsp_client_usable(t->rsp))
			return br_error_set(err, ignored.status, "%s", ignored.message);
	}
	const char *packet = resume_packet(s->resume);
	if (st == BR_OK && packet != NULL) {
		st = rsp_client_send(t->rsp, packet, 1, err);
		if (st == BR_OK)
			note_resume(t, s->resume);
	}
	return st;
}

/* The replies of the pipelined sample, decoded as they come; with
 * stop_first, reply 0 is the interrupt's stop reply. */
typedef struct sample_replies {
	br_target_t *t;
	br_target_sample_t *s;
	bool stop_first;
} sample_replies_t;

/* The stop reply that leads a one-write sample: a signal stop, noted. */
static br_status_t on_stop_reply(br_target_t *t, const char *reply, size_t len, br_error_t *err)
{
	br_status_t st = rsp_stop_reply_parse(reply, len, t->stop, err);
	if (st != BR_OK)
		return br_error_prefix(err, "stopping the target to sample it");
	if (t->stop->kind == RSP_STOP_SIGNAL) {
		br_target_note_stop(t, t->stop);
		return BR_OK;
	}
	char q[RSP_QUOTE_BUFFER_BYTES];
	return br_error_set(err, BR_ERR_TARGET,
	                    "stopping the target to sample it: the server answered %s, not "
	                    "a stop (a program that ends, uses semihosting or prints to the "
	                    "console cannot be sampled in one write)",
	                    rsp_quote(reply, len, q, sizeof(q)));
}

static br_status_t on_reply(void *ctx, size_t index, const char *reply, size_t len, br_error_t *err)
{
	sample_replies_t *r = ctx;
	br_target_sample_t *s = r->s;
	if (r->stop_first) {
		if (index == 0)
			return on_stop_reply(r->t, reply, len, err);
		index--;
	}
	if (index == 0)
		return parse_g(reply, len, &s->regs, err);
	br_target_sample_window_t *w = &s->windows[index - 1U];
	w->ok = len > 0 && reply[0] != 'E';
	if (!w->ok)
		return BR_OK;
	return br_target_read_reply(reply, len, w->address, w->len, w->buf, err);
}

/* Whether the sample's requests may go in one write. */
static bool sample_pipelines(const br_target_t *t)
{
	return (rsp_client_no_ack(t->rsp) || t->flavour->pipelines_in_ack_mode) &&
	       g_layout_known(t);
}

/* The requests in one write (led by the interrupt when stop_first), their
 * replies decoded as they come. */
static br_status_t sample_pipelined(br_target_t *t, br_target_sample_t *s, bool stop_first,
                                    br_error_t *err)
{
	char packets[2U + BR_TARGET_SAMPLE_WINDOWS][48];
	const char *requests[2U + BR_TARGET_SAMPLE_WINDOWS];
	size_t n = 0;
	snprintf(packets[n++], sizeof(packets[0]), "g");
	for (size_t i = 0; i < s->nwindows; i++)
		br_target_read_packet(packets[n++], sizeof(packets[0]), s->windows[i].address,
		                      s->windows[i].len);
	const char *packet = resume_packet(s->resume);
	if (packet != NULL)
		snprintf(packets[n++], sizeof(packets[0]), "%s", packet);
	for (size_t i = 0; i < n; i++)
		requests[i] = packets[i];
	sample_replies_t ctx = {t, s, stop_first};
	br_status_t st = stop_first ? rsp_client_interrupt_pipeline_each(
	                                  t->rsp, requests, n, packet != NULL, on_reply, &ctx, err)
	                            : rsp_client_pipeline_each(t->rsp, requests, n, packet != NULL,
	                                                       on_reply, &ctx, err);
	if (packet != NULL)
		note_resume(t, s->resume); /* sent, whatever the replies said */
	return st;
}

/* The checks before anything is sent. */
static br_status_t sample_check(const br_target_t *t, const br_target_sample_t *s, br_error_t *err)
{
	if (s->nwindows > BR_TARGET_SAMPLE_WINDOWS)
		return br_error_set(err, BR_ERR_USAGE, "at most %u memory windows per sample",
		                    BR_TARGET_SAMPLE_WINDOWS);
	if (s->resume != BR_TARGET_SAMPLE_STAY && t->pc_known &&
	    !t->flavour->steps_over_breakpoints && br_target_breakpoint_index(t, t->pc) >= 0)
		return br_error_set(err, BR_ERR_USAGE,
		                    "resuming from the inserted breakpoint at 0x%08x would stop "
		                    "there again: remove it first",
		                    t->pc);
	return BR_OK;
}

br_status_t br_target_sample(br_target_t *t, br_target_sample_t *s, br_error_t *err)
{
	br_status_t st = sample_check(t, s, err);
	if (st != BR_OK)
		return st;
	if (!sample_pipelines(t))
		return sample_sequential(t, s, err);
	return sample_pipelined(t, s, false, err);
}

br_status_t br_target_sample_running(br_target_t *t, br_target_sample_t *s, int timeout_ms,
                                     br_error_t *err)
{
	/* A resent request's reply may still come (rsp_client_stale(t->rsp)): stop first, so
	 * the next request can put the replies back in step. */
	if (!t->running || !t->flavour->packets_follow_interrupt || !sample_pipelines(t) ||
	    rsp_client_stale(t->rsp) > 0) {
		br_status_t st = br_target_halt(t, timeout_ms, err);
		if (st != BR_OK)
			return st;
		return br_target_sample(t, s, err);
	}
	br_status_t st = sample_check(t, s, err);
	if (st != BR_OK)
		return st;
	return sample_pipelined(t, s, true, err);
}
