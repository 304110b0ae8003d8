/*
 * What a halted Cortex-M core was doing, for messages about a wait that
 * timed out: its PC and xPSR, and when IPSR says it is in an exception
 * handler, which exception (ARMv7-M ARM B1.5.2) and, for the faults, the
 * fault status registers (B3.2.15 CFSR, B3.2.16 HFSR, B3.2.17 MMFAR, B3.2.18
 * BFAR), decoded bit by bit.
 */
#ifndef BENCHRACK_DEBUG_CORE_STATE_H
#define BENCHRACK_DEBUG_CORE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchrack/debug_regs.h"
#include "common/error.h"
#include "debug/target.h"

#define BR_XPSR_IPSR_MASK 0x1FFU

typedef struct br_core_state {
	uint32_t pc;
	uint32_t xpsr;
	bool faults_read; /* in a fault handler, and the four registers below were read */
	uint32_t cfsr, hfsr, mmfar, bfar;
} br_core_state_t;

/*
 * Reads the halted core's PC and xPSR, and the fault status registers when
 * IPSR is a fault (NMI, HardFault, MemManage, BusFault, UsageFault). A fault
 * register that cannot be read leaves faults_read false (not an error).
 */
br_status_t br_core_state_read(br_target_t *t, br_core_state_t *out, br_error_t *err);

/* "Thread mode" for 0, "HardFault", "SysTick", "IRQ 5" ... into buf. */
void br_core_exception_name(unsigned ipsr, char *buf, size_t cap);

/*
 * The exception part of a message, "" in Thread mode, else e.g.
 * "IPSR 3 (HardFault); HFSR 0x40000000: FORCED; CFSR 0x00010000: UNDEFINSTR"
 * (MMFAR and BFAR when their valid bits are set), into buf.
 */
void br_core_state_describe(const br_core_state_t *s, char *buf, size_t cap);

#endif
