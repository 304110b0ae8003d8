/*
 * Call chains from one sample: the registers and the stack words read at a
 * halt, unwound on the host. Each frame's caller comes from, in order:
 *   1. DWARF CFI (.debug_frame/.eh_frame, elf/elf_cfi.h) when a row covers it;
 *   2. frame records (r7, read with the prologue: thumb_frame.h);
 *   3. LR, for the innermost frame of a function that saved nothing.
 * A return address of the EXC_RETURN form (0xFFFFFFxx) means the frame above
 * is an exception's: the stacked frame (r0-r3, r12, LR, PC, xPSR; 26 words
 * with the FP state when EXC_RETURN bit 4 is 0; one more word when the
 * stacked xPSR's bit 9 says the stack was realigned — ARMv7-M ARM B1.5.6,
 * B1.5.8) gives the interrupted PC, LR and SP, and unwinding goes on into
 * the interrupted code. A frame on the process stack (EXC_RETURN bit 2) needs
 * PSP, which a gdbserver may not expose: the chain ends there.
 *
 * Every caller must be believable: its return address just after a call
 * instruction (or an EXC_RETURN), its SP not below the callee's. A chain
 * ends complete at a root: the reset handler (the ELF's entry, the function
 * the reset vector names (word 1 of the vector table at the image's lowest
 * loadable address), or a frame
 * whose return address is 0xFFFFFFFF, the LR a Cortex-M core resets with:
 * ARMv7-M ARM B1.5.5, TakeReset), or where the CFI says the return address is undefined
 * (a thread's entry, as RTOSes mark it); an exception's frame is crossed into
 * the interrupted code (EXC_RETURN, above). Anywhere else it ends in
 * [unknown] — never a guess.
 */
#ifndef BENCHRACK_PROFILE_UNWIND_H
#define BENCHRACK_PROFILE_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_cfi.h"
#include "elf/elf_file.h"

#define BR_UNWIND_MAX_FRAMES 64U
#define BR_UNWIND_MAX_WINDOWS 4U
/* LR after reset (ARMv7-M: 0xFFFFFFFF; not a valid EXC_RETURN). */
#define BR_UNWIND_RESET_LR 0xFFFFFFFFU

typedef enum br_unwind_method {
	BR_UNWIND_AUTO,          /* CFI where it covers the code, frame records elsewhere */
	BR_UNWIND_CFI,           /* CFI only */
	BR_UNWIND_FRAME_RECORDS, /* frame records (and LR) only, CFI ignored */
} br_unwind_method_t;

/* How a frame's caller was found. */
typedef enum br_unwind_how {
	BR_UNWIND_HOW_CFI,
	BR_UNWIND_HOW_FRAME_RECORD,
	BR_UNWIND_HOW_LR,
} br_unwind_how_t;

typedef struct br_unwind_memory {
	uint32_t address;
	uint32_t len;
	const uint8_t *bytes;
} br_unwind_memory_t;

typedef struct br_unwind_result {
	uint32_t pcs[BR_UNWIND_MAX_FRAMES]; /* innermost first; byte addresses */
	/* pcs[i] is a return address (its call is the instruction before it),
	 * not the PC of a stop or of interrupted code: name it by pcs[i] - 1. */
	bool returns[BR_UNWIND_MAX_FRAMES];
	size_t depth;
	bool complete;       /* false: the chain ends in [unknown] above pcs[depth - 1] */
	unsigned exceptions; /* exception frames crossed */
	unsigned by_cfi, by_frame_record, by_lr;
	const char *stop; /* why it ended: "reset handler", "CFI: outermost", or the failure */
} br_unwind_result_t;

typedef struct br_unwinder {
	const br_elf_t *elf;
	br_elf_cfi_t *cfi; /* NULL: none in the file (or not used) */
	br_unwind_method_t method;
	uint32_t entry; /* the ELF's entry function */
	uint32_t reset; /* the function the reset vector names (0: none found) */
} br_unwinder_t;

/* Prepares u for elf (kept open by the caller); opens the CFI unless the
 * method is frame records only. */
br_status_t br_unwinder_open(br_unwinder_t *u, const br_elf_t *elf, br_unwind_method_t method,
                             br_error_t *err);

void br_unwinder_close(br_unwinder_t *u);

/* Unwinds the sample: r0..r15 as read, and the memory windows read with them. */
void br_unwind(const br_unwinder_t *u, const uint32_t regs[16], const br_unwind_memory_t *mem,
               size_t nmem, br_unwind_result_t *out);

/* The address that names frame i's function (a return address's call). */
uint32_t br_unwind_name_pc(const br_unwind_result_t *r, size_t i);

/* The function the reset vector names (word 1 of a vector table at the
 * image's lowest loadable address, where a Cortex-M image keeps it), or 0. */
uint32_t br_unwind_reset_function(const br_elf_t *elf);

/* "auto", "cfi", "frame-records"; parse returns false for another word. */
const char *br_unwind_method_name(br_unwind_method_t m);
bool br_unwind_method_parse(const char *text, br_unwind_method_t *out);

#endif
