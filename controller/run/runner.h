/*
 * The one runner: every measurement on every board kind starts here. Given
 * an endpoint of any kind (QEMU launched, any gdbserver at host:port,
 * OpenOCD launched, a serial probe) and the image that must run there, it
 * reaches the board, loads the image over the debug port as the load policy
 * says and verifies it, resets and halts the core at the image's reset
 * vector (SP and PC checked against its vector table), and starts the
 * counter. `run`, `check`, `measure` and each rack worker measure through
 * it (run/board_run.h, run/run_measure.h); none measures any other way.
 */
#ifndef BENCHRACK_RUN_RUNNER_H
#define BENCHRACK_RUN_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "config/board.h"
#include "debug/endpoint.h"
#include "measure/counter.h"
#include "run/image_load.h"

#define BR_RUNNER_SERVER_TEXT 192U

typedef struct br_runner_options {
	const br_endpoint_t *endpoint; /* how to reach the board (copied at open) */
	const char *elf_path;          /* the image that must run there */
	/* Whether to write the image (config/board.h); DEFAULT: never when
	 * benchrack launches QEMU with this image as its kernel, else
	 * if-different. */
	br_board_load_t load;
	const br_counter_t *counter; /* NULL: QEMU's TIM2 */
	/* The caller reads no counter (profile's sampling, QEMU's execution
	 * log): none is started, r->counter stays zero, and a launched QEMU is
	 * not put in record mode for QEMU's icount (a core in record mode
	 * answers no interrupt: br_counter_uninterruptible). */
	bool no_counter;
	br_target_output_fn output; /* what the firmware prints (may be NULL) */
	void *output_ctx;
	br_image_progress_fn load_progress; /* a long load's progress (may be NULL) */
	void *load_progress_ctx;
	br_image_loaded_fn load_done; /* what a load did, once done (may be NULL) */
	void *load_done_ctx;
} br_runner_options_t;

typedef struct br_runner {
	br_endpoint_t endpoint;
	br_session_t session;
	bool open;
	br_counter_state_t counter;         /* as started on the target */
	br_image_load_result_t load;        /* what loading did */
	char server[BR_RUNNER_SERVER_TEXT]; /* "qemu-system-arm -M netduinoplus2 at 127.0.0.1:4000"
	                                     */
} br_runner_t;

/*
 * Opens r as o says: reach the board (debug/endpoint.h), unless benchrack
 * just launched QEMU with this image reset, load and verify the image as the
 * policy says and halt at its reset vector (run/image_start.h: the order of
 * reset and load is the server's; run/image_load.h: a mismatch after writing
 * is BR_ERR_INFRA naming the first differing address), start the counter
 * unless o->no_counter (measure/counter_target.h). On failure nothing stays
 * open, and a launched server that died is quoted (r->server says what was
 * reached as far as it got).
 */
br_status_t br_runner_open(const br_runner_options_t *o, br_runner_t *r, br_error_t *err);

/*
 * Starts counter c on the halted target t as every measurement does, filling
 * *state: QEMU's icount read once (record mode proven); no enable writes
 * where the server's writes leave peripherals alone (QEMU); elsewhere
 * br_counter_start. Returns BR_OK or the target's error.
 */
br_status_t br_runner_counter_start(br_target_t *t, const br_counter_t *c,
                                    br_counter_state_t *state, br_error_t *err);

/* The target of an open runner. */
br_target_t *br_runner_target(br_runner_t *r);

/*
 * True when r's core runs and cannot be stopped: it answers no interrupt
 * (br_counter_uninterruptible, QEMU in record mode). Nothing can halt it to
 * see where it is or to detach; br_runner_close stops a launched QEMU.
 */
bool br_runner_core_unstoppable(const br_runner_t *r);

/* True when benchrack launched r's server (and so stops it at close). */
bool br_runner_launched(const br_runner_t *r);

/* After a failure during the session: adds a launched server's last words. */
void br_runner_explain(br_runner_t *r, br_error_t *err);

/*
 * Hands the board to another debugger (`benchrack gdb`): closes benchrack's
 * own connection without detaching, so the core stays halted where the
 * runner left it and the server (launched or not) keeps listening for the
 * next client. br_runner_close still stops a launched server.
 */
void br_runner_release(br_runner_t *r);

/*
 * Ends the session: a launched server is stopped; a server benchrack did not
 * launch is detached from (the board runs on), or only disconnected from
 * when its core cannot be stopped to detach (br_runner_core_unstoppable).
 * Safe on a runner that failed to open.
 */
void br_runner_close(br_runner_t *r);

#endif
