#include "measure/stub_batch.h"

#include <stddef.h>
#include <string.h>

#include "common/clock.h"
#include "measure/halt_proof.h"

#define STUB_NS_PER_S 1e9
#define STUB_MS_PER_S 1e3
#define STUB_ALL_ONES 0xFFFFFFFFU
/* The bench loop's counter reads per iteration (bench.h): before and after the body. */
#define STUB_READS_PER_ITERATION 2U
/* Guard reads made again after their replies did not prove. */
#define STUB_GUARD_RETRIES 3U

static void put_le32(uint8_t *buf, size_t off, uint32_t v)
{
	buf[off] = (uint8_t)v;
	buf[off + 1U] = (uint8_t)(v >> 8);
	buf[off + 2U] = (uint8_t)(v >> 16);
	buf[off + 3U] = (uint8_t)(v >> 24);
}

/* Guard reads around one chunk (stub_batch.h). */
typedef struct stub_guard {
	const br_counter_state_t *state; /* NULL: no guard reads */
	br_halt_proof_t proof;
	int interval_ms;
	uint64_t last;   /* the counter at the last proven read */
	int64_t last_ns; /* when that read was proven: the core ran only after it */
	uint64_t ticks;  /* since the chunk's resume */
	br_wrap_verdict_t verdict;
	uint32_t halts;
} stub_guard_t;

/* Sets g up for a request: guard reads when it asks for them, the counter's
 * rate is known and the target has a marker to prove them by. */
static void guard_init(const br_stub_session_t *s, const br_stub_request_t *req, stub_guard_t *g)
{
	memset(g, 0, sizeof(*g));
	const br_target_t *t = s->target;
	double interval_s = req->guard != NULL ? br_wrap_guard_seconds(req->guard) : 0.0;
	if (interval_s <= 0.0 || t->marker_len < BR_HALT_PROOF_WORD)
		return;
	g->state = req->guard;
	g->proof.address = t->marker_address;
	memcpy(g->proof.bytes, t->marker,
	       t->marker_len < sizeof(g->proof.bytes) ? t->marker_len : sizeof(g->proof.bytes));
	g->interval_ms = (int)(interval_s * STUB_MS_PER_S);
	if (g->interval_ms < 1)
		g->interval_ms = 1;
}

/* One try of guard_read's proven reads (the core halted, nothing resumed):
 * pipelined in one write, or (one_at_a_time, after a loss) each request
 * alone, so that a refused one is sent again rather than lost. */
static br_status_t guard_read_once(br_stub_session_t *s, const stub_guard_t *g, bool one_at_a_time,
                                   uint32_t *pc, br_halt_proof_reads_t *reads, uint64_t *value,
                                   br_error_t *err)
{
	br_target_t *t = s->target;
	br_target_batch_t b;
	memset(&b, 0, sizeof(b));
	b.read_pc = true;
	b.hold = true;
	br_halt_proof_add(&g->proof, g->state, reads, &b);
	br_status_t st = BR_OK;
	if (!one_at_a_time) {
		st = br_target_resume_batch(t, &b, err);
		*pc = b.pc;
	} else {
		st = br_target_reg_read(t, BR_TARGET_REG_PC, pc, err);
		for (size_t i = 0; st == BR_OK && i < b.nreads; i++)
			st = br_target_batch_read_alone(t, &b.reads[i], err);
	}
	if (st == BR_OK && !br_halt_proof_check(&g->proof, g->state, reads, value))
		st = br_error_set(err, BR_ERR_PROTOCOL,
		                  "a guard read's replies did not prove (marker 0x%08x or the two "
		                  "counter reads differ): the reply stream is out of step",
		                  g->proof.address);
	return st;
}

/* One proven counter read on the halted core, in one write with the PC read
 * (into *pc); adds the interval since the last read to g (none at the
 * chunk's first). The core stays halted: resuming from br_host_sync steps
 * off its breakpoint first (br_target_resume). Replies that do not prove
 * (a NAK or a damaged reply inside the pipeline, a reply out of step) are
 * put back in step (br_target_recover) and the reads made again: the core
 * has not moved, so nothing is lost. */
