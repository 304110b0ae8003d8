#include "debug/thumb_insn.h"

#include <stdio.h>
#include <string.h>

/* xPSR fields (ARMv7-M ARM B1.4.2): the flags, and IT[1:0] at 26:25 with
 * IT[7:2] at 15:10. */
#define XPSR_N (1U << 31)
#define XPSR_Z (1U << 30)
#define XPSR_C (1U << 29)
#define XPSR_V (1U << 28)
#define XPSR_IT_MASK 0x0600FC00U
/* LR values from here up are EXC_RETURN codes (B1.5.8). */
#define EXC_RETURN_MIN 0xF0000000U
#define THUMB_BIT 1U
#define REG_BIT(i) (1U << (i))
#define XPSR_BIT REG_BIT(BR_THUMB_XPSR)

static const char *const reg_names[16] = {"r0", "r1", "r2",  "r3",  "r4",  "r5", "r6", "r7",
                                          "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc"};

static uint32_t halfword(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t sign_extend(uint32_t value, unsigned bits)
{
	uint32_t sign = 1U << (bits - 1U);
	return (value ^ sign) - sign;
}

/* ThumbExpandImm (A5.3.2) of i:imm3:imm8; false for the unpredictable forms. */
static bool expand_imm(uint32_t imm12, uint32_t *out)
{
	uint32_t imm8 = imm12 & 0xFFU;
	if ((imm12 >> 10) == 0U) {
		switch ((imm12 >> 8) & 3U) {
		case 0:
			*out = imm8;
			return true;
		case 1:
			*out = imm8 << 16 | imm8;
			break;
		case 2:
			*out = imm8 << 24 | imm8 << 8;
			break;
		default:
			*out = imm8 << 24 | imm8 << 16 | imm8 << 8 | imm8;
			break;
		}
		return imm8 != 0U;
	}
	uint32_t unrotated = 0x80U | (imm12 & 0x7FU);
	unsigned rot = (unsigned)(imm12 >> 7) & 0x1FU;
	*out = unrotated >> rot | unrotated << ((32U - rot) & 31U);
	return true;
}

static void name_push(br_thumb_insn_t *d)
{
	size_t n = (size_t)snprintf(d->text, sizeof(d->text), "push {");
	const char *sep = "";
	for (unsigned i = 0; i < 16U && n < sizeof(d->text); i++) {
		if ((d->list & REG_BIT(i)) == 0U)
			continue;
		n += (size_t)snprintf(d->text + n, sizeof(d->text) - n, "%s%s", sep, reg_names[i]);
		sep = ", ";
	}
	if (n < sizeof(d->text))
		snprintf(d->text + n, sizeof(d->text) - n, "}");
}

static bool set_push(br_thumb_insn_t *d, uint32_t list, unsigned size)
{
	if (list == 0U || (list & (REG_BIT(BR_THUMB_SP) | REG_BIT(BR_THUMB_PC))) != 0U)
		return false;
	d->op = BR_THUMB_PUSH;
	d->size = size;
	d->list = (uint16_t)list;
	d->reads = list | REG_BIT(BR_THUMB_SP);
	name_push(d);
	return true;
}

static bool set_add(br_thumb_insn_t *d, unsigned rd, unsigned rn, uint32_t imm, bool subtract,
                    bool flags, unsigned size)
{
	/* No PC as operand or destination; SP as destination only from SP. */
	if (rd == BR_THUMB_PC || rn == BR_THUMB_PC || (rd == BR_THUMB_SP && rn != BR_THUMB_SP))
		return false;
	d->op = BR_THUMB_ADD_IMM;
	d->size = size;
	d->rd = rd;
	d->rn = rn;
	d->imm = imm;
	d->subtract = subtract;
	d->set_flags = flags;
	d->reads = REG_BIT(rn) | (flags ? XPSR_BIT : 0U);
	snprintf(d->text, sizeof(d->text), "%s%s%s %s, %s, #%u", subtract ? "sub" : "add",
	         flags ? "s" : "", size == 4U ? ".w" : "", reg_names[rd], reg_names[rn], imm);
	return true;
}

static bool set_mov_reg(br_thumb_insn_t *d, unsigned rd, unsigned rm, bool flags)
{
	if (rd == BR_THUMB_PC || rd == BR_THUMB_SP || rm == BR_THUMB_PC)
		return false;
	d->op = BR_THUMB_MOV_REG;
	d->size = 2U;
	d->rd = rd;
	d->rn = rm;
	d->set_flags = flags;
	d->reads = REG_BIT(rm) | (flags ? XPSR_BIT : 0U);
	snprintf(d->text, sizeof(d->text), "mov%s %s, %s", flags ? "s" : "", reg_names[rd],
	         reg_names[rm]);
	return true;
}

static bool set_branch(br_thumb_insn_t *d, br_thumb_op_t op, uint32_t imm, unsigned size)
{
	d->op = op;
	d->size = size;
	d->imm = imm;
	snprintf(d->text, sizeof(d->text), "%s%s .%+d", op == BR_THUMB_BL ? "bl" : "b",
	         op == BR_THUMB_B && size == 4U ? ".w" : "", (int32_t)imm + 4);
	return true;
}

static bool decode16(uint32_t hw, br_thumb_insn_t *d)
{
	unsigned lo3 = hw & 7U;
	unsigned mid3 = (hw >> 3) & 7U;
	unsigned hi3 = (hw >> 8) & 7U;
	if (hw == 0xBF00U) {
		d->op = BR_THUMB_NOP;
		d->size = 2U;
		snprintf(d->text, sizeof(d->text), "nop");
		return true;
	}
	if ((hw & 0xFE00U) == 0xB400U) /* PUSH T1: list8, M = lr */
		return set_push(d, (hw & 0xFFU) | ((hw & 0x100U) != 0U ? REG_BIT(BR_THUMB_LR) : 0U),
		                2U);
	if ((hw & 0xFF00U) == 0xB000U) /* ADD/SUB SP, SP, #imm7 * 4 */
		return set_add(d, BR_THUMB_SP, BR_THUMB_SP, (hw & 0x7FU) * 4U, (hw & 0x80U) != 0U,
		               false, 2U);
	if ((hw & 0xF800U) == 0xA800U) /* ADD Rd, SP, #imm8 * 4 */
		return set_add(d, hi3, BR_THUMB_SP, (hw & 0xFFU) * 4U, false, false, 2U);
	if ((hw & 0xFC00U) == 0x1C00U) /* ADDS/SUBS Rd, Rn, #imm3 */
		return set_add(d, lo3, mid3, (hw >> 6) & 7U, (hw & 0x200U) != 0U, true, 2U);
	if ((hw & 0xF000U) == 0x3000U) /* ADDS/SUBS Rdn, #imm8 */
		return set_add(d, hi3, hi3, hw & 0xFFU, (hw & 0x800U) != 0U, true, 2U);
	if ((hw & 0xF800U) == 0x2000U) { /* MOVS Rd, #imm8 */
		d->op = BR_THUMB_MOV_IMM;
		d->size = 2U;
		d->rd = hi3;
		d->imm = hw & 0xFFU;
		d->set_flags = true;
		d->reads = XPSR_BIT;
		snprintf(d->text, sizeof(d->text), "movs %s, #%u", reg_names[hi3], d->imm);
		return true;
	}
	if ((hw & 0xFFC0U) == 0x0000U) /* MOVS Rd, Rm (LSL #0) */
		return set_mov_reg(d, lo3, mid3, true);
	if ((hw & 0xFF00U) == 0x4600U) /* MOV Rd, Rm (T1, high registers) */
		return set_mov_reg(d, ((hw >> 4) & 8U) | lo3, (hw >> 3) & 0xFU, false);
	if ((hw & 0xFF87U) == 0x4700U) { /* BX Rm */
		unsigned rm = (hw >> 3) & 0xFU;
		if (rm == BR_THUMB_PC)
			return false;
		d->op = BR_THUMB_BX;
		d->size = 2U;
		d->rn = rm;
		d->reads = REG_BIT(rm);
		snprintf(d->text, sizeof(d->text), "bx %s", reg_names[rm]);
		return true;
	}
	if ((hw & 0xF800U) == 0xE000U) /* B T2 (unconditional) */
		return set_branch(d, BR_THUMB_B, sign_extend((hw & 0x7FFU) << 1, 12U), 2U);
	return false;
}

static bool decode32(uint32_t hw1, uint32_t hw2, br_thumb_insn_t *d)
{
	if (hw1 == 0xF3AFU && hw2 == 0x8000U) {
		d->op = BR_THUMB_NOP;
		d->size = 4U;
		snprintf(d->text, sizeof(d->text), "nop.w");
		return true;
	}
	if (hw1 == 0xE92DU) { /* PUSH T2 (STMDB SP!): at least two registers */
		uint32_t list = hw2 & 0x5FFFU;
		if ((hw2 & 0xA000U) != 0U || (list & (list - 1U)) == 0U)
			return false;
		return set_push(d, list, 4U);
	}
	if (hw1 == 0xF84DU && (hw2 & 0x0FFFU) == 0x0D04U) /* PUSH T3: str rt, [sp, #-4]! */
		return set_push(d, REG_BIT(hw2 >> 12), 4U);
	unsigned rn = hw1 & 0xFU;
	unsigned rd = (hw2 >> 8) & 0xFU;
	uint32_t imm12 = ((hw1 & 0x400U) << 1) | ((hw2 >> 4) & 0x700U) | (hw2 & 0xFFU);
	bool data = (hw2 & 0x8000U) == 0U;
	/* ADD.W/SUB.W T3 with a modified immediate, S = 0. */
	if (data && ((hw1 & 0xFBF0U) == 0xF100U || (hw1 & 0xFBF0U) == 0xF1A0U)) {
		uint32_t imm;
		if (!expand_imm(imm12, &imm))
			return false;
		return set_add(d, rd, rn, imm, (hw1 & 0xFBF0U) == 0xF1A0U, false, 4U);
	}
	/* ADDW/SUBW T4 with a plain 12-bit immediate. */
	if (data && ((hw1 & 0xFBF0U) == 0xF200U || (hw1 & 0xFBF0U) == 0xF2A0U))
		return set_add(d, rd, rn, imm12, (hw1 & 0xFBF0U) == 0xF2A0U, false, 4U);
	/* B.W T4 (10J1 1J2) and BL (11J1 1J2); not B T3 (conditional) nor 11J1 0J2. */
	uint32_t form = hw2 & 0xD000U;
	if ((hw1 & 0xF800U) == 0xF000U && (form == 0x9000U || form == 0xD000U)) {
		uint32_t s = (hw1 >> 10) & 1U;
		uint32_t i1 = ~((hw2 >> 13) ^ s) & 1U;
		uint32_t i2 = ~((hw2 >> 11) ^ s) & 1U;
		uint32_t imm =
		    s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3FFU) << 12 | (hw2 & 0x7FFU) << 1;
		bool link = (hw2 & 0x4000U) != 0U;
		return set_branch(d, link ? BR_THUMB_BL : BR_THUMB_B, sign_extend(imm, 25U), 4U);
	}
	return false;
}

