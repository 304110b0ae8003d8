/*
 * benchrack control block — the contract between the on-target stub and the
 * host controller. This header is the single description of that contract:
 * the stub includes it to lay out its two parts, the controller includes it to
 * know the offsets it reads and writes through the debug port.
 *
 * Two parts, so that the stub costs a few bytes of flash and RAM:
 *  - br_control_block_t, at the symbol BR_CONTROL_BLOCK_SYMBOL
 *    ("br_control_block"): constant, in flash (.rodata). Magic, version,
 *    size, the bench table's address and count, and where the other part and
 *    the sample buffer are. The host reads it from the ELF file before any
 *    server starts, and again from target memory once the image runs.
 *  - br_control_state_t, at the address the block's state_address gives: the
 *    request and result areas, in RAM (.bss: zeroed at reset, never stored in
 *    flash).
 * The bench table is the firmware's br_suite (benchrack/suite.h): in flash,
 * bench_count entries of BR_CB_BENCH_ENTRY_BYTES, each starting with the
 * address of the bench's NUL-terminated name. The sample buffer is apart from
 * both (section .br_samples, not zeroed), max_samples uint32_t at
 * samples_address; its size is the firmware build's choice (linker symbol
 * br_ld_sample_count, stub/link.ld.in).
 *
 * Every field is a little-endian uint32_t, so the layout is the same on the
 * 32-bit target and on a 64-bit host; the static asserts at the end pin every
 * offset, and a change to any of them must bump BR_CB_VERSION.
 *
 * Protocol (one halt per request, never one per sample):
 *  1. After start-up the stub calls br_host_sync(), where the host has a
 *     breakpoint. The host checks magic and version in target memory.
 *  2. The host writes a request (bench index, iterations, warm-up, counter,
 *     the bench's argument), then a new request seq, and resumes.
 *  3. The stub runs the bench, fills the result area, sets result seq to
 *     request seq, and calls br_host_sync() again: the host halts there and
 *     reads the result area and the samples in bulk. Back to 2. A bench asked
 *     for more iterations than the buffer holds is asked in several requests
 *     (chunks) of at most max_samples each.
 */
#ifndef BENCHRACK_CONTROL_BLOCK_H
#define BENCHRACK_CONTROL_BLOCK_H

#include <stdint.h>

#define BR_CONTROL_BLOCK_SYMBOL "br_control_block"
#define BR_HOST_SYNC_SYMBOL "br_host_sync"

#define BR_CB_MAGIC 0x42524342U /* "BCRB" read as little-endian bytes: 'B','C','R','B' */
#define BR_CB_VERSION 2U

/* Each sample is one uint32_t counter delta. */
#define BR_CB_SAMPLE_BYTES 4U

#define BR_CB_MAX_BENCHES 32U
#define BR_CB_NAME_BYTES 24U    /* a name the host reads: at most 23 characters */
#define BR_CB_MAX_SAMPLES 1024U /* the largest sample buffer the host accepts */

/* One entry of the bench table on the target (br_suite_entry_t): the name's
 * address, then the function's. */
#define BR_CB_BENCH_ENTRY_BYTES 8U
#define BR_CB_BENCH_ENTRY_NAME 0U

/* Sentinel for a figure the stub could not measure (e.g. stack overrun). */
#define BR_CB_NOT_MEASURED 0xFFFFFFFFU

/* Counter direction in br_request_t.counter_flags. */
#define BR_CB_COUNTER_DOWN 0x1U /* counts down (SysTick): delta = start - end */

/* result.status values */
enum br_cb_status {
	BR_CB_STATUS_IDLE = 0U,       /* no request served yet */
	BR_CB_STATUS_OK = 1U,         /* result area holds the requested bench */
	BR_CB_STATUS_BAD_BENCH = 2U,  /* bench_index >= bench_count */
	BR_CB_STATUS_BAD_COUNT = 3U,  /* iterations == 0 or > max_samples */
	BR_CB_STATUS_NO_COUNTER = 4U, /* counter_address == 0 */
};

/* Written by the host, read by the stub. */
typedef struct br_request {
	uint32_t seq;             /* host increments; the stub serves each value once */
	uint32_t bench_index;     /* index into the bench table */
	uint32_t iterations;      /* measured iterations (samples), <= max_samples */
	uint32_t warmup;          /* iterations run first and discarded */
	uint32_t counter_address; /* memory-mapped counter register */
	uint32_t counter_mask;    /* valid bits: 0xFFFFFFFF, or 0x00FFFFFF for SysTick */
	uint32_t counter_flags;   /* BR_CB_COUNTER_* */
	uint32_t argument;        /* the bench's parameter (e.g. a recursion depth); 0 asks for
	                             the bench's default */
} br_request_t;

