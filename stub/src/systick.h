/*
 * SysTick registers the stub touches, from the ARMv7-M Architecture Reference
 * Manual, B3.3 "The system timer, SysTick" (the same registers in ARMv6-M,
 * B3.3, and ARMv8-M, B11.1), at the addresses of benchrack/debug_regs.h
 * (shared with the host). SysTick is a 24-bit down-counter present on every
 * Cortex-M this stub builds for.
 */
#ifndef BR_SYSTICK_H
#define BR_SYSTICK_H

#include <stdint.h>

#include "benchrack/debug_regs.h"

#define SYST_MMIO32(address) (*(volatile uint32_t *)(address))

/* B3.3.3 SYST_CSR: bit 0 ENABLE, bit 1 TICKINT, bit 2 CLKSOURCE (1: the
 * processor clock; 0: the optional external reference clock). */
#define SYST_CSR SYST_MMIO32(BR_SYST_CSR)
#define SYST_CSR_ENABLE_SHIFT 0U
#define SYST_CSR_ENABLE_MASK (0x1U << SYST_CSR_ENABLE_SHIFT)
#define SYST_CSR_CLKSOURCE_SHIFT 2U
#define SYST_CSR_CLKSOURCE_MASK (0x1U << SYST_CSR_CLKSOURCE_SHIFT)

/* B3.3.4 SYST_RVR: the value reloaded at 0, bits 23:0. */
#define SYST_RVR SYST_MMIO32(BR_SYST_RVR)
#define SYST_RVR_RELOAD_MASK 0x00FFFFFFU

/* B3.3.5 SYST_CVR: the current value; any write clears it to 0. The host
 * reads it through the request's counter_address. */
#define SYST_CVR SYST_MMIO32(BR_SYST_CVR)

#endif
