/*
 * The self-test's calibration image, assembled here (run/selftest.h for its
 * layout). Encodings from the ARMv6-M Architecture Reference Manual (A6.7,
 * all 16-bit Thumb, so every Cortex-M core runs them).
 */
#include <string.h>

#include "run/selftest.h"

#define T_CPSID_I 0xB672U
#define T_NOP 0xBF00U
#define T_LDR_R1_R0 0x6801U   /* ldr r1, [r0] */
#define T_STR_R1_R0 0x6001U   /* str r1, [r0] */
#define T_BICS_R1_R2 0x4391U  /* bics r1, r2 */
#define T_ORRS_R1_R2 0x4311U  /* orrs r1, r2 */
#define T_SUBS_R0_1 0x3801U   /* subs r0, #1 */
#define T_BNE_BACK_1 0xD1FDU  /* bne to the instruction before (PC + 4 - 6) */
#define T_B_SELF 0xE7FEU      /* b . */
#define T_LDR_LITERAL 0x4800U /* ldr Rt, [pc, #imm8 * 4] */
#define T_B 0xE000U           /* b, imm11 halfwords from PC + 4 */
#define WRITE_INSNS 7U        /* per enable write */
#define WRITE_WORDS 3U        /* its address, mask and value */

static void put16(uint8_t *buf, size_t *at, uint32_t insn)
{
	buf[*at] = (uint8_t)(insn & 0xFFU);
	buf[*at + 1U] = (uint8_t)(insn >> 8);
	*at += 2U;
}

static void put32(uint8_t *buf, size_t at, uint32_t word)
{
	for (unsigned i = 0; i < 4U; i++)
		buf[at + i] = (uint8_t)(word >> (8U * i));
}

/* ldr rt, [pc, #...] at offset at (from base, 2-aligned) loading the word at
 * offset literal (4-aligned, after it, within 1020 bytes). */
static uint32_t ldr_literal(unsigned rt, size_t at, size_t literal)
{
	size_t pc = (at + 4U) & ~(size_t)3U;
	return T_LDR_LITERAL | ((uint32_t)rt << 8) | (uint32_t)((literal - pc) / 4U);
}

void br_selftest_image(uint32_t base, const br_counter_t *cpu_enable, uint8_t *buf,
                       br_selftest_layout_t *layout)
{
	memset(buf, 0, BR_SELFTEST_IMAGE_MAX);
	memset(layout, 0, sizeof(*layout));
	size_t writes = cpu_enable != NULL ? cpu_enable->enable_count : 0U;
	size_t at = 0;
	put16(buf, &at, T_CPSID_I);
	/* the set-up's code, then a branch over its literal pool */
	size_t code_end = at + writes * WRITE_INSNS * 2U + 2U;
	size_t pool = (code_end + 3U) & ~(size_t)3U;
	size_t nops = pool + writes * WRITE_WORDS * 4U;
	for (size_t i = 0; i < writes; i++) {
		const br_counter_write_t *w = &cpu_enable->enable[i];
		size_t lit = pool + i * WRITE_WORDS * 4U;
		put32(buf, lit, w->address);
		put32(buf, lit + 4U, w->mask);
		put32(buf, lit + 8U, w->value & w->mask);
		put16(buf, &at, ldr_literal(0, at, lit));
		put16(buf, &at, T_LDR_R1_R0);
		put16(buf, &at, ldr_literal(2, at, lit + 4U));
		put16(buf, &at, T_BICS_R1_R2);
		put16(buf, &at, ldr_literal(2, at, lit + 8U));
		put16(buf, &at, T_ORRS_R1_R2);
		put16(buf, &at, T_STR_R1_R0);
	}
	long offset = ((long)nops - (long)(at + 4U)) / 2L; /* -1 when the pool is empty */
	put16(buf, &at, T_B | ((uint32_t)offset & 0x7FFU));
	while (at < pool)
		put16(buf, &at, T_NOP); /* padding before the pool (never run) */
	at = nops;
	for (unsigned i = 0; i < BR_SELFTEST_NOPS; i++)
		put16(buf, &at, T_NOP);
	size_t loop = at;
	put16(buf, &at, T_SUBS_R0_1);
	put16(buf, &at, T_BNE_BACK_1);
	size_t end = at;
	put16(buf, &at, T_B_SELF);
	layout->base = base;
	layout->nops = base + (uint32_t)nops;
	layout->loop = base + (uint32_t)loop;
	layout->end = base + (uint32_t)end;
	layout->size = at;
	layout->enables = writes;
}