bool br_thumb_insn_decode(const uint8_t *code, size_t len, br_thumb_insn_t *out)
{
	memset(out, 0, sizeof(*out));
	if (len < 2U)
		return false;
	uint32_t hw1 = halfword(code);
	/* 0b11101, 0b11110, 0b11111 in bits 15:11: a 32-bit encoding (A5.1). */
	if ((hw1 >> 11) >= 0x1DU)
		return len >= 4U && decode32(hw1, halfword(code + 2), out);
	return decode16(hw1, out);
}

/* N and Z of result into xpsr; with carry and overflow, C and V too. */
static uint32_t flags_set(uint32_t xpsr, uint32_t result, bool cv, bool carry, bool overflow)
{
	xpsr &= cv ? ~(XPSR_N | XPSR_Z | XPSR_C | XPSR_V) : ~(XPSR_N | XPSR_Z);
	xpsr |= (result & XPSR_N) | (result == 0U ? XPSR_Z : 0U);
	if (cv)
		xpsr |= (carry ? XPSR_C : 0U) | (overflow ? XPSR_V : 0U);
	return xpsr;
}

/* rd = rn + imm or rn - imm (AddWithCarry, A2.2.1), flags when asked. */
static void execute_add(const br_thumb_insn_t *d, uint32_t *r)
{
	uint32_t x = r[d->rn];
	uint32_t y = d->subtract ? ~d->imm : d->imm;
	uint64_t wide = (uint64_t)x + y + (d->subtract ? 1U : 0U);
	uint32_t result = (uint32_t)wide;
	bool carry = (wide >> 32) != 0U;
	bool overflow = ((x ^ result) & (y ^ result) & XPSR_N) != 0U;
	r[d->rd] = result;
	if (d->set_flags)
		r[BR_THUMB_XPSR] = flags_set(r[BR_THUMB_XPSR], result, true, carry, overflow);
}

