/*
 * The instructions the host can execute in the core's place: the common
 * Thumb instructions under a breakpoint at a function's entry or a call
 * site (push, sub/add sp, mov, movs, add/sub immediates, nop, b, bl, bx),
 * decoded from their encoding (ARMv7-M Architecture Reference Manual, A5
 * "The Thumb Instruction Set Encoding", A7.7 for each instruction) and
 * executed on a copy of the core registers: the registers and the memory
 * the instruction would write, and the PC past it. Anything else is not
 * decoded, and the caller steps the core instead (measure/host_step.h).
 * Pure: no target, no I/O.
 */
#ifndef BENCHRACK_DEBUG_THUMB_INSN_H
#define BENCHRACK_DEBUG_THUMB_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Core registers as the host holds them: r0..r15 (15: the PC, the
 * instruction's own address), then xPSR. */
#define BR_THUMB_REGS 17U
#define BR_THUMB_SP 13U
#define BR_THUMB_LR 14U
#define BR_THUMB_PC 15U
#define BR_THUMB_XPSR 16U
/* The most bytes one instruction here writes (push of r0..r12 and lr). */
#define BR_THUMB_WRITE_MAX 64U
#define BR_THUMB_TEXT_MAX 40U

typedef enum br_thumb_op {
	BR_THUMB_NOP,     /* nop, nop.w */
	BR_THUMB_PUSH,    /* push {list} (T1, T2; str rt, [sp, #-4]! as T3) */
	BR_THUMB_ADD_IMM, /* rd = rn + imm (imm as unsigned; sub is rd = rn - imm) */
	BR_THUMB_MOV_REG, /* rd = rm */
	BR_THUMB_MOV_IMM, /* rd = imm */
	BR_THUMB_B,       /* pc = pc + 4 + imm */
	BR_THUMB_BL,      /* lr = (pc + 4) | 1, pc = pc + 4 + imm */
	BR_THUMB_BX,      /* pc = rm (a Thumb address, not EXC_RETURN) */
} br_thumb_op_t;

typedef struct br_thumb_insn {
	br_thumb_op_t op;
	unsigned size;   /* 2 or 4 bytes */
	unsigned rd, rn; /* rn: the source register of mov and bx too */
	uint16_t list;   /* push's registers, bit i: ri */
	uint32_t imm;
	bool subtract;                /* BR_THUMB_ADD_IMM: rd = rn - imm */
	bool set_flags;               /* N and Z (moves), N, Z, C and V (adds, subs) */
	uint32_t reads;               /* the registers it reads (bit i: ri, bit 16: xPSR) */
	char text[BR_THUMB_TEXT_MAX]; /* "push {r4, r5, lr}", for messages */
} br_thumb_insn_t;

/* What executing an instruction does: every register after it, which of
 * them changed (bit i), and the bytes it stores (mem_len 0: none). */
typedef struct br_thumb_effect {
	uint32_t r[BR_THUMB_REGS];
	uint32_t changed;
	uint32_t mem_address;
	uint8_t mem[BR_THUMB_WRITE_MAX];
	size_t mem_len;
} br_thumb_effect_t;

/*
 * Decodes the instruction whose first bytes are code[0..len) (little
 * endian halfwords; len >= 2, and >= 4 for a 32-bit encoding) into *out.
 * False for any encoding not listed above, and for the forms this does not
 * take (a write to the PC other than a branch, a read of the PC as an
 * operand, the unpredictable ones).
 */
bool br_thumb_insn_decode(const uint8_t *code, size_t len, br_thumb_insn_t *out);

/*
 * Executes insn on the registers in (in[15] its address, in[16] xPSR) into
 * *out. False when it cannot be done by the host here: inside an IT block
 * (xPSR's IT bits not zero: the instruction is conditional there), or a bx
 * to an ARM-state address or an EXC_RETURN value.
 */
bool br_thumb_insn_execute(const br_thumb_insn_t *insn, const uint32_t in[BR_THUMB_REGS],
                           br_thumb_effect_t *out);

#endif
