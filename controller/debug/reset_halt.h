/*
 * Reset and halt, for every server: the flavour's monitor command (OpenOCD
 * and pyOCD `reset halt`, J-Link `reset`, QEMU `system_reset`), or, for a
 * server without one, the generic path of the ARMv7-M Architecture Reference
 * Manual: DEMCR.VC_CORERESET set (C1.6.5), then AIRCR.SYSRESETREQ written with
 * its key (B3.2.6), and DHCSR.S_HALT awaited (C1.6.2); where DHCSR shows no
 * debugger at all (C_DEBUGEN clear: an emulator without the debug
 * registers), SP, PC and xPSR are written from the vector table instead, as
 * a reset would set them (peripherals are then not reset). Afterwards SP and PC
 * (and the vector table in memory) are checked against the image's: a core
 * that is not where the image says it starts is an error, never a
 * measurement. The order of reset and load is run/image_start.h's.
 */
#ifndef BENCHRACK_DEBUG_RESET_HALT_H
#define BENCHRACK_DEBUG_RESET_HALT_H

#include <stdbool.h>
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
 * Resets the halted core and leaves it halted at the reset vector of what
 * its memory then holds: the flavour's reset_halt_command, else the generic
 * path. *reset is false where the core could not be reset (the generic path
 * found no debugger in DHCSR): nothing changed, SP and PC are the caller's
 * to write. Breakpoints benchrack inserted are removed first. On a server
 * whose reset restores a boot image (flavour reset_restores_boot_image:
 * QEMU's -kernel), memory afterwards holds that image where the server put
 * it back.
 */
br_status_t br_target_reset_halt(br_target_t *t, bool *reset, br_error_t *err);

/*
 * Starts the halted core at vec as a reset that read vec would: SP = vec->sp,
 * PC = vec->pc without its Thumb bit, xPSR = its Thumb bit alone. Returns
 * BR_OK or the target's error.
 */
br_status_t br_target_start_at_vector(br_target_t *t, const br_reset_vector_t *vec,
                                      br_error_t *err);

/*
 * Checks that the halted core is at vec: SP and PC read back equal vec->sp
 * and vec->pc without its Thumb bit, and the two words at table in memory
 * equal vec (the image's vector table is what the board holds). Else
 * BR_ERR_TARGET naming both.
 */
br_status_t br_target_check_at_vector(br_target_t *t, const br_reset_vector_t *vec, uint32_t table,
                                      br_error_t *err);

#endif