/* Written by the stub, read by the host. */
typedef struct br_result {
	uint32_t seq;         /* equals request.seq once the bench has run */
	uint32_t status;      /* enum br_cb_status */
	uint32_t bench_index; /* the bench that ran */
	uint32_t count;       /* samples written */
	uint32_t stack_bytes; /* deepest stack use of the bench, or BR_CB_NOT_MEASURED */
	uint32_t heap_peak;   /* bytes */
	uint32_t heap_live;   /* bytes still allocated when the bench returned */
	uint32_t heap_allocs; /* number of allocations */
} br_result_t;

/* The constant part, in flash. */
typedef struct br_control_block {
	uint32_t magic;           /* BR_CB_MAGIC */
	uint32_t version;         /* BR_CB_VERSION */
	uint32_t size;            /* sizeof(br_control_block_t) */
	uint32_t bench_count;     /* entries of the bench table, in suite order */
	uint32_t bench_table;     /* address of the bench table (br_suite) */
	uint32_t state_address;   /* address of the br_control_state_t (RAM) */
	uint32_t max_samples;     /* capacity of the sample buffer, 1..BR_CB_MAX_SAMPLES */
	uint32_t samples_address; /* where the sample buffer is: uint32_t[max_samples] */
} br_control_block_t;

/* The request and result areas, in RAM. */
typedef struct br_control_state {
	br_request_t request;
	br_result_t result;
} br_control_state_t;

/* Offsets the host uses; pinned so that neither side can drift alone. */
#define BR_CB_OFFSET_BENCH_COUNT 12U
#define BR_CB_OFFSET_BENCH_TABLE 16U
#define BR_CB_OFFSET_STATE_ADDRESS 20U
#define BR_CB_OFFSET_MAX_SAMPLES 24U
#define BR_CB_OFFSET_SAMPLES_ADDRESS 28U
#define BR_CB_SIZE 32U
#define BR_CS_OFFSET_REQUEST 0U
#define BR_CS_OFFSET_RESULT 32U
#define BR_CS_SIZE 64U
/* The word a request names as its counter when the counter has no register
 * (QEMU's instruction count, counter icount): result.count, which the stub
 * only ever stores to. The host sets a read watchpoint on it, so that each
 * of the bench loop's two counter reads stops the core, and takes the
 * sample from QEMU's count at those stops; the stub's own deltas of it are
 * not used. */
#define BR_CS_OFFSET_WATCH (BR_CS_OFFSET_RESULT + 12U)

_Static_assert(sizeof(br_request_t) == 32U, "request layout");
_Static_assert(sizeof(br_result_t) == 32U, "result layout");
_Static_assert(__builtin_offsetof(br_control_block_t, magic) == 0U, "magic first");
_Static_assert(__builtin_offsetof(br_control_block_t, version) == 4U, "version second");
_Static_assert(__builtin_offsetof(br_control_block_t, size) == 8U, "size third");
_Static_assert(__builtin_offsetof(br_control_block_t, bench_count) == BR_CB_OFFSET_BENCH_COUNT,
               "bench count offset");
_Static_assert(__builtin_offsetof(br_control_block_t, bench_table) == BR_CB_OFFSET_BENCH_TABLE,
               "bench table offset");
_Static_assert(__builtin_offsetof(br_control_block_t, state_address) == BR_CB_OFFSET_STATE_ADDRESS,
               "state address offset");
_Static_assert(__builtin_offsetof(br_control_block_t, max_samples) == BR_CB_OFFSET_MAX_SAMPLES,
               "max samples offset");
_Static_assert(__builtin_offsetof(br_control_block_t, samples_address) ==
                   BR_CB_OFFSET_SAMPLES_ADDRESS,
               "samples address offset");
_Static_assert(sizeof(br_control_block_t) == BR_CB_SIZE, "control block size");
_Static_assert(__builtin_offsetof(br_control_state_t, request) == BR_CS_OFFSET_REQUEST,
               "request offset");
_Static_assert(__builtin_offsetof(br_control_state_t, result) == BR_CS_OFFSET_RESULT,
               "result offset");
_Static_assert(sizeof(br_control_state_t) == BR_CS_SIZE, "control state size");
_Static_assert(BR_CS_OFFSET_RESULT + __builtin_offsetof(br_result_t, count) == BR_CS_OFFSET_WATCH,
               "watch word offset");

#endif