static br_status_t guard_read(br_stub_session_t *s, stub_guard_t *g, bool first, uint32_t *pc,
                              br_error_t *err)
{
	br_target_t *t = s->target;
	br_halt_proof_reads_t reads;
	uint64_t value = 0;
	br_status_t st = guard_read_once(s, g, s->guard_one_at_a_time, pc, &reads, &value, err);
	/* The core was halted before this read went out and stays halted until
	 * after it is proven, and the counter with it (two equal reads): the
	 * interval it ends ran before the first try's replies came, and the next
	 * starts after the last try's. Retries never count as running time. */
	int64_t first_got = br_clock_ns();
	for (unsigned i = 0; st != BR_OK && i < STUB_GUARD_RETRIES && rsp_client_usable(t->rsp);
	     i++) {
		br_error_t why = *err;
		st = br_target_recover(t, t->marker_address, t->marker, t->marker_len,
		                       rsp_client_timeout(t->rsp), err);
		if (st != BR_OK)
			return br_error_prefix(err, "after '%s'", why.message);
		s->guard_one_at_a_time = true;
		st = guard_read_once(s, g, true, pc, &reads, &value, err);
	}
	if (st != BR_OK)
		return st;
	if (!first) {
		uint64_t d = br_counter_state_delta64(g->state, g->last, value);
		br_wrap_verdict_t v = br_wrap_interval_check(
		    g->state, d, (double)(first_got - g->last_ns) / STUB_NS_PER_S);
		if ((v == BR_WRAP_POSSIBLE || v == BR_WRAP_TOO_FAST) && g->verdict == BR_WRAP_OK)
			g->verdict = v;
		g->ticks += d;
	}
	g->last = value;
	g->last_ns = br_clock_ns();
	return BR_OK;
}

/* Waits for the running core's stop within timeout_ms; with guard reads, a
 * guard halt every g->interval_ms (ending the wait when the core had just
 * reached br_host_sync). Leaves the core halted with its PC in *pc. */
static br_status_t wait_sync(br_stub_session_t *s, stub_guard_t *g, int timeout_ms, uint32_t *pc,
                             rsp_stop_reply_t *stop, br_error_t *err)
{
	int64_t deadline = br_clock_ms() + timeout_ms;
	for (;;) {
		int remaining = br_clock_remaining_ms(deadline);
		bool guard = g->state != NULL && g->interval_ms < remaining;
		/* Silence is a timeout with the session intact: whoever called can
		 * still ask whether the board answers (a slow bench is not a dead
		 * board). */
		br_status_t st =
		    br_target_poll_stop(s->target, guard ? g->interval_ms : remaining, stop, err);
		if (st == BR_OK && g->state != NULL)
			return guard_read(s, g, false, pc, err);
		if (st == BR_OK)
			return br_target_reg_read(s->target, BR_TARGET_REG_PC, pc, err);
		if (st != BR_ERR_TIMEOUT || !guard || !rsp_client_usable(s->target->rsp))
			return st;
		st = br_target_halt(s->target, timeout_ms, err);
		if (st == BR_OK)
			st = guard_read(s, g, false, pc, err);
		if (st != BR_OK || *pc == s->layout.host_sync)
			return st;
		g->halts++;
		st = br_target_resume(s->target, err);
		if (st != BR_OK)
			return st;
	}
}

/* Resumes (after the guard's first read) and waits for the stub to halt at
 * br_host_sync again. */
static br_status_t run_to_sync(br_stub_session_t *s, stub_guard_t *g, int timeout_ms,
                               br_error_t *err)
{
	uint32_t pc = 0;
	br_status_t st = g->state != NULL ? guard_read(s, g, true, &pc, err) : BR_OK;
	if (st == BR_OK)
		st = br_target_resume(s->target, err);
	if (st != BR_OK)
		return st;
	rsp_stop_reply_t stop;
	memset(&stop, 0, sizeof(stop));
	st = wait_sync(s, g, timeout_ms, &pc, &stop, err);
	if (st != BR_OK)
		return st;
	if (pc != s->layout.host_sync)
		return br_error_set(
		    err, BR_ERR_TARGET,
		    "the firmware stopped at 0x%08x (signal %d), not at %s (0x%08x): "
		    "it faulted or hit another breakpoint",
		    pc, (int)stop.code, BR_HOST_SYNC_SYMBOL, s->layout.host_sync);
	return BR_OK;
}