bool br_thumb_insn_execute(const br_thumb_insn_t *insn, const uint32_t in[BR_THUMB_REGS],
                           br_thumb_effect_t *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->r, in, sizeof(out->r));
	if ((in[BR_THUMB_XPSR] & XPSR_IT_MASK) != 0U)
		return false;
	uint32_t *r = out->r;
	uint32_t pc = in[BR_THUMB_PC];
	r[BR_THUMB_PC] = pc + insn->size;
	switch (insn->op) {
	case BR_THUMB_NOP:
		break;
	case BR_THUMB_PUSH: {
		unsigned n = 0;
		for (unsigned i = 0; i < 16U; i++)
			n += (insn->list & REG_BIT(i)) != 0U ? 1U : 0U;
		uint32_t sp = in[BR_THUMB_SP] - 4U * n;
		out->mem_address = sp;
		for (unsigned i = 0; i < 16U; i++) {
			if ((insn->list & REG_BIT(i)) == 0U)
				continue;
			for (unsigned b = 0; b < 4U; b++)
				out->mem[out->mem_len++] = (uint8_t)(in[i] >> (8U * b));
		}
		r[BR_THUMB_SP] = sp;
		break;
	}
	case BR_THUMB_ADD_IMM:
		execute_add(insn, r);
		break;
	case BR_THUMB_MOV_REG:
	case BR_THUMB_MOV_IMM:
		r[insn->rd] = insn->op == BR_THUMB_MOV_REG ? in[insn->rn] : insn->imm;
		if (insn->set_flags)
			r[BR_THUMB_XPSR] =
			    flags_set(r[BR_THUMB_XPSR], r[insn->rd], false, false, false);
		break;
	case BR_THUMB_BL:
		r[BR_THUMB_LR] = (pc + 4U) | THUMB_BIT;
		r[BR_THUMB_PC] = pc + 4U + insn->imm;
		break;
	case BR_THUMB_B:
		r[BR_THUMB_PC] = pc + 4U + insn->imm;
		break;
	case BR_THUMB_BX: {
		uint32_t target = in[insn->rn];
		if ((target & THUMB_BIT) == 0U || target >= EXC_RETURN_MIN)
			return false;
		r[BR_THUMB_PC] = target & ~THUMB_BIT;
		break;
	}
	}
	for (unsigned i = 0; i < BR_THUMB_REGS; i++)
		if (r[i] != in[i])
			out->changed |= REG_BIT(i);
	return true;
}
