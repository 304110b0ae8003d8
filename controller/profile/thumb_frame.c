/*
 * Thumb prologue and epilogue decoding for frame records (thumb_frame.h).
 * Encodings: ARMv7-M Architecture Reference Manual, A7.7 (PUSH T1/T2, POP
 * T1/T2, SUB (SP minus immediate) T1, ADD (SP plus immediate) T1/T2, MOV
 * (register) T1, ADD (immediate) T2, LDR (immediate) T4, BX, BL, BLX, WFI,
 * WFE).
 */
#include "profile/thumb_frame.h"

#include "elf/elf_image.h"

#define REG_R7 7U
/* The most prologue and epilogue instructions looked at. */
#define PROLOGUE_MAX 6U
#define EPILOGUE_MAX 6U

static bool halfword(const br_elf_t *elf, uint32_t addr, uint16_t *hw)
{
	uint8_t b[2];
	br_error_t err;
	if (br_elf_read_initial(elf, addr, b, sizeof(b), &err) != BR_OK)
		return false;
	*hw = (uint16_t)(b[0] | (b[1] << 8));
	return true;
}

/* A 32-bit Thumb-2 instruction starts with 0b11101, 0b11110 or 0b11111. */
static bool is_wide(uint16_t hw)
{
	return (hw & 0xF800U) >= 0xE800U;
}

bool br_thumb_is_after_call(const br_elf_t *elf, uint32_t ra)
{
	ra &= ~1U;
	uint16_t h1 = 0, h2 = 0;
	if (halfword(elf, ra - 2U, &h2) && (h2 & 0xFF87U) == 0x4780U) /* BLX Rm */
		return true;
	if (!halfword(elf, ra - 4U, &h1) || !halfword(elf, ra - 2U, &h2))
		return false;
	/* BL: 11110 S imm10, 11 J1 1 J2 imm11; BLX (immediate): 11 J1 0 J2. */
	return (h1 & 0xF800U) == 0xF000U &&
	       ((h2 & 0xD000U) == 0xD000U || (h2 & 0xD000U) == 0xC000U);
}

/* WFI T1 0xBF30, WFE T1 0xBF20; T2: 0xF3AF then 0x8003 (WFI), 0x8002 (WFE). */
#define THUMB_WFI_T1 0xBF30U
#define THUMB_WFE_T1 0xBF20U
#define THUMB_HINT_T2 0xF3AFU
#define THUMB_WFI_T2 0x8003U
#define THUMB_WFE_T2 0x8002U

bool br_thumb_is_sleep(const br_elf_t *elf, uint32_t pc)
{
	pc &= ~1U;
	uint16_t h1 = 0, h2 = 0;
	if (!halfword(elf, pc, &h1))
		return false;
	if (h1 == THUMB_WFI_T1 || h1 == THUMB_WFE_T1)
		return true;
	return h1 == THUMB_HINT_T2 && halfword(elf, pc + 2U, &h2) &&
	       (h2 == THUMB_WFI_T2 || h2 == THUMB_WFE_T2);
}

/* What the prologue does, instruction by instruction. */
typedef struct prologue {
	uint32_t pushed;    /* register mask pushed (bit 14: LR) */
	uint32_t push_end;  /* address after the push (0: none) */
	uint32_t alloc;     /* bytes of sub sp */
	uint32_t alloc_end; /* address after it (0: none) */
	uint32_t r7_offset; /* add r7, sp, #r7_offset */
	uint32_t r7_end;    /* address after it (0: none) */
	uint32_t sp_at_r7;  /* bytes below the CFA when r7 was set */
} prologue_t;

static unsigned popcount16(uint32_t m)
{
	unsigned n = 0;
	for (; m != 0; m &= m - 1U)
		n++;
	return n;
}

