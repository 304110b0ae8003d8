/*
 * Call frame information (DWARF CFI) of a firmware ELF, through elfutils
 * libdw's CFI API: .debug_frame (dwarf_getcfi) first, then .eh_frame
 * (dwarf_getcfi_elf). One step of unwinding: given the registers of a frame,
 * the registers of its caller. Registers are numbered as DWARF numbers them
 * for ARM (AADWARF32: r0..r15 are 0..15); the return address column is read
 * from the CIE (14, LR, as GCC and clang emit it).
 */
#ifndef BENCHRACK_ELF_CFI_H
#define BENCHRACK_ELF_CFI_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_file.h"

#define BR_CFI_REGS 16U
#define BR_CFI_REG_SP 13U
#define BR_CFI_REG_LR 14U
#define BR_CFI_REG_PC 15U

typedef struct br_elf_cfi br_elf_cfi_t;

/* A frame's registers: value[i] means something only when known[i]. */
typedef struct br_cfi_regs {
	uint32_t value[BR_CFI_REGS];
	bool known[BR_CFI_REGS];
} br_cfi_regs_t;

/* Reads the 32-bit word at address from the sampled memory; false when it
 * was not read (outside what the sample holds). */
typedef bool (*br_cfi_read_fn)(void *ctx, uint32_t address, uint32_t *value);

typedef enum br_cfi_result {
	BR_CFI_STEPPED,     /* caller's registers filled: pc (its return address), sp (the CFA) */
	BR_CFI_NO_ENTRY,    /* no CFI covers this address */
	BR_CFI_OUTERMOST,   /* the return address is undefined there: the chain ends */
	BR_CFI_UNREADABLE,  /* a register or a stack word the rules need is not known */
	BR_CFI_UNSUPPORTED, /* a DWARF expression this reader does not evaluate */
} br_cfi_result_t;

/*
 * Opens the CFI of elf into *out (NULL when the file has neither .debug_frame
 * nor .eh_frame: not an error; frame records or nothing then). The handle
 * lives no longer than elf. Returns BR_OK.
 */
br_status_t br_elf_cfi_open(const br_elf_t *elf, br_elf_cfi_t **out, br_error_t *err);

/* Releases cfi (may be NULL). */
void br_elf_cfi_close(br_elf_cfi_t *cfi);

/* Which section the rules come from: ".debug_frame" or ".eh_frame". */
const char *br_elf_cfi_source(const br_elf_cfi_t *cfi);

/*
 * One unwinding step: the rules of the row covering lookup (the PC itself for
 * the innermost or an interrupted frame, the return address - 1 for a
 * caller) applied to in, reading stack words through read. Fills *out with
 * the caller's registers: pc from the return address column (Thumb bit kept
 * as stored), sp = the CFA, callee-saved registers as the rules restore them
 * (same value: copied; undefined: unknown).
 */
br_cfi_result_t br_elf_cfi_step(const br_elf_cfi_t *cfi, uint32_t lookup, const br_cfi_regs_t *in,
                                br_cfi_read_fn read, void *ctx, br_cfi_regs_t *out);

/* Whether any CFI row covers address. */
bool br_elf_cfi_covers(const br_elf_cfi_t *cfi, uint32_t address);

#endif
