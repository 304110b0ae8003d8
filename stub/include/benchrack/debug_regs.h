/*
 * The ARMv7-M / ARMv8-M system and debug registers benchrack (and its
 * benches) read and write, each address written once, here, for the stub (firmware) and the
 * host (controller/) alike. Plain integer constants: the stub wraps them in
 * its volatile accessors, the host hands them to memory reads and writes
 * over the debug port. Section numbers are the ARMv7-M Architecture
 * Reference Manual's (DDI 0403); the ARMv8-M registers are at the same
 * addresses with the same bits (DDI 0553, B11 and D1).
 *
 * Adding a register: its address and fields here, with the manual's
 * section; nowhere else (tests/style/check_register_addresses.py fails on an
 * address of this header written in controller/ or stub/).
 */
#ifndef BENCHRACK_DEBUG_REGS_H
#define BENCHRACK_DEBUG_REGS_H

/* ---- System control block (B3.2) ---------------------------------------- */

/* B3.2.3 CPUID: [31:24] Implementer, [23:20] Variant, [19:16] Architecture,
 * [15:4] PartNo, [3:0] Revision. Readable at any time: the RSP client's
 * resync marker reads it. */
#define BR_SCB_CPUID 0xE000ED00U
/* B3.2.5 VTOR: where the vector table lives (the reset vector is word 1). */
#define BR_SCB_VTOR 0xE000ED08U
/* B3.2.6 AIRCR: a write needs VECTKEY in [31:16]; SYSRESETREQ (bit 2). */
#define BR_SCB_AIRCR 0xE000ED0CU
#define BR_AIRCR_VECTKEY 0x05FA0000U
#define BR_AIRCR_SYSRESETREQ (1U << 2)
/* B3.2.15-B3.2.18: the fault status and address registers. */
#define BR_SCB_CFSR 0xE000ED28U
#define BR_SCB_HFSR 0xE000ED2CU
#define BR_SCB_MMFAR 0xE000ED34U
#define BR_SCB_BFAR 0xE000ED38U

/* ---- NVIC (B3.4) -------------------------------------------------------- */

/* B3.4.4 NVIC_ISER0 and B3.4.6 NVIC_ISPR0: set-enable and set-pending of
 * external interrupts 0-31 (bit n: interrupt n). */
#define BR_NVIC_ISER0 0xE000E100U
#define BR_NVIC_ISPR0 0xE000E200U

/* ---- Debug (C1.6) ------------------------------------------------------- */

/* C1.6.2 DHCSR: S_HALT (bit 17), C_DEBUGEN (bit 0). */
#define BR_DHCSR 0xE000EDF0U
#define BR_DHCSR_S_HALT (1U << 17)
#define BR_DHCSR_C_DEBUGEN (1U << 0)
/* C1.6.5 DEMCR: TRCENA (bit 24) powers the DWT and ITM; VC_CORERESET
 * (bit 0) halts the core on a reset. */
#define BR_DEMCR 0xE000EDFCU
#define BR_DEMCR_TRCENA (1U << 24)
#define BR_DEMCR_VC_CORERESET (1U << 0)

/* ---- Data watchpoint and trace (C1.8) ----------------------------------- */

/* C1.8.7 DWT_CTRL: NUMCOMP [31:28] (the comparators; 0: no DWT on ARMv6-M
 * and ARMv8-M Baseline), NOCYCCNT (bit 25: no cycle counter), CYCCNTENA
 * (bit 0). */
#define BR_DWT_CTRL 0xE0001000U
#define BR_DWT_CTRL_NUMCOMP_SHIFT 28U
#define BR_DWT_CTRL_NOCYCCNT (1U << 25)
#define BR_DWT_CTRL_CYCCNTENA (1U << 0)
/* C1.8.8 DWT_CYCCNT: the 32-bit cycle counter. */
#define BR_DWT_CYCCNT 0xE0001004U
/* C1.8.7 (ARMv6-M C1.7.2) DWT_PCSR: the address of an instruction the
 * running core executed recently, read without halting it; 0xFFFFFFFF while
 * the core is halted or where non-invasive debug is not permitted; RAZ
 * where the DWT is not implemented. */
#define BR_DWT_PCSR 0xE000101CU
#define BR_DWT_PCSR_NOT_SAMPLED 0xFFFFFFFFU
/* Cortex-M7 TRM: DWT_LAR must be written with the key before DWT writes
 * stick. */
#define BR_DWT_LAR 0xE0001FB0U
#define BR_DWT_LAR_KEY 0xC5ACCE55U

/* ---- Flash patch and breakpoint (C1.11) --------------------------------- */

/* C1.11.3 FPB_CTRL: NUM_CODE = NUM_CODE[6:4] at [14:12] and NUM_CODE[3:0]
 * at [7:4]. */
#define BR_FPB_CTRL 0xE0002000U
#define BR_FPB_NUM_CODE_LOW_SHIFT 4U
#define BR_FPB_NUM_CODE_HIGH_SHIFT 12U
#define BR_FPB_NUM_CODE_HIGH_MASK 0x7U

/* ---- SysTick (B3.3; ARMv6-M B3.3; ARMv8-M B11.1) ------------------------ */

/* B3.3.3 SYST_CSR: ENABLE (bit 0), TICKINT (bit 1), CLKSOURCE (bit 2; 1: the
 * processor clock, 0: the optional external reference clock). */
#define BR_SYST_CSR 0xE000E010U
#define BR_SYST_CSR_ENABLE (1U << 0)
#define BR_SYST_CSR_CLKSOURCE (1U << 2)
/* B3.3.4 SYST_RVR: the value reloaded at 0, bits 23:0 (a 24-bit counter). */
#define BR_SYST_RVR 0xE000E014U
#define BR_SYST_RVR_RELOAD_MASK 0x00FFFFFFU
/* B3.3.5 SYST_CVR: the current value; any write clears it to 0. */
#define BR_SYST_CVR 0xE000E018U

#endif
