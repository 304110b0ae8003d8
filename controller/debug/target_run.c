/*
 * Run control: resume (with step-over), step, halt, stop replies with the
 * console and File-I/O requests that come while the target runs (GDB manual,
 * "Stop Reply Packets", "File-I/O Remote Protocol Extension", "Interrupts"),
 * and the pipelined per-halt batch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsp/hex.h"
#include "rsp/quote.h"
#include "rsp/request.h"
#include "debug/target.h"
#include "debug/target_private.h"

/* File-I/O errno values (GDB manual, "Errno Values"), sent in hex. */
#define FILEIO_EBADF 9U
#define FILEIO_ENOSYS 88U
/* Bytes read per memory request while copying a semihosting write. */
#define FILEIO_COPY_CHUNK 1024U

static br_status_t send_resume(br_target_t *t, const char *packet, br_error_t *err)
{
	br_status_t st = rsp_client_send(&t->rsp, packet, strlen(packet), err);
	if (st != BR_OK)
		return st;
	t->running = true;
	t->stepping = packet[0] == 's';
	br_target_forget_halt(t);
	return BR_OK;
}

br_status_t br_target_step(br_target_t *t, br_error_t *err)
{
	br_status_t st = send_resume(t, "s", err);
	if (st != BR_OK)
		return st;
	return br_target_wait_stop(t, t->rsp.timeout_ms, NULL, err);
}

br_status_t br_target_resume(br_target_t *t, br_error_t *err)
{
	br_status_t st;
	if (!t->flavour->steps_over_breakpoints && t->breakpoint_count > 0) {
		uint32_t pc = 0;
		st = br_target_pc(t, &pc, err);
		if (st != BR_OK)
			return st;
		int i = br_target_breakpoint_index(t, pc);
		if (i >= 0) {
			br_breakpoint_kind_t kind = t->breakpoints[i].kind;
			st = br_target_breakpoint_remove(t, pc, err);
			if (st == BR_OK)
				st = br_target_step(t, err);
			if (st == BR_OK)
				st = br_target_breakpoint_insert(t, pc, kind, err);
			if (st != BR_OK)
				return br_error_prefix(
				    err, "stepping over the breakpoint at 0x%08x", pc);
		}
	}
	return send_resume(t, "c", err);
}

br_status_t br_target_halt(br_target_t *t, int timeout_ms, br_error_t *err)
{
	if (!t->running)
		return BR_OK;
	br_status_t st = rsp_client_interrupt(&t->rsp, err);
	if (st != BR_OK)
		return st;
	return br_target_wait_stop(t, timeout_ms, NULL, err);
}

/* Copies a semihosting write (fd, addr, len) from target memory to the output. */
static br_status_t fileio_write(br_target_t *t, const rsp_stop_reply_t *stop, char *reply,
                                size_t cap, br_error_t *err)
{
	uint32_t fd = stop->fileio.args[0].value;
	uint32_t addr = stop->fileio.args[1].value;
	uint32_t len = stop->fileio.args[2].value;
	if (fd != 1U && fd != 2U) {
		snprintf(reply, cap, "F-1,%x", FILEIO_EBADF);
		return BR_OK;
	}
	char text[FILEIO_COPY_CHUNK];
	for (uint32_t done = 0; done < len;) {
		uint32_t n = len - done < sizeof(text) ? len - done : (uint32_t)sizeof(text);
		br_status_t st = br_target_mem_read(t, addr + done, text, n, err);
		if (st != BR_OK)
			return br_error_prefix(err, "copying the firmware's output");
		if (t->output != NULL)
			t->output(t->output_ctx, (int)fd, text, n);
		done += n;
	}
	snprintf(reply, cap, "F%x", len);
	return BR_OK;
}

/* Answers a File-I/O request; the target stays halted until the answer. */
static br_status_t answer_fileio(br_target_t *t, const rsp_stop_reply_t *stop, br_error_t *err)
{
	char reply[32];
	const char *name = stop->fileio.name;
	br_status_t st = BR_OK;
	if (strcmp(name, "write") == 0 && stop->fileio.argc >= 3U) {
		st = fileio_write(t, stop, reply, sizeof(reply), err);
	} else if (strcmp(name, "isatty") == 0 && stop->fileio.argc >= 1U) {
		snprintf(reply, sizeof(reply), "F%d", stop->fileio.args[0].value <= 2U ? 1 : 0);
	} else {
		/* Not offered: -1 with ENOSYS ("Protocol-specific Representation of Datatypes"). */
		snprintf(reply, sizeof(reply), "F-1,%x", FILEIO_ENOSYS);
	}
	if (st != BR_OK)
		return st;
	return send_resume(t, reply, err);
}