br_status_t br_stub_session_open(br_stub_session_t *s, br_target_t *target,
                                 const br_stub_layout_t *layout, int timeout_ms, br_error_t *err)
{
	memset(s, 0, sizeof(*s));
	s->target = target;
	s->layout = *layout;
	br_status_t st =
	    br_target_breakpoint_insert(target, layout->host_sync, BR_BREAKPOINT_SOFTWARE, err);
	if (st != BR_OK)
		return st;
	stub_guard_t none;
	memset(&none, 0, sizeof(none));
	st = run_to_sync(s, &none, timeout_ms, err);
	if (st != BR_OK)
		return br_error_prefix(err, "starting the firmware (waiting for its first %s)",
		                       BR_HOST_SYNC_SYMBOL);
	uint8_t block[BR_CB_SIZE];
	st = br_target_mem_read(target, layout->control_block, block, sizeof(block), err);
	if (st != BR_OK)
		return st;
	st = br_stub_layout_check_header(block, "target memory", err);
	if (st != BR_OK)
		return st;
	if (br_stub_le32(block, BR_CB_OFFSET_STATE_ADDRESS) != layout->state ||
	    br_stub_le32(block, BR_CB_OFFSET_SAMPLES_ADDRESS) != layout->samples_address ||
	    br_stub_le32(block, BR_CB_OFFSET_MAX_SAMPLES) != layout->max_samples ||
	    br_stub_le32(block, BR_CB_OFFSET_BENCH_COUNT) != layout->bench_count)
		return br_error_set(err, BR_ERR_TARGET,
		                    "the control block in target memory (0x%08x) differs from the "
		                    "ELF file's: the board runs another image; load this one",
		                    layout->control_block);
	s->bench_count = layout->bench_count;
	s->max_samples = layout->max_samples;
	s->samples_address = layout->samples_address;
	memcpy(s->bench_names, layout->bench_names, sizeof(s->bench_names));
	uint8_t result[sizeof(br_result_t)];
	st = br_target_mem_read(target, layout->state + BR_CS_OFFSET_RESULT, result, sizeof(result),
	                        err);
	if (st != BR_OK)
		return st;
	s->next_seq = br_stub_le32(result, offsetof(br_result_t, seq)) + 1U;
	return BR_OK;
}

int br_stub_bench_index(const br_stub_session_t *s, const char *name)
{
	for (uint32_t i = 0; i < s->bench_count; i++) {
		if (strcmp(s->bench_names[i], name) == 0)
			return (int)i;
	}
	return -1;
}

static const char *status_reason(uint32_t status)
{
	switch (status) {
	case BR_CB_STATUS_BAD_BENCH:
		return "no such bench";
	case BR_CB_STATUS_BAD_COUNT:
		return "iterations must be between 1 and the sample buffer's size";
	case BR_CB_STATUS_NO_COUNTER:
		return "no counter address";
	default:
		return "unknown status";
	}
}

/* Writes the request for the pending bench's next chunk: up to max_samples
 * of the iterations still wanted, after the bench's own warm-up (every chunk
 * is a fresh call of the bench, set-up included, so each gets it). */
