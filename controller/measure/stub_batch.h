/*
 * Stub batch mode: the controller side of the control-block protocol of
 * stub/include/benchrack/control_block.h. One halt per chunk of the
 * firmware's sample buffer, never one per sample: write a request, resume,
 * halt at br_host_sync, read the result and the chunk's samples in bulk; a
 * bench asked for more samples than the buffer holds is asked again, chunk by
 * chunk, and the halts it took are counted.
 *
 * Counters of any length: the stub's samples are 32-bit differences, so a
 * sample longer than the counter's period would wrap unseen. With a guard
 * (request.guard), the host reads the counter (proven: halt_proof.h, with
 * the target's marker) in the write that resumes each chunk, at guard halts
 * (0x03, read, continue) every quarter period at the counter's most rate while
 * it runs, and at its halt: the chunk's ticks as a 64-bit sum, every
 * interval judged (measure/wrap.h). No sample can have wrapped when that sum
 * is less than the samples' sum plus one period (br_wrap_guarded_check).
 */
#ifndef BENCHRACK_MEASURE_STUB_BATCH_H
#define BENCHRACK_MEASURE_STUB_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "benchrack/control_block.h"
#include "common/error.h"
#include "elf/elf_file.h"
#include "measure/counter.h"
#include "measure/stub_layout.h"
#include "measure/wrap.h"
#include "debug/target.h"

/* One request to the stub (control_block.h, br_request_t). */
typedef struct br_stub_request {
	uint32_t bench_index;
	uint32_t iterations; /* samples kept, 1..BR_CB_MAX_SAMPLES (in chunks of max_samples) */
	uint32_t warmup;     /* iterations run first and discarded */
	uint32_t argument;   /* the bench's parameter; 0: its default */
	const br_counter_t *counter;
	/* The same counter as started (period, most rate): guard reads while the
	 * bench runs; NULL, or a rate not known, for none (then the host time
	 * bounds a wrap: br_wrap_batch_check). */
	const br_counter_state_t *guard;
	/* A breakpoint session measures a region of the bench (measure --bench
	 * with --from/--to or --function): the stub's own samples are not
	 * wanted, so a monitor counter (icount) is not watched at its reads. */
	bool breakpoints_measure;
} br_stub_request_t;

typedef struct br_stub_session {
	br_target_t *target;
	br_stub_layout_t layout;
	uint32_t bench_count;
	uint32_t max_samples;
	uint32_t samples_address;
	char bench_names[BR_CB_MAX_BENCHES][BR_CB_NAME_BYTES];
	uint32_t next_seq;
	br_stub_request_t pending; /* the request written last (br_stub_request_write) */
	uint32_t pending_seq;      /* its current chunk's seq */
	uint32_t pending_chunk;    /* samples that chunk asks for */
	uint32_t pending_done;     /* samples collected before that chunk */
	bool guard_one_at_a_time;  /* a guard read's pipeline was lost (a NAK, a damaged
	                              reply): the session's later ones go a request at a time */
} br_stub_session_t;

/* What one bench produced: raw counter deltas and the stub's other figures. */
typedef struct br_stub_result {
	uint32_t bench_index;
	uint32_t count;
	uint32_t samples[BR_CB_MAX_SAMPLES];
	uint32_t stack_bytes;   /* deepest of any chunk; BR_CB_NOT_MEASURED when a paint was
	                           overrun */
	uint32_t heap_peak;     /* highest of any chunk (each chunk is one call of the bench) */
	uint32_t heap_live;     /* highest left allocated by any chunk */
	uint32_t heap_allocs;   /* of all chunks, each chunk's warm-up included */
	uint32_t halts;         /* halts at br_host_sync taken: one per chunk */
	double host_seconds;    /* host time from each resume to the halt at br_host_sync,
	                           summed over the chunks (the time halted between them left
	                           out) */
	bool guarded;           /* every chunk ran between guard reads (request.guard) */
	uint64_t guarded_ticks; /* the counter's ticks from each resume to its halt, summed */
	br_wrap_verdict_t guard_verdict; /* BR_WRAP_OK, or the first interval that failed */
	uint32_t guard_halts;            /* guard halts taken while the chunks ran */
} br_stub_result_t;

/*
 * Starts a session on a halted target running that firmware (layout from
 * br_stub_layout_from_elf, stub_layout.h): breaks at br_host_sync, resumes
 * from reset, waits (timeout_ms) for the first sync and checks the control
 * block again in target memory (the same bytes as the file's).
 */
br_status_t br_stub_session_open(br_stub_session_t *s, br_target_t *target,
                                 const br_stub_layout_t *layout, int timeout_ms, br_error_t *err);

/* The index of the bench called name, or -1. */
int br_stub_bench_index(const br_stub_session_t *s, const char *name);

/*
 * Runs bench `index` for iterations samples with the given counter (guarded
 * as request.guard says), in
 * chunks that fit the firmware's sample buffer (max_samples each; every chunk
 * is one call of the bench with its own warmup iterations first, and one halt
 * at br_host_sync), waiting timeout_ms for each; fills out. A bench that never comes back is
 * BR_ERR_TIMEOUT naming it; a request the stub refused is BR_ERR_USAGE with the stub's reason.
 */
br_status_t br_stub_run(br_stub_session_t *s, uint32_t index, uint32_t iterations, uint32_t warmup,
                        const br_counter_state_t *counter, int timeout_ms, br_stub_result_t *out,
                        br_error_t *err);

/* br_stub_run with every field of the request, the bench's argument included. */
br_status_t br_stub_run_request(br_stub_session_t *s, const br_stub_request_t *req, int timeout_ms,
                                br_stub_result_t *out, br_error_t *err);

/*
 * The first half of br_stub_run_request: checks req and writes it into the
 * halted stub's control block, without resuming. Whoever resumes next runs
 * the bench (a breakpoint session inside a bench does exactly that), and
 * br_stub_request_finish collects the result.
 */
br_status_t br_stub_request_write(br_stub_session_t *s, const br_stub_request_t *req,
                                  br_error_t *err);

/*
 * The second half: resumes the halted core, waits (timeout_ms) for the stub
 * to reach br_host_sync after the request written last, asks for the
 * remaining chunks if the request was longer than the buffer, and fills out
 * with the results and samples of all of them (the errors of br_stub_run).
 */
br_status_t br_stub_request_finish(br_stub_session_t *s, int timeout_ms, br_stub_result_t *out,
                                   br_error_t *err);

#endif