/* Waits for the stop (poll: silence is BR_ERR_TIMEOUT, session intact). */
static br_status_t wait_stop(br_target_t *t, int timeout_ms, bool poll, rsp_stop_reply_t *stop,
                             br_error_t *err)
{
	if (stop == NULL)
		stop = t->stop;
	for (;;) {
		const char *payload;
		size_t len;
		br_status_t st = poll ? rsp_client_poll(&t->rsp, timeout_ms, &payload, &len, err)
		                      : rsp_client_receive(&t->rsp, timeout_ms, &payload, &len, err);
		if (st != BR_OK) {
			if (st == BR_ERR_TIMEOUT)
				br_error_prefix(err, "the target did not stop within %d ms",
				                timeout_ms);
			return st;
		}
		st = rsp_stop_reply_parse(payload, len, stop, err);
		if (st != BR_OK)
			return st;
		switch (stop->kind) {
		case RSP_STOP_OUTPUT:
			if (t->output != NULL && stop->output.len > 0)
				t->output(t->output_ctx, 1, stop->output.text, stop->output.len);
			continue;
		case RSP_STOP_FILEIO:
			t->running = false;
			st = answer_fileio(t, stop, err);
			if (st != BR_OK)
				return st;
			continue;
		case RSP_STOP_EXITED:
		case RSP_STOP_TERMINATED:
		{
			/* The server's own words; the session is over (QEMU closes it
			 * next): nothing is to be put back in step after this. */
			char q[RSP_QUOTE_BUFFER_BYTES];
			t->running = false;
			t->exited = true;
			t->exit_code = (int)stop->code;
			br_error_set(err, BR_ERR_TARGET,
			             "the server said the program ended (%s %d, reply %s) instead of "
			             "stopping; was the server shut down?",
			             stop->kind == RSP_STOP_EXITED ? "exit code" : "signal",
			             (int)stop->code, rsp_quote(payload, len, q, sizeof(q)));
			rsp_client_end(&t->rsp, err);
			return BR_ERR_TARGET;
		}
		case RSP_STOP_ERROR: {
			char q[RSP_QUOTE_BUFFER_BYTES];
			return br_error_set(err, BR_ERR_TARGET, "the server reported an error: %s",
			                    rsp_quote(payload, len, q, sizeof(q)));
		}
		case RSP_STOP_SIGNAL:
			br_target_note_stop(t, stop);
			return BR_OK;
		}
	}
}

br_status_t br_target_wait_stop(br_target_t *t, int timeout_ms, rsp_stop_reply_t *stop,
                                br_error_t *err)
{
	return wait_stop(t, timeout_ms, false, stop, err);
}

br_status_t br_target_poll_stop(br_target_t *t, int timeout_ms, rsp_stop_reply_t *stop,
                                br_error_t *err)
{
	return wait_stop(t, timeout_ms, true, stop, err);
}

/* Whether the core, at pc after the batch's breakpoint changes, would resume
 * from an inserted breakpoint on a server that does not step over them. */
static bool resumes_on_breakpoint(const br_target_t *t, uint32_t pc)
{
	return !t->flavour->steps_over_breakpoints && br_target_breakpoint_index(t, pc) >= 0;
}

/* The batch one request at a time (a server that waits for acknowledgements). */
static br_status_t batch_sequential(br_target_t *t, br_target_batch_t *b, br_error_t *err)
{
	br_status_t st = BR_OK;
	b->sent = true;
	if (b->read_pc)
		st = br_target_pc(t, &b->pc, err);
	for (size_t i = 0; st == BR_OK && i < b->nregs; i++)
		st = br_target_reg_read(t, b->regs[i], &b->reg_values[i], err);
	for (size_t i = 0; st == BR_OK && i < b->nreads; i++)
		st = br_target_mem_read(t, b->reads[i].address, b->reads[i].buf, b->reads[i].len,
		                        err);
	if (st == BR_OK && b->fill_len > 0) {
		st = br_target_mem_fill(t, b->fill_address, b->fill_value, b->fill_len, err);
		b->fill_refused = st == BR_ERR_TARGET;
	}
	for (size_t i = 0; st == BR_OK && i < b->nremove; i++)
		st = br_target_breakpoint_remove(t, b->remove[i], err);
	for (size_t i = 0; st == BR_OK && i < b->ninsert; i++)
		st = br_target_breakpoint_insert(t, b->insert[i], BR_BREAKPOINT_AUTO, err);
	if (st != BR_OK || b->hold)
		return st;
	if (t->pc_known && resumes_on_breakpoint(t, t->pc))
		return br_error_set(err, BR_ERR_USAGE,
		                    "resuming from the inserted breakpoint at 0x%08x would stop "
		                    "there again: remove it in the batch",
		                    t->pc);
	return send_resume(t, "c", err);
}