static br_status_t chunk_write(br_stub_session_t *s, br_error_t *err)
{
	const br_stub_request_t *req = &s->pending;
	const br_counter_t *counter = req->counter;
	uint32_t left = req->iterations - s->pending_done;
	uint32_t chunk = left < s->max_samples ? left : s->max_samples;
	uint8_t buf[sizeof(br_request_t)] = {0};
	uint32_t seq = s->next_seq++;
	put_le32(buf, offsetof(br_request_t, seq), seq);
	put_le32(buf, offsetof(br_request_t, bench_index), req->bench_index);
	put_le32(buf, offsetof(br_request_t, iterations), chunk);
	put_le32(buf, offsetof(br_request_t, warmup), req->warmup);
	bool watched = br_counter_is_monitor(counter);
	put_le32(buf, offsetof(br_request_t, counter_address),
	         watched ? s->layout.state + BR_CS_OFFSET_WATCH : counter->address);
	put_le32(buf, offsetof(br_request_t, counter_mask),
	         watched ? STUB_ALL_ONES : br_counter_mask(counter));
	put_le32(buf, offsetof(br_request_t, counter_flags),
	         counter->counts_down ? BR_CB_COUNTER_DOWN : 0U);
	put_le32(buf, offsetof(br_request_t, argument), req->argument);
	/* The core is halted: the stub sees the whole request or none of it. */
	br_status_t st = br_target_mem_write(s->target, s->layout.state + BR_CS_OFFSET_REQUEST, buf,
	                                     sizeof(buf), err);
	if (st != BR_OK)
		return br_error_prefix(err, "bench %s", s->bench_names[req->bench_index]);
	s->pending_seq = seq;
	s->pending_chunk = chunk;
	return BR_OK;
}

br_status_t br_stub_request_write(br_stub_session_t *s, const br_stub_request_t *req,
                                  br_error_t *err)
{
	if (req->bench_index >= s->bench_count)
		return br_error_set(err, BR_ERR_USAGE, "bench %u does not exist (%u benches)",
		                    req->bench_index, s->bench_count);
	if (req->iterations == 0 || req->iterations > BR_CB_MAX_SAMPLES)
		return br_error_set(err, BR_ERR_USAGE,
		                    "%u iterations: a bench takes 1 to %u samples", req->iterations,
		                    BR_CB_MAX_SAMPLES);
	s->pending = *req;
	s->pending_done = 0;
	return chunk_write(s, err);
}

/* The host's samples of a chunk on a counter with no register (QEMU's
 * icount): each of the bench loop's counter reads stops the core at the read
 * watchpoint on the request's counter word (BR_CS_OFFSET_WATCH), before the
 * load; each such stop reads the count (proven: two answers around the
 * marker in one write), then steps the load with the watchpoint out and
 * continues (br_target_read_watchpoint_step_over: two writes more). The iteration's sample is the
 * count from the stop at its first load to the stop at its second: the first load and the body, as
 * a register counter's two reads give (TIM2 under QEMU). The warm-up iterations' pairs are dropped.
 * Ends with the core halted at the stub's next stop that is not the watchpoint's (br_host_sync), in
 * *pc. */