static void read_prologue(const br_elf_t *elf, uint32_t entry, uint32_t size, prologue_t *p)
{
	*p = (prologue_t){0};
	uint32_t a = entry;
	uint32_t below = 0;
	for (unsigned i = 0; i < PROLOGUE_MAX && a < entry + size; i++) {
		uint16_t hw = 0, hw2 = 0;
		if (!halfword(elf, a, &hw))
			return;
		uint32_t next = a + (is_wide(hw) ? 4U : 2U);
		if (is_wide(hw) && !halfword(elf, a + 2U, &hw2))
			return;
		if ((hw & 0xFE00U) == 0xB400U && p->push_end == 0) { /* PUSH T1 */
			p->pushed = (hw & 0xFFU) | ((hw & 0x100U) != 0 ? 1U << BR_CFI_REG_LR : 0U);
			below += 4U * popcount16(p->pushed);
			p->push_end = next;
		} else if (hw == 0xE92DU && p->push_end == 0) { /* PUSH T2 (STMDB SP!) */
			p->pushed = hw2 & 0x5FFFU;
			below += 4U * popcount16(p->pushed);
			p->push_end = next;
		} else if ((hw & 0xFF80U) == 0xB080U &&
		           p->alloc_end == 0) { /* SUB SP, SP, #imm7*4 */
			p->alloc = (hw & 0x7FU) * 4U;
			below += p->alloc;
			p->alloc_end = next;
		} else if ((hw & 0xFF00U) == 0xAF00U && p->r7_end == 0) { /* ADD r7, SP, #imm8*4 */
			p->r7_offset = (hw & 0xFFU) * 4U;
			p->sp_at_r7 = below;
			p->r7_end = next;
		} else if (hw == 0x466FU && p->r7_end == 0) { /* MOV r7, SP */
			p->r7_offset = 0;
			p->sp_at_r7 = below;
			p->r7_end = next;
		} else {
			return;
		}
		a = next;
	}
}

/* Runs a linear epilogue from pc on concrete values; false when pc is not in one. */
static bool run_epilogue(const br_elf_t *elf, uint32_t pc, const br_cfi_regs_t *in,
                         br_cfi_read_fn read, void *ctx, br_cfi_regs_t *out)
{
	uint32_t sp = in->value[BR_CFI_REG_SP];
	uint32_t r7 = in->value[REG_R7];
	bool r7_known = in->known[REG_R7];
	for (unsigned i = 0; i < EPILOGUE_MAX; i++) {
		uint16_t hw = 0, hw2 = 0;
		if (!halfword(elf, pc, &hw))
			return false;
		bool wide = is_wide(hw);
		if (wide && !halfword(elf, pc + 2U, &hw2))
			return false;
		uint32_t list = 0;
		if ((hw & 0xFF00U) == 0x3700U) { /* ADDS r7, #imm8 */
			r7 += hw & 0xFFU;
		} else if (hw == 0x46BDU) { /* MOV SP, r7 */
			if (!r7_known)
				return false;
			sp = r7;
		} else if ((hw & 0xFF80U) == 0xB000U) { /* ADD SP, SP, #imm7*4 */
			sp += (hw & 0x7FU) * 4U;
		} else if (hw == 0xF85DU && hw2 == 0x7B04U) { /* LDR r7, [SP], #4 */
			if (!read(ctx, sp, &r7))
				return false;
			r7_known = true;
			sp += 4U;
		} else if (hw == 0x4770U) { /* BX LR */
			if (!in->known[BR_CFI_REG_LR])
				return false;
			*out = *in;
			out->value[BR_CFI_REG_PC] = in->value[BR_CFI_REG_LR];
			out->value[BR_CFI_REG_SP] = sp;
			out->value[REG_R7] = r7;
			out->known[REG_R7] = r7_known;
			return true;
		} else if ((hw & 0xFE00U) == 0xBC00U || hw == 0xE8BDU) { /* POP T1 / T2 */
			list = hw == 0xE8BDU
			           ? hw2 & 0xDFFFU
			           : (hw & 0xFFU) | ((hw & 0x100U) != 0 ? 1U << BR_CFI_REG_PC : 0U);
			*out = *in;
			for (unsigned r = 0; r < BR_CFI_REGS; r++) {
				if ((list & (1U << r)) == 0)
					continue;
				if (!read(ctx, sp, &out->value[r]))
					return false;
				out->known[r] = true;
				sp += 4U;
			}
			if ((list & (1U << REG_R7)) == 0) {
				out->value[REG_R7] = r7;
				out->known[REG_R7] = r7_known;
			}
			if ((list & (1U << BR_CFI_REG_PC)) == 0) {
				/* pop without PC: registers restored, the return still ahead */
				in = out;
				r7 = out->value[REG_R7];
				r7_known = out->known[REG_R7];
				pc += wide ? 4U : 2U;
				continue;
			}
			out->value[BR_CFI_REG_SP] = sp;
			return true;
		} else {
			return false;
		}
		pc += wide ? 4U : 2U;
	}
	return false;
}

