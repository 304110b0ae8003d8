/*
 * What measuring needs from a debug connection, independent of the server in
 * front of the board: memory, registers, breakpoints, run control. Built on
 * rsp/client; server differences come from a br_flavour_t row.
 */
#ifndef BENCHRACK_TARGET_TARGET_H
#define BENCHRACK_TARGET_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "rsp/client.h"
#include "rsp/stop_reply.h"
#include "target/flavour.h"

#define BR_TARGET_MAX_BREAKPOINTS 16U
#define BR_TARGET_REG_PC 15U
#define BR_TARGET_REG_LR 14U
#define BR_TARGET_REG_SP 13U

typedef enum br_breakpoint_kind {
	BR_BREAKPOINT_SOFTWARE = 0, /* Z0: the server patches the instruction */
	BR_BREAKPOINT_HARDWARE = 1, /* Z1: an FPB comparator (needed in flash) */
} br_breakpoint_kind_t;

/* Receives what the firmware prints (console O packets, semihosting writes). */
typedef void (*br_target_output_fn)(void *ctx, int fd, const char *text, size_t len);

typedef struct br_target {
	rsp_client_t rsp;
	const br_flavour_t *flavour;
	struct {
		uint32_t address;
		br_breakpoint_kind_t kind;
	} breakpoints[BR_TARGET_MAX_BREAKPOINTS];
	size_t breakpoint_count;
	br_target_output_fn output;
	void *output_ctx;
	bool exited;            /* the server reported the program exited (W/X) */
} br_target_t;

/*
 * Takes over a connected transport, negotiates features, asks for the halt
 * reason once ('?': on QEMU it clears breakpoints, so only here) and prepares
 * register access. On failure the transport is closed.
 */
br_status_t br_target_attach(br_target_t *t, const rsp_transport_t *transport,
			     const br_flavour_t *flavour, br_error_t *err);

/* Closes the connection without detaching (the server may be gone). */
void br_target_close(br_target_t *t);

/* Detaches (the target keeps running under the server) and closes. */
br_status_t br_target_detach(br_target_t *t, br_error_t *err);

/*
 * Reads len bytes at address into buf, in chunks the server accepts.
 * An error reply (E nn) is BR_ERR_TARGET naming the address: never zeros.
 */
br_status_t br_target_mem_read(br_target_t *t, uint32_t address, void *buf, size_t len,
			       br_error_t *err);

/* Writes len bytes from buf at address, in chunks the server accepts. */
br_status_t br_target_mem_write(br_target_t *t, uint32_t address, const void *buf, size_t len,
				br_error_t *err);

/* Reads one 32-bit little-endian word at address. */
br_status_t br_target_read_u32(br_target_t *t, uint32_t address, uint32_t *value, br_error_t *err);

/* Writes one 32-bit little-endian word at address. */
br_status_t br_target_write_u32(br_target_t *t, uint32_t address, uint32_t value, br_error_t *err);

/* Reads core register regno (0-15; 15 is the PC) of the halted core. */
br_status_t br_target_reg_read(br_target_t *t, unsigned regno, uint32_t *value, br_error_t *err);

/* Inserts a breakpoint at address (Thumb bit cleared); kind as given. */
br_status_t br_target_breakpoint_insert(br_target_t *t, uint32_t address,
					br_breakpoint_kind_t kind, br_error_t *err);

/* Removes the breakpoint at address. */
br_status_t br_target_breakpoint_remove(br_target_t *t, uint32_t address, br_error_t *err);

/*
 * Resumes the halted core. When the PC sits on an inserted breakpoint and
 * the server does not step over it by itself, removes it, steps one
 * instruction and inserts it again first. Returns once the continue is sent.
 */
br_status_t br_target_resume(br_target_t *t, br_error_t *err);

/*
 * Waits up to timeout_ms for the core to stop and returns the stop reply.
 * Console output and semihosting writes that arrive meanwhile go to the
 * output callback and are answered. The program exiting is BR_ERR_TARGET.
 * On timeout the core is still running: the session is over (BR_ERR_TIMEOUT).
 */
br_status_t br_target_wait_stop(br_target_t *t, int timeout_ms, rsp_stop_reply_t *stop,
				br_error_t *err);

/* Single-steps one instruction and waits for the stop. */
br_status_t br_target_step(br_target_t *t, br_error_t *err);

#endif