static br_status_t watch_chunk(br_stub_session_t *s, const br_counter_state_t *counter,
                               uint32_t iterations, uint32_t warmup, int timeout_ms,
                               uint32_t *samples, uint32_t *pc, br_error_t *err)
{
	br_target_t *t = s->target;
	uint32_t watch = s->layout.state + BR_CS_OFFSET_WATCH;
	br_halt_proof_t proof;
	memset(&proof, 0, sizeof(proof));
	proof.address = t->marker_address;
	memcpy(proof.bytes, t->marker,
	       t->marker_len < sizeof(proof.bytes) ? t->marker_len : sizeof(proof.bytes));
	uint64_t want = (uint64_t)(warmup + iterations) * STUB_READS_PER_ITERATION;
	uint64_t seen = 0, start = 0;
	br_status_t st = br_target_read_watchpoint_insert(t, watch, BR_CB_SAMPLE_BYTES, err);
	if (st == BR_OK)
		st = br_target_resume(t, err);
	int64_t deadline = br_clock_ms() + timeout_ms;
	while (st == BR_OK) {
		rsp_stop_reply_t stop;
		memset(&stop, 0, sizeof(stop));
		st = br_target_wait_stop(t, br_clock_remaining_ms(deadline), &stop, err);
		if (st != BR_OK)
			break;
		if (stop.reason != RSP_STOP_REASON_RWATCH) {
			st = br_target_reg_read(t, BR_TARGET_REG_PC, pc, err);
			break;
		}
		br_target_batch_t b;
		br_halt_proof_reads_t reads;
		memset(&b, 0, sizeof(b));
		b.hold = true;
		br_halt_proof_add(&proof, counter, &reads, &b);
		uint64_t value = 0;
		st = br_target_resume_batch(t, &b, err);
		if (st == BR_OK && !br_halt_proof_check(&proof, counter, &reads, &value))
			st = br_error_set(err, BR_ERR_PROTOCOL,
			                  "a counter read at the read watchpoint did not prove "
			                  "(marker 0x%08x, or the two answers of QEMU's count "
			                  "differ)",
			                  proof.address);
		/* QEMU stops before the load (ARM watchpoints are not steppable:
		 * a continue stops there again): the load is stepped with the
		 * watchpoint out, as gdb does, and counted by QEMU itself. */
		if (st == BR_OK)
			st = br_target_read_watchpoint_step_over(t, watch, BR_CB_SAMPLE_BYTES, err);
		if (st != BR_OK)
			break;
		uint64_t k = seen++;
		if (k >= want || k % STUB_READS_PER_ITERATION == 0U) {
			start = value;
			continue;
		}
		uint64_t d = value - start;
		uint64_t i = k / STUB_READS_PER_ITERATION;
		if (d > STUB_ALL_ONES)
			st = br_error_set(err, BR_ERR_TARGET,
			                  "an iteration of %llu instructions: more than a 32-bit "
			                  "sample holds",
			                  (unsigned long long)d);
		else if (i >= warmup)
			samples[i - warmup] = (uint32_t)d;
	}
	br_error_t ignored;
	br_status_t rm = rsp_client_usable(t->rsp)
	                     ? br_target_read_watchpoint_remove(t, watch, BR_CB_SAMPLE_BYTES,
	                                                        st == BR_OK ? err : &ignored)
	                     : BR_OK;
	if (st == BR_OK)
		st = rm;
	if (st == BR_OK && seen != want)
		st = br_error_set(err, BR_ERR_TARGET,
		                  "the bench read its counter %llu times, %llu expected (two per "
		                  "iteration, BR_BENCH_LOOP): a bench reads the counter only "
		                  "through it",
		                  (unsigned long long)seen, (unsigned long long)want);
	return st;
}

/* Resumes for the chunk written last, waits for br_host_sync and adds the
 * chunk's result and samples to out (one halt). */
