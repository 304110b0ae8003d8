/*
 * Reset and halt, for every server: the flavour's monitor command (OpenOCD
 * and pyOCD `reset halt`, J-Link `reset`, QEMU `system_reset`), or, for a
 * server without one, the generic path of the ARMv7-M Architecture Reference
 * Manual: DEMCR.VC_CORERESET set (C1.6.5), then AIRCR.SYSRESETREQ written with
 * its key (B3.2.6), and DHCSR.S_HALT awaited (C1.6.2); where DHCSR shows no
 * debugger at all (C_DEBUGEN clear: an emulator without the debug
 * registers), SP, PC and xPSR are written from the vector table instead, as
 * a reset would set them (peripherals are then not reset). Afterwards SP and PC
 * are checked against the image's vector table: a core that is not where the
 * image says it starts is an error, never a measurement.
 */
#ifndef BENCHRACK_DEBUG_RESET_HALT_H
#define BENCHRACK_DEBUG_RESET_HALT_H

#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"

/* The first two words of a Cortex-M vector table: the initial SP and the
 * reset handler's address (Thumb bit set). */
typedef struct br_reset_vector {
	uint32_t sp;
	uint32_t pc;
} br_reset_vector_t;

/*
 * Resets the halted core and leaves it halted at its reset vector; where the
 * flavour's command takes effect only when the core next runs (QEMU), writes
 * SP, PC and xPSR (Thumb bit) from vec as the reset would. Then reads SP and
 * PC back: they must equal vec->sp and vec->pc without its Thumb bit, else
 * BR_ERR_TARGET naming both. Breakpoints benchrack inserted are removed
 * first.
 */
br_status_t br_target_reset_halt(br_target_t *t, const br_reset_vector_t *vec, br_error_t *err);

#endif