br_thumb_frame_result_t br_thumb_frame_step(const br_elf_t *elf, uint32_t entry, uint32_t size,
                                            bool innermost, const br_cfi_regs_t *in,
                                            br_cfi_read_fn read, void *ctx, br_cfi_regs_t *out)
{
	uint32_t pc = in->value[BR_CFI_REG_PC] & ~1U;
	if (innermost && in->known[BR_CFI_REG_SP]) {
		br_cfi_regs_t tmp = *in;
		if (run_epilogue(elf, pc, in, read, ctx, &tmp)) {
			*out = tmp;
			return BR_THUMB_FRAME_STACK;
		}
	}
	prologue_t p;
	read_prologue(elf, entry, size, &p);
	/* Which prologue steps have run: all of them for a return address. */
	bool pushed = p.push_end != 0 && (!innermost || pc >= p.push_end);
	bool allocated = p.alloc_end != 0 && (!innermost || pc >= p.alloc_end);
	bool r7_set = p.r7_end != 0 && (!innermost || pc >= p.r7_end);
	uint32_t cfa = 0;
	br_thumb_frame_result_t how = BR_THUMB_FRAME_STACK;
	if (r7_set) {
		if (!in->known[REG_R7])
			return BR_THUMB_FRAME_FAILED;
		cfa = in->value[REG_R7] - p.r7_offset + p.sp_at_r7;
		how = BR_THUMB_FRAME_RECORD;
	} else {
		if (!innermost || !in->known[BR_CFI_REG_SP])
			return BR_THUMB_FRAME_FAILED; /* SP moved on since: only r7 says where */
		cfa = in->value[BR_CFI_REG_SP] + (pushed ? 4U * popcount16(p.pushed) : 0U) +
		      (allocated ? p.alloc : 0U);
	}
	*out = *in;
	out->value[BR_CFI_REG_SP] = cfa;
	out->known[BR_CFI_REG_SP] = true;
	if (pushed) {
		/* PUSH stores the lowest register at the lowest address. */
		uint32_t slot = cfa - 4U * popcount16(p.pushed);
		for (unsigned r = 0; r < BR_CFI_REGS; r++) {
			if ((p.pushed & (1U << r)) == 0)
				continue;
			out->known[r] = read(ctx, slot, &out->value[r]);
			slot += 4U;
		}
	}
	if (pushed && (p.pushed & (1U << BR_CFI_REG_LR)) != 0) {
		out->value[BR_CFI_REG_PC] = out->value[BR_CFI_REG_LR];
		out->known[BR_CFI_REG_PC] = out->known[BR_CFI_REG_LR];
	} else if (innermost && in->known[BR_CFI_REG_LR]) {
		out->value[BR_CFI_REG_PC] = in->value[BR_CFI_REG_LR];
		out->known[BR_CFI_REG_PC] = true;
		if (how != BR_THUMB_FRAME_RECORD)
			how = BR_THUMB_FRAME_LR;
	} else {
		return BR_THUMB_FRAME_FAILED;
	}
	return out->known[BR_CFI_REG_PC] ? how : BR_THUMB_FRAME_FAILED;
}