/* The breakpoint table as it will be once the batch's changes have run;
 * kinds[] receives each change's kind, removes first. */
static void batch_book_breakpoints(br_target_t *t, const br_target_batch_t *b,
                                   br_breakpoint_kind_t *kinds)
{
	size_t n = 0;
	for (size_t i = 0; i < b->nremove; i++) {
		int k = br_target_breakpoint_index(t, b->remove[i] & ~1U);
		kinds[n++] = k >= 0 ? t->breakpoints[k].kind : BR_BREAKPOINT_SOFTWARE;
		if (k >= 0)
			t->breakpoints[k] = t->breakpoints[--t->breakpoint_count];
	}
	for (size_t i = 0; i < b->ninsert; i++) {
		uint32_t a = b->insert[i] & ~1U;
		kinds[n] = br_target_breakpoint_kind(t, a, BR_BREAKPOINT_AUTO);
		if (br_target_breakpoint_index(t, a) < 0) {
			t->breakpoints[t->breakpoint_count].address = a;
			t->breakpoints[t->breakpoint_count].kind = kinds[n];
			t->breakpoint_count++;
		}
		n++;
	}
}

/* The part of a batch's fill its one write carries: M requests of chunk
 * bytes each (the last may be shorter) from address, len bytes in all. */
typedef struct batch_fill {
	char *requests[RSP_PIPELINE_MAX];
	size_t count;
	uint32_t address;
	size_t len, chunk;
} batch_fill_t;

/* Checks and decodes the replies of a pipelined batch (requests[0..n)),
 * whose fill's requests begin at first_fill. */
static br_status_t batch_replies(br_target_t *t, br_target_batch_t *b, bool ask_pc,
                                 const char *const *requests, size_t n, size_t first_fill,
                                 const batch_fill_t *fill, const rsp_pipeline_reply_t *replies,
                                 br_error_t *err)
{
	size_t r = 0;
	br_status_t st = BR_OK;
	if (ask_pc) {
		st = br_target_reg_reply(replies[r].text, replies[r].len, BR_TARGET_REG_PC, &b->pc,
		                         err);
		r++;
	}
	for (size_t i = 0; st == BR_OK && i < b->nregs; i++, r++)
		st = br_target_reg_reply(replies[r].text, replies[r].len, b->regs[i],
		                         &b->reg_values[i], err);
	for (size_t i = 0; st == BR_OK && i < b->nreads; i++, r++)
		st = br_target_read_reply(replies[r].text, replies[r].len, b->reads[i].address,
		                          b->reads[i].len, b->reads[i].buf, err);
	if (st != BR_OK)
		return st;
	for (; r < n; r++) {
		size_t k = r - first_fill;
		if (r >= first_fill && k < fill->count) {
			size_t at = k * fill->chunk;
			size_t len = fill->len - at < fill->chunk ? fill->len - at : fill->chunk;
			st = br_target_write_reply(replies[r].text, replies[r].len,
			                           fill->address + (uint32_t)at, len, err);
			if (st != BR_OK) {
				b->fill_refused = true;
				return br_error_prefix(err, "filling memory in the resuming write");
			}
			continue;
		}
		st = br_target_expect_ok(requests[r], replies[r].text, replies[r].len, err);
		if (st != BR_OK)
			return br_error_prefix(err, "pipelined breakpoint change");
	}
	if (ask_pc && !b->hold && resumes_on_breakpoint(t, b->pc))
		return br_error_set(
		    err, BR_ERR_USAGE,
		    "resumed from the inserted breakpoint at 0x%08x: the core stops "
		    "there again at once",
		    b->pc);
	return BR_OK;
}

