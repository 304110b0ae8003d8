/*
 * One measurement as `benchrack measure` asks for it: check the ELF, resolve
 * what to measure, and, on a target run/runner.h opened (loaded, reset,
 * counter started), take the samples in one of three ways:
 *   - a breakpoint session on any firmware (a range or a function);
 *   - a stub bench in batch mode (the stub's empty bench calibrates it);
 *   - a breakpoint session inside a stub bench: the stub runs the bench, the
 *     breakpoints measure a region of it (so both modes can be compared on
 *     the same code in the same image).
 * Raw figures only: statistics come after (data flows forward). Libraries
 * never print: progress and firmware output go through callbacks.
 */
#ifndef BENCHRACK_MEASURE_MEASURE_RUN_H
#define BENCHRACK_MEASURE_MEASURE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_build_id.h"
#include "elf/elf_sizes.h"
#include "measure/breakpoint_session.h"
#include "measure/calibration.h"
#include "measure/counter.h"
#include "measure/span.h"
#include "measure/stack_region.h"
#include "measure/stub_batch.h"
#include "debug/endpoint.h"

#define BR_MEASURE_DEFAULT_ITERATIONS 100U
#define BR_MEASURE_DEFAULT_WARMUP 2U
#define BR_MEASURE_DEFAULT_TIMEOUT_MS 10000
#define BR_MEASURE_START_TIMEOUT_MS 10000
/* Without an explicit -n: how long after a sample a start not reached again
 * waits before the core is looked at (parked in an endless loop: done). */
#define BR_MEASURE_IDLE_CHECK_MS 250
#define BR_MEASURE_SERVER_TEXT 192U

/* Where the board is, for the common cases: QEMU launched with the ELF, or a
 * gdbserver already running at host:port (target/endpoint.h does the work). */
typedef struct br_link_options {
	const char *qemu_program;     /* NULL: qemu-system-arm */
	const char *machine;          /* NULL: netduinoplus2 */
	const char *const *qemu_args; /* extra QEMU arguments (a board's), or NULL */
	size_t qemu_arg_count;
	const char *remote;         /* "HOST:PORT" of a running gdbserver; NULL: QEMU */
	const char *flavour;        /* remote: its flavour (target/flavour.h); NULL: generic */
	br_target_output_fn output; /* what the firmware prints (may be NULL) */
	void *output_ctx;
	br_target_load_progress_fn load_progress; /* a long load's bytes written (may be NULL) */
	void *load_progress_ctx;
} br_link_options_t;

typedef struct br_measure_options {
	const char *elf_path;
	/* What: a range (from and to), a function, or neither with a bench. */
	const char *from;
	const char *to;
	const char *function;
	const char *bench;       /* a stub firmware's bench: batch mode, or the one the stub
	                            runs while the breakpoints measure */
	uint32_t bench_argument; /* request.argument; 0: the bench's default */
	uint32_t iterations;     /* measured samples */
	uint32_t warmup;         /* samples taken first and discarded */
	/* Breakpoint mode, a region reached fewer than iterations times (its start
	 * not hit again within timeout_ms): true, the samples taken are the
	 * result (no -n was given); false, they are kept and it is BR_ERR_TIMEOUT
	 * saying "ran k of N times in T s". */
	bool fewer_ok;
	const br_counter_t *counter;
	/* Breakpoint mode: paint and scan the stack; the region given, or (NULL)
	 * the one the ELF's linker symbols define. Stub benches always report it. */
	bool stack;
	const br_stack_region_t *stack_region;
	br_breakpoint_kind_t breakpoint_kind;
	int timeout_ms;         /* the longest wait for any one halt */
	br_link_options_t link; /* how to reach the board, simply */
	/* Any other way to reach it (OpenOCD, a serial probe, a board's memory
	 * map and comparator count): used as it is when not NULL, and then
	 * link's server fields are not. QEMU's kernel is set from elf_path when
	 * NULL. */
	const br_endpoint_t *endpoint;
} br_measure_options_t;

typedef enum br_measure_mode {
	BR_MEASURE_BREAKPOINT, /* a region at breakpoints (inside a bench when bench[0] != 0) */
	BR_MEASURE_STUB,       /* a stub bench in batch mode */
} br_measure_mode_t;

typedef struct br_measure_raw {
	br_measure_mode_t mode;
	br_span_t span;               /* BR_MEASURE_BREAKPOINT */
	char bench[BR_CB_NAME_BYTES]; /* the bench that ran, "" for none */
	uint32_t bench_argument;
	br_counter_state_t counter; /* as started on the target */
	/* Every mode: count samples (warm-up excluded), raw, with whether each
	 * is measured (false: its host time could hide a wrap). Owned. */
	uint64_t *ticks;
	bool *measured;
	size_t count;
	uint32_t asked; /* the samples asked for: count is less when the region ran out */
	br_calibration_t calibration;
	br_bp_result_t bp;     /* breakpoint mode: per-sample details (stack) */
	br_halt_proof_t proof; /* breakpoint mode: the image's marker every halt reads */
	bool stack_painted;    /* breakpoint mode painted stack_region */
	br_stack_region_t stack_region;
	br_stub_result_t *stub; /* a bench ran: its result (stack, heap); owned */
	double wall_seconds;    /* host time of taking the samples, no start-up: the
	                           breakpoint session, or the bench's request from
	                           writing it to reading its samples back */
	char server[BR_MEASURE_SERVER_TEXT];
	char build_id[BR_ELF_BUILD_ID_HEX_SIZE];
	br_elf_sizes_t sizes; /* of the ELF */
} br_measure_raw_t;

/* Sets the defaults above in opts (counter: QEMU's TIM2; breakpoint kinds by memory region). */
void br_measure_options_default(br_measure_options_t *opts);

/* Room for the host of a --remote HOST:PORT in br_measure_endpoint. */
#define BR_MEASURE_HOST_BYTES 256U

/*
 * The endpoint opts names: its own endpoint, or one built from its link
 * options (QEMU by default, a running gdbserver for link.remote); host
 * (host_cap bytes, the caller's) keeps the parsed host name ep points to.
 * A malformed HOST:PORT is BR_ERR_USAGE.
 */
br_status_t br_measure_endpoint(const br_measure_options_t *opts, br_endpoint_t *ep, char *host,
                                size_t host_cap, br_error_t *err);

/*
 * Before any server starts: checks the combination of options (BR_ERR_USAGE)
 * and reads what the ELF says (sizes, build-id, the span or the stub's
 * layout, the stack region) into *out and *layout. Free out with
 * br_measure_raw_free, also after an error.
 */
br_status_t br_measure_prepare(const br_measure_options_t *opts, br_measure_raw_t *out,
                               br_stub_layout_t *layout, br_error_t *err);

/*
 * Takes the samples on target (running the ELF, halted at its reset vector,
 * counter as started there): a breakpoint session, a stub bench in batch
 * mode, or a breakpoint session inside a bench. Every sample comes back
 * marked measured as far as this layer can tell (a breakpoint session's own
 * per-halt wrap check); whether the counter counted at all, and the batch's
 * wrap check, are run/'s (run/run_checks.h). Errors: breakpoint_session.h,
 * stub_batch.h; what finished before is kept in out.
 */
br_status_t br_measure_take(const br_measure_options_t *opts, const br_stub_layout_t *layout,
                            br_target_t *target, const br_counter_state_t *counter,
                            br_measure_raw_t *out, br_error_t *err);

/* Frees what br_measure_prepare and br_measure_take allocated. */
void br_measure_raw_free(br_measure_raw_t *raw);

#endif
