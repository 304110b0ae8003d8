/*
 * benchrack control block — the contract between the on-target stub and the
 * host controller. This header is the single description of that contract:
 * the stub includes it to lay the block out in RAM, the controller includes it
 * to know the offsets it reads and writes through the debug port.
 *
 * The block lives at the symbol BR_CONTROL_BLOCK_SYMBOL ("br_control_block"),
 * in initialised data: magic, version and size are in the ELF file itself, so
 * the host checks them before any server starts. The sample buffer is apart
 * from the block (in .bss, at samples_address) so that it costs no flash.
 * Every field is a little-endian uint32_t or a char array, so the layout is the
 * same on the 32-bit target and on a 64-bit host; the static asserts at the end
 * pin every offset, and a change to any of them must bump BR_CB_VERSION.
 *
 * Protocol (one halt per bench, never one per sample):
 *  1. After start-up the stub calls br_host_sync(), where the host has a
 *     breakpoint. The host checks magic and version, reads the bench table.
 *  2. The host writes a request (bench index, iterations, warm-up, counter,
 *     the bench's argument), then a new request_seq, and resumes.
 *  3. The stub runs the bench, fills the result area, sets result_seq to
 *     request_seq, and calls br_host_sync() again: the host halts there and
 *     reads the result area and the samples in bulk. Back to 2.
 */
#ifndef BENCHRACK_CONTROL_BLOCK_H
#define BENCHRACK_CONTROL_BLOCK_H

#include <stdint.h>

#define BR_CONTROL_BLOCK_SYMBOL "br_control_block"
#define BR_HOST_SYNC_SYMBOL "br_host_sync"

#define BR_CB_MAGIC 0x42524342U /* "BCRB" read as little-endian bytes: 'B','C','R','B' */
#define BR_CB_VERSION 1U

/* Each sample is one uint32_t counter delta. */
#define BR_CB_SAMPLE_BYTES 4U

#define BR_CB_MAX_BENCHES 32U
#define BR_CB_NAME_BYTES 24U      /* NUL-terminated, NUL-padded */
#define BR_CB_MAX_SAMPLES 1024U   /* per request, after warm-up */

/* Sentinel for a figure the stub could not measure (e.g. stack overrun). */
#define BR_CB_NOT_MEASURED 0xFFFFFFFFU

/* Counter direction in br_request_t.counter_flags. */
#define BR_CB_COUNTER_DOWN 0x1U /* counts down (SysTick): delta = start - end */

/* result.status values */
enum br_cb_status {
	BR_CB_STATUS_IDLE = 0U,        /* no request served yet */
	BR_CB_STATUS_OK = 1U,          /* result area holds the requested bench */
	BR_CB_STATUS_BAD_BENCH = 2U,   /* bench_index >= bench_count */
	BR_CB_STATUS_BAD_COUNT = 3U,   /* iterations == 0 or > BR_CB_MAX_SAMPLES */
	BR_CB_STATUS_NO_COUNTER = 4U,  /* counter_address == 0 */
};

/* Written by the host, read by the stub. */
typedef struct br_request {
	uint32_t seq;             /* host increments; the stub serves each value once */
	uint32_t bench_index;     /* index into bench_names */
	uint32_t iterations;      /* measured iterations (samples), <= BR_CB_MAX_SAMPLES */
	uint32_t warmup;          /* iterations run first and discarded */
	uint32_t counter_address; /* memory-mapped counter register */
	uint32_t counter_mask;    /* valid bits: 0xFFFFFFFF, or 0x00FFFFFF for SysTick */
	uint32_t counter_flags;   /* BR_CB_COUNTER_* */
	uint32_t argument;        /* the bench's parameter (e.g. a recursion depth); 0 asks for
	                             the bench's default. Was `reserved`, always written 0 by
	                             hosts and ignored by stubs before it: same layout, same
	                             version. */
} br_request_t;

/* Written by the stub, read by the host. */
typedef struct br_result {
	uint32_t seq;          /* equals request.seq once the bench has run */
	uint32_t status;       /* enum br_cb_status */
	uint32_t bench_index;  /* the bench that ran */
	uint32_t count;        /* samples written */
	uint32_t stack_bytes;  /* deepest stack use of the bench, or BR_CB_NOT_MEASURED */
	uint32_t heap_peak;    /* bytes */
	uint32_t heap_live;    /* bytes still allocated when the bench returned */
	uint32_t heap_allocs;  /* number of allocations */
} br_result_t;

typedef struct br_control_block {
	uint32_t magic;        /* BR_CB_MAGIC */
	uint32_t version;      /* BR_CB_VERSION */
	uint32_t size;         /* sizeof(br_control_block_t) */
	uint32_t bench_count;  /* entries used in bench_names, in suite order */
	uint32_t max_samples;  /* capacity of the sample buffer, BR_CB_MAX_SAMPLES */
	uint32_t samples_address; /* where the sample buffer is: uint32_t[max_samples] */
	uint32_t reserved[2];
	char bench_names[BR_CB_MAX_BENCHES][BR_CB_NAME_BYTES];
	br_request_t request;
	br_result_t result;
} br_control_block_t;

/* Offsets the host uses; pinned so that neither side can drift alone. */
#define BR_CB_OFFSET_BENCH_NAMES 32U
#define BR_CB_OFFSET_REQUEST (BR_CB_OFFSET_BENCH_NAMES + BR_CB_MAX_BENCHES * BR_CB_NAME_BYTES)
#define BR_CB_OFFSET_RESULT (BR_CB_OFFSET_REQUEST + 32U)
#define BR_CB_OFFSET_SAMPLES_ADDRESS 20U
#define BR_CB_SIZE (BR_CB_OFFSET_RESULT + 32U)

_Static_assert(sizeof(br_request_t) == 32U, "request layout");
_Static_assert(sizeof(br_result_t) == 32U, "result layout");
_Static_assert(__builtin_offsetof(br_control_block_t, magic) == 0U, "magic first");
_Static_assert(__builtin_offsetof(br_control_block_t, version) == 4U, "version second");
_Static_assert(__builtin_offsetof(br_control_block_t, bench_names) == BR_CB_OFFSET_BENCH_NAMES,
	       "bench table offset");
_Static_assert(__builtin_offsetof(br_control_block_t, request) == BR_CB_OFFSET_REQUEST,
	       "request offset");
_Static_assert(__builtin_offsetof(br_control_block_t, result) == BR_CB_OFFSET_RESULT,
	       "result offset");
_Static_assert(__builtin_offsetof(br_control_block_t, samples_address) ==
		       BR_CB_OFFSET_SAMPLES_ADDRESS,
	       "samples address offset");
_Static_assert(sizeof(br_control_block_t) == BR_CB_SIZE, "control block size");

#endif