static br_status_t batch_pipelined(br_target_t *t, br_target_batch_t *b,
                                   const batch_fill_t *fill, br_error_t *err);

br_status_t br_target_resume_batch(br_target_t *t, br_target_batch_t *b, br_error_t *err)
{
	b->sent = false;
	b->fill_refused = false;
	size_t total = (b->read_pc ? 1U : 0U) + b->nregs + b->nreads + b->nremove + b->ninsert +
	               (b->hold ? 0U : 1U);
	bool too_big = b->nregs > BR_TARGET_BATCH_REGS || b->nreads > BR_TARGET_BATCH_READS ||
	               total == 0 || total > RSP_PIPELINE_MAX;
	for (size_t i = 0; !too_big && i < b->nreads; i++)
		too_big = b->reads[i].len == 0 || b->reads[i].len > BR_TARGET_BATCH_READ_MAX;
	if (too_big)
		return br_error_set(err, BR_ERR_USAGE, "batch too large");
	/* Set-up checks before anything is sent. */
	br_status_t st =
	    br_target_breakpoints_check(t, b->insert, b->ninsert, BR_BREAKPOINT_AUTO, err);
	if (st != BR_OK)
		return st;
	if (!t->rsp.no_ack && !t->flavour->pipelines_in_ack_mode)
		return batch_sequential(t, b, err);

	/* The fill's chunks that fit this write after the rest; what does not,
	 * filled first on its own. */
	uint32_t fill_at = b->fill_address;
	size_t fill_left = b->fill_len;
	size_t chunk = br_target_fill_chunk(t);
	size_t in_write = chunk * (RSP_PIPELINE_MAX - total);
	if (fill_left > in_write) {
		size_t head = fill_left - in_write;
		b->sent = true;
		st = br_target_mem_fill(t, fill_at, b->fill_value, head, err);
		b->fill_refused = st == BR_ERR_TARGET;
		if (st != BR_OK)
			return st;
		fill_at += (uint32_t)head;
		fill_left -= head;
	}
	batch_fill_t fill = {.address = fill_at, .len = fill_left, .chunk = chunk};
	for (; fill_left > 0; fill.count++) {
		size_t k = fill_left < chunk ? fill_left : chunk;
		fill.requests[fill.count] = br_target_fill_request(fill_at, b->fill_value, k);
		fill_at += (uint32_t)k;
		fill_left -= k;
	}
	st = batch_pipelined(t, b, &fill, err);
	for (size_t i = 0; i < fill.count; i++)
		free(fill.requests[i]);
	return st;
}

/* br_target_resume_batch's one write, with the part of its fill it carries. */
static br_status_t batch_pipelined(br_target_t *t, br_target_batch_t *b,
                                   const batch_fill_t *fill, br_error_t *err)
{
	br_status_t st = BR_OK;
	char packets[RSP_PIPELINE_MAX][48];
	const char *requests[RSP_PIPELINE_MAX];
	br_breakpoint_kind_t kinds[RSP_PIPELINE_MAX];
	size_t n = 0;
	/* The PC of this halt: cached (stop reply, earlier read, inference) or asked. */
	bool ask_pc = b->read_pc && !t->pc_known;
	if (b->read_pc && t->pc_known)
		b->pc = t->pc;
	if (ask_pc) {
		const uint64_t regnum = br_target_regnum(t, BR_TARGET_REG_PC);
		rsp_hex_request('p', &regnum, 1, packets[n++], sizeof(packets[0]));
	}
	for (size_t i = 0; i < b->nregs; i++) {
		const uint64_t regnum = br_target_regnum(t, b->regs[i]);
		rsp_hex_request('p', &regnum, 1, packets[n++], sizeof(packets[0]));
	}
	for (size_t i = 0; i < b->nreads; i++)
		br_target_read_packet(packets[n++], sizeof(packets[0]), b->reads[i].address,
		                      b->reads[i].len);
	size_t first_fill = n;
	n += fill->count;
	size_t first_bp = n;

	/* Bookkeeping first: what the server will hold once the batch has run. */
	br_target_breakpoint_t saved[BR_TARGET_MAX_BREAKPOINTS];
	size_t saved_count = t->breakpoint_count;
	memcpy(saved, t->breakpoints, sizeof(saved));
	batch_book_breakpoints(t, b, kinds + first_bp);
	for (size_t i = 0; i < b->nremove; i++, n++)
		br_target_breakpoint_packet(packets[n], sizeof(packets[0]), 'z', kinds[n],
		                            b->remove[i] & ~1U);
	for (size_t i = 0; i < b->ninsert; i++, n++)
		br_target_breakpoint_packet(packets[n], sizeof(packets[0]), 'Z', kinds[n],
		                            b->insert[i] & ~1U);
	if (!b->hold && t->pc_known && resumes_on_breakpoint(t, t->pc)) {
		uint32_t pc = t->pc;
		memcpy(t->breakpoints, saved, sizeof(t->breakpoints));
		t->breakpoint_count = saved_count;
		return br_error_set(err, BR_ERR_USAGE,
		                    "resuming from the inserted breakpoint at 0x%08x would stop "
		                    "there again: remove it in the batch",
		                    pc);
	}
	size_t expect = n;
	if (!b->hold)
		memcpy(packets[n++], "c", sizeof("c"));
	for (size_t i = 0; i < n; i++)
		requests[i] = i >= first_fill && i < first_bp ? fill->requests[i - first_fill]
		                                               : packets[i];

	rsp_pipeline_reply_t replies[RSP_PIPELINE_MAX];
	b->sent = true;
	st = rsp_client_pipeline(&t->rsp, requests, n, !b->hold, replies, err);
	if (!b->hold) {
		t->running = true;
		t->stepping = false;
		br_target_forget_halt(t);
	}
	if (st != BR_OK)
		return st;
	return batch_replies(t, b, ask_pc, requests, expect, first_fill, fill, replies, err);
}

