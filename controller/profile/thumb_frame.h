/*
 * Frame records on Thumb (Cortex-M), where no CFI is left: r7 is the frame
 * pointer (GCC and clang both use r7 in Thumb code; see the seed article on
 * ARM32 frame-pointer ABIs). GCC's r7 points at the bottom of the frame, not
 * at the {saved r7, LR} record, so the record's place relative to r7 is read
 * from the function's prologue: push {..., r7, lr}; sub sp, #N; add r7, sp,
 * #M (or mov r7, sp) — which also covers clang's layout (r7 at the record).
 * A PC inside the prologue uses the part of it that has run; a PC in a
 * linear epilogue (adds r7; mov sp, r7; pop / ldr r7, [sp], #4; bx lr) is
 * simulated forward on the sampled registers and stack. A function whose
 * prologue saves nothing keeps its return address in LR: usable only for the
 * innermost or an interrupted frame (LR is live there), never above.
 */
#ifndef BENCHRACK_PROFILE_THUMB_FRAME_H
#define BENCHRACK_PROFILE_THUMB_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "elf/elf_cfi.h"
#include "elf/elf_file.h"

typedef enum br_thumb_frame_result {
	BR_THUMB_FRAME_RECORD, /* through r7 and the saved record */
	BR_THUMB_FRAME_STACK,  /* through SP (prologue or epilogue part-way) */
	BR_THUMB_FRAME_LR,     /* nothing saved yet (or any more): LR */
	BR_THUMB_FRAME_FAILED, /* no way to tell */
} br_thumb_frame_result_t;

/*
 * The caller's registers (pc, sp, r7; others copied) for a frame of the
 * function at [entry, entry + size) whose registers are in; innermost: pc is
 * the next instruction to run (the innermost frame, or one an exception
 * interrupted), else a return address (the body, after the prologue).
 */
br_thumb_frame_result_t br_thumb_frame_step(const br_elf_t *elf, uint32_t entry, uint32_t size,
                                            bool innermost, const br_cfi_regs_t *in,
                                            br_cfi_read_fn read, void *ctx, br_cfi_regs_t *out);

/* Whether the instruction just before return address ra (Thumb bit ignored)
 * is a call: BL, BLX (immediate) or BLX (register). */
bool br_thumb_is_after_call(const br_elf_t *elf, uint32_t ra);

/* Whether the instruction at pc (Thumb bit ignored) waits for an interrupt
 * or an event: WFI or WFE, 16- or 32-bit (ARMv7-M ARM A7.7.261, A7.7.262).
 * False when pc is not in the image. */
bool br_thumb_is_sleep(const br_elf_t *elf, uint32_t pc);

#endif