static br_status_t chunk_finish(br_stub_session_t *s, int timeout_ms, br_stub_result_t *out,
                                br_error_t *err)
{
	const br_stub_request_t *req = &s->pending;
	const char *name = s->bench_names[req->bench_index];
	uint32_t seq = s->pending_seq;
	stub_guard_t guard;
	guard_init(s, req, &guard);
	bool watched = br_counter_is_monitor(req->counter) && !req->breakpoints_measure;
	int64_t t0 = br_clock_ns();
	br_status_t st = BR_OK;
	if (watched) {
		br_counter_state_t icount;
		br_counter_state_init(&icount, req->counter);
		uint32_t pc = 0;
		st = watch_chunk(s, &icount, s->pending_chunk, req->warmup, timeout_ms,
		                 out->samples + out->count, &pc, err);
		if (st == BR_OK && pc != s->layout.host_sync)
			st = br_error_set(err, BR_ERR_TARGET,
			                  "the firmware stopped at 0x%08x, not at %s (0x%08x): it "
			                  "faulted or hit another breakpoint",
			                  pc, BR_HOST_SYNC_SYMBOL, s->layout.host_sync);
	} else {
		st = run_to_sync(s, &guard, timeout_ms, err);
	}
	double host_seconds = (double)(br_clock_ns() - t0) / STUB_NS_PER_S;
	out->guard_halts += guard.halts;
	if (st != BR_OK)
		return br_error_prefix(err, "bench %s", name);
	out->halts++;
	out->guarded = out->halts == 1U ? guard.state != NULL : out->guarded && guard.state != NULL;
	out->guarded_ticks += guard.ticks;
	if (out->guard_verdict == BR_WRAP_OK)
		out->guard_verdict = guard.verdict;
	uint8_t res[sizeof(br_result_t)];
	st = br_target_mem_read(s->target, s->layout.state + BR_CS_OFFSET_RESULT, res, sizeof(res),
	                        err);
	if (st != BR_OK)
		return br_error_prefix(err, "bench %s", name);
	uint32_t got_seq = br_stub_le32(res, offsetof(br_result_t, seq));
	uint32_t status = br_stub_le32(res, offsetof(br_result_t, status));
	if (got_seq != seq)
		return br_error_set(err, BR_ERR_TARGET,
		                    "bench %s: the stub answered request %u, expected %u", name,
		                    got_seq, seq);
	if (status != BR_CB_STATUS_OK)
		return br_error_set(err, BR_ERR_USAGE, "bench %s: the stub refused the request: %s",
		                    name, status_reason(status));
	uint32_t bench = br_stub_le32(res, offsetof(br_result_t, bench_index));
	uint32_t count = br_stub_le32(res, offsetof(br_result_t, count));
	if (bench != req->bench_index || count != s->pending_chunk)
		return br_error_set(err, BR_ERR_TARGET,
		                    "bench %s: the stub ran bench %u with %u samples, asked for "
		                    "bench %u with %u",
		                    name, bench, count, req->bench_index, s->pending_chunk);
	uint32_t stack = br_stub_le32(res, offsetof(br_result_t, stack_bytes));
	uint32_t peak = br_stub_le32(res, offsetof(br_result_t, heap_peak));
	uint32_t live = br_stub_le32(res, offsetof(br_result_t, heap_live));
	/* Every chunk is one call of the bench: the deepest stack and the
	 * highest peak and leak of any call, the allocations of all of them. */
	if (out->stack_bytes != BR_CB_NOT_MEASURED &&
	    (stack == BR_CB_NOT_MEASURED || stack > out->stack_bytes))
		out->stack_bytes = stack;
	if (peak > out->heap_peak)
		out->heap_peak = peak;
	if (live > out->heap_live)
		out->heap_live = live;
	out->heap_allocs += br_stub_le32(res, offsetof(br_result_t, heap_allocs));
	/* The sum over chunks keeps the batch wrap check (measure/wrap.h: all
	 * samples against the host time around them) conservative: if one
	 * chunk's time could hide a wrap, the total can too. */
	out->host_seconds += host_seconds;
	/* With the watchpoint, the samples are the host's, already in place. */
	uint8_t raw[BR_CB_MAX_SAMPLES * BR_CB_SAMPLE_BYTES];
	st = watched ? BR_OK
	             : br_target_mem_read(s->target, s->samples_address, raw,
	                                  (size_t)count * BR_CB_SAMPLE_BYTES, err);
	if (st != BR_OK)
		return br_error_prefix(err, "bench %s: reading samples", name);
	for (uint32_t i = 0; i < count && !watched; i++)
		out->samples[out->count + i] = br_stub_le32(raw, (size_t)i * BR_CB_SAMPLE_BYTES);
	out->count += count;
	s->pending_done += count;
	return BR_OK;
}

br_status_t br_stub_request_finish(br_stub_session_t *s, int timeout_ms, br_stub_result_t *out,
                                   br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	out->bench_index = s->pending.bench_index;
	br_status_t st = chunk_finish(s, timeout_ms, out, err);
	while (st == BR_OK && s->pending_done < s->pending.iterations) {
		st = chunk_write(s, err);
		if (st == BR_OK)
			st = chunk_finish(s, timeout_ms, out, err);
	}
	return st;
}

br_status_t br_stub_run_request(br_stub_session_t *s, const br_stub_request_t *req, int timeout_ms,
                                br_stub_result_t *out, br_error_t *err)
{
	br_status_t st = br_stub_request_write(s, req, err);
	if (st != BR_OK)
		return st;
	return br_stub_request_finish(s, timeout_ms, out, err);
}

br_status_t br_stub_run(br_stub_session_t *s, uint32_t index, uint32_t iterations, uint32_t warmup,
                        const br_counter_state_t *counter, int timeout_ms, br_stub_result_t *out,
                        br_error_t *err)
{
	br_stub_request_t req = {
	    .bench_index = index,
	    .iterations = iterations,
	    .warmup = warmup,
	    .argument = 0,
	    .counter = &counter->counter,
	    .guard = counter,
	};
	return br_stub_run_request(s, &req, timeout_ms, out, err);
}
