/*
 * Run control: resume (with step-over of a breakpoint, and of a read
 * watchpoint), step, halt, stop replies with the console and File-I/O
 * requests that come while the target runs (GDB manual, "Stop Reply
 * Packets", "File-I/O Remote Protocol Extension", "Interrupts"), and the
 * pipelined per-halt batch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsp/console.h"
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
/* One request of a batch (a p, m, M of a word, P, Z or z packet). */
#define BATCH_PACKET_BYTES 48U

static br_status_t send_resume(br_target_t *t, const char *packet, br_error_t *err)
{
	br_status_t st = rsp_client_send(t->rsp, packet, strlen(packet), err);
	if (st == BR_OK)
		br_target_note_resume(t, packet);
	return st;
}

br_status_t br_target_step(br_target_t *t, br_error_t *err)
{
	br_status_t st = send_resume(t, "s", err);
	if (st != BR_OK)
		return st;
	return br_target_wait_stop(t, rsp_client_timeout(t->rsp), NULL, err);
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
	br_status_t st = rsp_client_interrupt(t->rsp, err);
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
		br_status_t st = poll ? rsp_client_poll(t->rsp, timeout_ms, &payload, &len, err)
		                      : rsp_client_receive(t->rsp, timeout_ms, &payload, &len, err);
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
		case RSP_STOP_TERMINATED: {
			/* The server's own words; the session is over (QEMU closes it
			 * next): nothing is to be put back in step after this. */
			char q[RSP_QUOTE_BUFFER_BYTES];
			t->running = false;
			t->exited = true;
			t->exit_code = (int)stop->code;
			br_error_set(
			    err, BR_ERR_TARGET,
			    "the server said the program ended (%s %d, reply %s) instead of "
			    "stopping; was the server shut down?",
			    stop->kind == RSP_STOP_EXITED ? "exit code" : "signal", (int)stop->code,
			    rsp_quote(payload, len, q, sizeof(q)));
			rsp_client_end(t->rsp, err);
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

/* The PC a batch writes (an instruction the host executed), if any. */
static bool batch_written_pc(const br_target_batch_t *b, uint32_t *pc)
{
	for (size_t i = 0; i < b->nwregs; i++) {
		if (b->wregs[i] == BR_TARGET_REG_PC) {
			*pc = b->wreg_values[i];
			return true;
		}
	}
	return false;
}

/* After a held batch's writes went through: a PC it wrote is the halt's. */
static void batch_note_written_pc(br_target_t *t, const br_target_batch_t *b)
{
	uint32_t pc;
	if (b->hold && batch_written_pc(b, &pc)) {
		t->pc = pc;
		t->pc_known = true;
	}
}

/* An M request writing the batch's write_buf into packet (cap bytes). */
static void batch_write_packet(const br_target_batch_t *b, char *packet, size_t cap)
{
	int h = snprintf(packet, cap, "M%x,%zx:", b->write_address, b->write_len);
	rsp_hex_encode(b->write_buf, b->write_len, packet + h, cap - (size_t)h);
}

/* A P request writing register index i of the batch's wregs into packet. */
static void batch_wreg_packet(const br_target_t *t, const br_target_batch_t *b, size_t i,
                              char *packet, size_t cap)
{
	int h = snprintf(packet, cap, "P%x=", br_target_regnum(t, b->wregs[i]));
	rsp_hex_le_u32_encode(b->wreg_values[i], packet + h, cap - (size_t)h);
}

/* Reads (read) or fills the first len bytes of the batch's bulk read or
 * fill in rounds of their own, ahead of its write (len 0: nothing); a
 * refusal is noted in the batch. */
static br_status_t batch_front(br_target_t *t, br_target_batch_t *b, bool read, size_t len,
                               br_error_t *err)
{
	if (len == 0)
		return BR_OK;
	b->sent = true;
	br_status_t st = read ? br_target_mem_read(t, b->bulk_address, b->bulk_buf, len, err)
	                      : br_target_mem_fill(t, b->fill_address, b->fill_value, len, err);
	if (read)
		b->bulk_refused = st == BR_ERR_TARGET;
	else
		b->fill_refused = st == BR_ERR_TARGET;
	return st;
}

/* The batch one request at a time (a server that waits for acknowledgements). */
br_status_t br_target_batch_read_alone(br_target_t *t, const br_target_batch_read_t *rd,
                                       br_error_t *err)
{
	if (rd->monitor != NULL)
		return br_target_monitor(t, rd->monitor, (char *)rd->buf, rd->len, err);
	return br_target_mem_read(t, rd->address, rd->buf, rd->len, err);
}

static br_status_t batch_sequential(br_target_t *t, br_target_batch_t *b, br_error_t *err)
{
	br_status_t st = BR_OK;
	b->sent = true;
	if (b->read_pc)
		st = br_target_pc(t, &b->pc, err);
	for (size_t i = 0; st == BR_OK && i < b->nregs; i++)
		st = br_target_reg_read(t, b->regs[i], &b->reg_values[i], err);
	for (size_t i = 0; st == BR_OK && i < b->nreads; i++)
		st = br_target_batch_read_alone(t, &b->reads[i], err);
	if (st == BR_OK)
		st = batch_front(t, b, true, b->bulk_len, err);
	if (st == BR_OK)
		st = batch_front(t, b, false, b->fill_len, err);
	if (st == BR_OK && b->write_len > 0)
		st = br_target_mem_write(t, b->write_address, b->write_buf, b->write_len, err);
	for (size_t i = 0; st == BR_OK && i < b->nwregs; i++)
		st = br_target_reg_write(t, b->wregs[i], b->wreg_values[i], err);
	uint32_t written_pc;
	if (st == BR_OK && batch_written_pc(b, &written_pc)) {
		t->pc = written_pc;
		t->pc_known = true;
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

/* A span of memory in one batch's write: count requests from address, each
 * of the size br_target_read_chunk_len (a read) or chunk (a fill) gives,
 * len bytes in all; first is the index of its first request. */
typedef struct batch_span {
	uint32_t address;
	size_t len, count, first;
	uint32_t at[BR_TARGET_BATCH_MAX]; /* each request's address */
	size_t n[BR_TARGET_BATCH_MAX];    /* and bytes */
} batch_span_t;

/* The layout of a batch's write: its bulk read (chunks, then the marker
 * read at bulk.first + bulk.count when there are any), its fill. */
typedef struct batch_layout {
	bool ask_pc;
	size_t reads_first; /* the index of the first of the batch's reads */
	batch_span_t bulk, fill;
	char *fills[BR_TARGET_BATCH_MAX]; /* the fill's M requests */
	size_t expect;                    /* replies due (the continue has none) */
} batch_layout_t;

/* The bytes of the next request of a span with left bytes to go. */
static size_t batch_span_chunk(const br_target_t *t, bool read, size_t chunk, size_t left)
{
	return read ? br_target_read_chunk_len(t, left) : (left < chunk ? left : chunk);
}

/* Puts the end of [address, address + len) in the write as span s, in at
 * most room requests of chunk bytes (a fill) or of the read's chunks (read);
 * returns the length of the front that does not fit, for the caller to do
 * first. */
static size_t batch_span_plan(const br_target_t *t, bool read, size_t chunk, uint32_t address,
                              size_t len, size_t room, batch_span_t *s)
{
	size_t full = batch_span_chunk(t, read, chunk, SIZE_MAX);
	size_t tail = room * full < len ? room * full : len;
	for (;;) {
		s->count = 0;
		for (size_t done = 0; done < tail && s->count <= room;) {
			size_t n = batch_span_chunk(t, read, chunk, tail - done);
			s->at[s->count] = address + (uint32_t)(len - tail + done);
			s->n[s->count++] = n;
			done += n;
		}
		if (s->count <= room)
			break;
		tail = tail > full ? tail - full : 0; /* one chunk too many: a shorter tail */
	}
	s->address = address + (uint32_t)(len - tail);
	s->len = tail;
	return len - tail;
}

/* Checks and decodes the replies of a pipelined batch (requests[0..n)) laid
 * out as l says; the bulk's chunks are decoded already (batch_collect). */
static br_status_t batch_replies(br_target_t *t, br_target_batch_t *b, const batch_layout_t *l,
                                 const char *const *requests, const rsp_pipeline_reply_t *replies,
                                 br_error_t *err)
{
	size_t r = 0;
	br_status_t st = BR_OK;
	if (l->ask_pc) {
		st = br_target_reg_reply(replies[r].text, replies[r].len, BR_TARGET_REG_PC, &b->pc,
		                         err);
		r++;
	}
	for (size_t i = 0; st == BR_OK && i < b->nregs; i++, r++)
		st = br_target_reg_reply(replies[r].text, replies[r].len, b->regs[i],
		                         &b->reg_values[i], err);
	for (size_t i = 0; st == BR_OK && i < b->nreads; i++, r++) {
		if (b->reads[i].monitor != NULL)
			st = br_target_expect_ok(requests[r], replies[r].text, replies[r].len, err);
		else
			st = br_target_read_reply(replies[r].text, replies[r].len,
			                          b->reads[i].address, b->reads[i].len,
			                          b->reads[i].buf, err);
	}
	if (st != BR_OK)
		return st;
	if (l->bulk.count > 0) {
		uint8_t word[BR_TARGET_MARKER_WORD];
		r += l->bulk.count;
		st = br_target_read_reply(replies[r].text, replies[r].len, t->marker_address,
		                          sizeof(word), word, err);
		if (st == BR_OK && memcmp(word, t->marker, sizeof(word)) != 0)
			st = br_error_set(
			    err, BR_ERR_PROTOCOL,
			    "the marker read after a bulk read in a halt's write did not "
			    "match: the replies are out of step");
		if (st != BR_OK)
			return st;
		r++;
	}
	for (size_t k = 0; k < l->fill.count; k++, r++) {
		st = br_target_write_reply(replies[r].text, replies[r].len, l->fill.at[k],
		                           l->fill.n[k], err);
		if (st != BR_OK) {
			b->fill_refused = st == BR_ERR_TARGET;
			return br_error_prefix(err, "filling memory in the resuming write");
		}
	}
	for (; r < l->expect; r++) {
		st = br_target_expect_ok(requests[r], replies[r].text, replies[r].len, err);
		if (st != BR_OK)
			return br_error_prefix(err, "pipelined breakpoint change");
	}
	uint32_t written_pc;
	if (l->ask_pc && !b->hold && !batch_written_pc(b, &written_pc) &&
	    resumes_on_breakpoint(t, b->pc))
		return br_error_set(
		    err, BR_ERR_USAGE,
		    "resumed from the inserted breakpoint at 0x%08x: the core stops "
		    "there again at once",
		    b->pc);
	return BR_OK;
}

/* What a batch's replies go into as they come: the bulk's chunks decoded
 * into its buffer, the others copied into slots. A reply that does not fit
 * is noted and the rest still taken, so the stream stays in step. */
typedef struct batch_collect {
	rsp_pipeline_reply_t *slots;
	const batch_span_t *bulk;
	const br_target_batch_t *b;
	size_t reads_first;                    /* the index of the first of b's reads */
	size_t console[BR_TARGET_BATCH_READS]; /* console bytes kept per monitor read */
	bool failed;
	bool bulk_refused; /* the first failure: a bulk chunk's error reply */
	br_error_t error;  /* the first failure */
} batch_collect_t;

static br_status_t batch_collect(void *ctx, size_t i, const char *reply, size_t len,
                                 br_error_t *err)
{
	(void)err;
	batch_collect_t *c = ctx;
	size_t k = i - c->bulk->first;
	br_error_t e;
	br_status_t st = BR_OK;
	size_t j = i - c->reads_first;
	const br_target_batch_read_t *rd =
	    i >= c->reads_first && j < c->b->nreads ? &c->b->reads[j] : NULL;
	if (rd != NULL && rd->monitor != NULL && rsp_reply_is_console(reply, len)) {
		/* A monitor read's text, before its final reply (rsp/client.h). */
		rsp_console_append(reply, len, (char *)rd->buf, rd->len, &c->console[j]);
		return BR_OK;
	}
	c->slots[i].len = 0;
	c->slots[i].text[0] = '\0';
	if (i >= c->bulk->first && k < c->bulk->count)
		st = br_target_read_reply(reply, len, c->bulk->at[k], c->bulk->n[k],
		                          c->b->bulk_buf + (c->bulk->at[k] - c->b->bulk_address),
		                          &e);
	else if (len > RSP_PIPELINE_REPLY_MAX)
		st = br_error_set(&e, BR_ERR_PROTOCOL, "pipelined reply %zu: %zu bytes is too long",
		                  i, len);
	else {
		memcpy(c->slots[i].text, reply, len + 1U);
		c->slots[i].len = len;
	}
	if (st != BR_OK && !c->failed) {
		c->failed = true;
		c->bulk_refused = st == BR_ERR_TARGET;
		c->error = e;
	}
	return BR_OK;
}

static br_status_t batch_pipelined(br_target_t *t, br_target_batch_t *b, batch_layout_t *l,
                                   br_error_t *err);

br_status_t br_target_resume_batch(br_target_t *t, br_target_batch_t *b, br_error_t *err)
{
	b->sent = false;
	b->fill_refused = false;
	b->bulk_refused = false;
	size_t total = (b->read_pc ? 1U : 0U) + b->nregs + b->nreads +
	               (b->write_len > 0 ? 1U : 0U) + b->nwregs + b->nremove + b->ninsert +
	               (b->hold ? 0U : 1U);
	bool too_big = b->nregs > BR_TARGET_BATCH_REGS || b->nreads > BR_TARGET_BATCH_READS ||
	               b->nwregs > BR_TARGET_BATCH_WREGS ||
	               b->write_len > BR_TARGET_BATCH_WRITE_MAX ||
	               (b->write_len > 0 && b->write_buf == NULL) || total == 0 ||
	               total > BR_TARGET_BATCH_MAX || (b->bulk_len > 0 && b->bulk_buf == NULL);
	for (size_t i = 0; !too_big && i < b->nreads; i++) {
		const br_target_batch_read_t *rd = &b->reads[i];
		too_big = rd->monitor != NULL
		              ? rd->len == 0 || strlen(rd->monitor) > BR_TARGET_BATCH_MONITOR_MAX
		              : rd->len == 0 || rd->len > BR_TARGET_BATCH_READ_MAX;
	}
	if (too_big)
		return br_error_set(err, BR_ERR_USAGE, "batch too large");
	/* Set-up checks before anything is sent. */
	br_status_t st =
	    br_target_breakpoints_check(t, b->insert, b->ninsert, BR_BREAKPOINT_AUTO, err);
	if (st != BR_OK)
		return st;
	if (!rsp_client_no_ack(t->rsp) && !t->flavour->pipelines_in_ack_mode)
		return batch_sequential(t, b, err);

	/* The bulk read's end (its chunks and the marker read that proves them),
	 * then the fill's, in the room this write has left; what does not fit of
	 * each is done first in rounds of its own. Without a marker, the bulk
	 * read is all done first (br_target_mem_read). */
	batch_layout_t l;
	memset(&l, 0, sizeof(l));
	size_t room = BR_TARGET_BATCH_MAX - total;
	size_t bulk_room = t->marker_len > 0 && room > 1U ? room - 1U : 0U;
	size_t head = b->bulk_len == 0 ? 0
	                               : batch_span_plan(t, true, 0, b->bulk_address, b->bulk_len,
	                                                 bulk_room, &l.bulk);
	st = batch_front(t, b, true, head, err);
	if (st != BR_OK)
		return st;
	room -= l.bulk.count > 0 ? l.bulk.count + 1U : 0U;
	head = b->fill_len == 0 ? 0
	                        : batch_span_plan(t, false, br_target_fill_chunk(t),
	                                          b->fill_address, b->fill_len, room, &l.fill);
	st = batch_front(t, b, false, head, err);
	if (st != BR_OK)
		return st;
	for (size_t k = 0; k < l.fill.count; k++)
		l.fills[k] = br_target_fill_request(l.fill.at[k], b->fill_value, l.fill.n[k]);
	st = batch_pipelined(t, b, &l, err);
	for (size_t k = 0; k < l.fill.count; k++)
		free(l.fills[k]);
	return st;
}

/* Writes the batch's reads (the PC when not known, registers, words,
 * monitor commands, bulk spans and the marker after them) into packets from
 * slot 0, noting in l where each kind starts; returns how many. */
static size_t batch_read_packets(br_target_t *t, br_target_batch_t *b, batch_layout_t *l,
                                 char (*packets)[BATCH_PACKET_BYTES])
{
	size_t n = 0;
	/* The PC of this halt: cached (stop reply, earlier read, inference) or asked. */
	l->ask_pc = b->read_pc && !t->pc_known;
	if (b->read_pc && t->pc_known)
		b->pc = t->pc;
	if (l->ask_pc) {
		const uint64_t regnum = br_target_regnum(t, BR_TARGET_REG_PC);
		rsp_hex_request('p', &regnum, 1, packets[n++], BATCH_PACKET_BYTES);
	}
	for (size_t i = 0; i < b->nregs; i++) {
		const uint64_t regnum = br_target_regnum(t, b->regs[i]);
		rsp_hex_request('p', &regnum, 1, packets[n++], BATCH_PACKET_BYTES);
	}
	l->reads_first = n;
	for (size_t i = 0; i < b->nreads; i++) {
		const br_target_batch_read_t *rd = &b->reads[i];
		if (rd->monitor != NULL) {
			int h = snprintf(packets[n], BATCH_PACKET_BYTES, "qRcmd,");
			rsp_hex_encode(rd->monitor, strlen(rd->monitor), packets[n] + h,
			               BATCH_PACKET_BYTES - (size_t)h);
			rd->buf[0] = '\0';
			n++;
		} else {
			br_target_read_packet(packets[n++], BATCH_PACKET_BYTES, rd->address,
			                      rd->len);
		}
	}
	l->bulk.first = n;
	for (size_t k = 0; k < l->bulk.count; k++)
		br_target_read_packet(packets[n++], BATCH_PACKET_BYTES, l->bulk.at[k],
		                      l->bulk.n[k]);
	if (l->bulk.count > 0)
		br_target_read_packet(packets[n++], BATCH_PACKET_BYTES, t->marker_address,
		                      BR_TARGET_MARKER_WORD);
	return n;
}

/* br_target_resume_batch's one write, laid out as l says. */
static br_status_t batch_pipelined(br_target_t *t, br_target_batch_t *b, batch_layout_t *l,
                                   br_error_t *err)
{
	br_status_t st = BR_OK;
	char packets[BR_TARGET_BATCH_MAX][BATCH_PACKET_BYTES];
	const char *requests[BR_TARGET_BATCH_MAX];
	br_breakpoint_kind_t kinds[BR_TARGET_BATCH_MAX];
	size_t n = batch_read_packets(t, b, l, packets);
	l->fill.first = n;
	n += l->fill.count;
	/* The host-executed instruction's writes: memory, then registers. */
	char write_packet[BR_TARGET_BATCH_WRITE_MAX * 2U + 32U];
	size_t write_at = SIZE_MAX;
	if (b->write_len > 0) {
		batch_write_packet(b, write_packet, sizeof(write_packet));
		write_at = n++;
	}
	for (size_t i = 0; i < b->nwregs; i++)
		batch_wreg_packet(t, b, i, packets[n++], sizeof(packets[0]));
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
	uint32_t pc = t->pc;
	bool pc_known = batch_written_pc(b, &pc) || t->pc_known;
	if (!b->hold && pc_known && resumes_on_breakpoint(t, pc)) {
		memcpy(t->breakpoints, saved, sizeof(t->breakpoints));
		t->breakpoint_count = saved_count;
		return br_error_set(err, BR_ERR_USAGE,
		                    "resuming from the inserted breakpoint at 0x%08x would stop "
		                    "there again: remove it in the batch",
		                    pc);
	}
	l->expect = n;
	if (!b->hold)
		memcpy(packets[n++], "c", sizeof("c"));
	for (size_t i = 0; i < n; i++)
		requests[i] = i >= l->fill.first && i < l->fill.first + l->fill.count
		                  ? l->fills[i - l->fill.first]
		              : i == write_at ? write_packet
		                              : packets[i];

	rsp_pipeline_reply_t replies[BR_TARGET_BATCH_MAX];
	batch_collect_t collect = {
	    .slots = replies, .bulk = &l->bulk, .b = b, .reads_first = l->reads_first};
	b->sent = true;
	st = rsp_client_pipeline_each(t->rsp, requests, n, !b->hold, batch_collect, &collect, err);
	if (!b->hold) {
		t->running = true;
		t->stepping = false;
		br_target_forget_halt(t);
	}
	if (st != BR_OK)
		return st;
	if (collect.failed) {
		b->bulk_refused = collect.bulk_refused;
		return br_error_copy(err, &collect.error);
	}
	st = batch_replies(t, b, l, requests, replies, err);
	if (st == BR_OK)
		batch_note_written_pc(t, b);
	return st;
}

/* A reply of a read watchpoint's step-over: its change must be OK. */
static br_status_t watchpoint_reply(void *ctx, size_t index, const char *reply, size_t len,
                                    br_error_t *err)
{
	(void)ctx;
	return br_target_expect_ok(index == 0 ? "a read watchpoint's change" : "a request", reply,
	                           len, err);
}

/* Sends requests[0..1] in one write, the second a resume (s or c): the
 * target runs after it. */
static br_status_t watchpoint_pipeline(br_target_t *t, const char *change, const char *resume,
                                       br_error_t *err)
{
	const char *const requests[] = {change, resume};
	br_status_t st =
	    rsp_client_pipeline_each(t->rsp, requests, 2, true, watchpoint_reply, NULL, err);
	if (st == BR_OK)
		br_target_note_resume(t, resume);
	return st;
}

br_status_t br_target_read_watchpoint_step_over(br_target_t *t, uint32_t address, uint32_t len,
                                                br_error_t *err)
{
	char remove[40], insert[40];
	br_target_watchpoint_packet(remove, sizeof(remove), 'z', address, len);
	br_target_watchpoint_packet(insert, sizeof(insert), 'Z', address, len);
	br_status_t st = watchpoint_pipeline(t, remove, "s", err);
	if (st == BR_OK)
		st = br_target_wait_stop(t, rsp_client_timeout(t->rsp), NULL, err);
	if (st == BR_OK)
		st = watchpoint_pipeline(t, insert, "c", err);
	if (st != BR_OK)
		return br_error_prefix(err, "stepping over the read watchpoint at 0x%08x", address);
	return BR_OK;
}
