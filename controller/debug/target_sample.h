/*
 * The profiler's per-halt path (see debug/target.h's br_target_resume_batch
 * for the measuring one): at a halt, read the core registers r0..r15 and up
 * to BR_TARGET_SAMPLE_WINDOWS memory windows, then resume (continue or one
 * step) — in one write where the flavour allows, so a sample costs the stop
 * reply and one round trip. The windows must be chosen before the registers
 * are known (nothing can be asked after the resume), so the caller picks
 * them from what it knows (the stack region, the deepest SP seen so far).
 * br_target_sample_running also stops the running core in the same write
 * where the server allows it: one round trip per sample.
 */
#ifndef BENCHRACK_DEBUG_TARGET_SAMPLE_H
#define BENCHRACK_DEBUG_TARGET_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"

#define BR_TARGET_SAMPLE_WINDOWS 4U

typedef enum br_target_sample_resume {
	BR_TARGET_SAMPLE_CONTINUE, /* c: the caller stops it later (br_target_halt) */
	BR_TARGET_SAMPLE_STEP,     /* s: the caller awaits the step's stop */
	BR_TARGET_SAMPLE_STAY,     /* no resume: the core stays halted */
} br_target_sample_resume_t;

typedef struct br_target_sample_window {
	uint32_t address;
	size_t len;   /* bytes; at most the flavour's read cap */
	uint8_t *buf; /* len bytes, the caller's */
	bool ok;      /* out: read (false: the server refused it, e.g. no memory there) */
} br_target_sample_window_t;

typedef struct br_target_sample {
	br_target_regs_t regs; /* out: r0..r15 (xPSR not read: r[16] is 0) */
	br_target_sample_window_t windows[BR_TARGET_SAMPLE_WINDOWS];
	size_t nwindows;
	br_target_sample_resume_t resume;
} br_target_sample_t;

/*
 * On the halted core t: reads the registers and s->windows, then resumes as
 * s->resume says; the caller then waits for the stop (br_target_wait_stop)
 * or interrupts it (br_target_halt). Pipelined (one write: g, the m's, then
 * c or s) when the flavour allows, else one request at a time. A window the
 * server refuses (E nn) is marked not ok, not an error; a malformed reply or
 * a lost connection is. No breakpoint may sit at the PC when resuming on a
 * server that does not step over them (BR_ERR_USAGE before anything is sent,
 * when the PC is known).
 */
br_status_t br_target_sample(br_target_t *t, br_target_sample_t *s, br_error_t *err);

/*
 * On the running core t: stops it, then br_target_sample(s). Where the flavour
 * lets packets follow the interrupt (debug/flavour.h, packets_follow_interrupt)
 * and requests may be pipelined, the interrupt, the reads and the resume go in
 * one write and the sample costs one round trip (the client's reply timeout
 * applies to the stop); elsewhere br_target_halt (within timeout_ms), then
 * br_target_sample: two. A stop other than a signal (the program ended, a
 * File-I/O request, a console packet) is BR_ERR_TARGET naming it and ends the
 * session in the one-write form (the reads and the resume had been sent).
 */
br_status_t br_target_sample_running(br_target_t *t, br_target_sample_t *s, int timeout_ms,
                                     br_error_t *err);

#endif