/* Takes the stop reply of a core that was asked to stop, dropping any other
 * reply that comes first (the stream is out of step). */
static br_status_t recover_stop(br_target_t *t, int timeout_ms, br_error_t *err)
{
	for (unsigned i = 0; i <= RSP_CLIENT_SYNC_DROP_MAX; i++) {
		const char *payload;
		size_t len;
		br_status_t st = rsp_client_receive(&t->rsp, timeout_ms, &payload, &len, err);
		if (st != BR_OK)
			return st;
		br_error_t ignored;
		if (rsp_stop_reply_parse(payload, len, t->stop, &ignored) == BR_OK &&
		    t->stop->kind == RSP_STOP_SIGNAL) {
			br_target_note_stop(t, t->stop);
			return BR_OK;
		}
		t->rsp.counters.stale_dropped++;
	}
	return br_error_set(err, BR_ERR_PROTOCOL,
	                    "no stop reply among %u replies after stopping the core",
	                    RSP_CLIENT_SYNC_DROP_MAX);
}

br_status_t br_target_recover(br_target_t *t, uint32_t marker_address, const uint8_t *expected,
                              size_t len, int timeout_ms, br_error_t *err)
{
	br_status_t st = BR_OK;
	if (t->running) {
		st = rsp_client_interrupt(&t->rsp, err);
		if (st == BR_OK)
			st = recover_stop(t, timeout_ms, err);
	}
	if (st == BR_OK && (len < 8U || len > BR_TARGET_MARKER_MAX))
		st = br_error_set(err, BR_ERR_USAGE, "a marker of 8 to 16 bytes is needed");
	if (st == BR_OK)
		st = rsp_client_sync(&t->rsp, marker_address, expected, len, err);
	/* Which breakpoints the server holds is not known: set each booked one
	 * again (a removal of one it does not hold may be refused: no matter). */
	for (size_t i = 0; st == BR_OK && i < t->breakpoint_count; i++) {
		char packet[48];
		const char *r;
		size_t rlen;
		br_target_breakpoint_packet(packet, sizeof(packet), 'z', t->breakpoints[i].kind,
		                            t->breakpoints[i].address);
		st = rsp_client_transact(&t->rsp, packet, &r, &rlen, err);
		br_target_breakpoint_packet(packet, sizeof(packet), 'Z', t->breakpoints[i].kind,
		                            t->breakpoints[i].address);
		if (st == BR_OK)
			st = rsp_client_transact(&t->rsp, packet, &r, &rlen, err);
		if (st == BR_OK)
			st = br_target_expect_ok(packet, r, rlen, err);
	}
	if (st != BR_OK)
		return br_error_prefix(err, "putting the server's replies back in step");
	br_target_forget_halt(t);
	return BR_OK;
}
