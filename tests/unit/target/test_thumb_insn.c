/*
 * debug/thumb_insn.h: a table of encodings (taken from arm-none-eabi-as's
 * output for the instruction in each row's comment), each either executed
 * on a known set of registers with the registers and memory it must leave,
 * or refused. No fuzzing: every row is a case a reader can check against
 * the Architecture Reference Manual.
 */
#include <string.h>

#include "check.h"
#include "debug/thumb_insn.h"

#define PC0 0x08000200U
#define SP0 0x20001000U
#define LR0 0x08000101U
#define XPSR0 0x01000000U /* Thumb bit only */
#define XPSR_C (1U << 29)
#define NO_REG 99U

typedef struct reg_value {
	unsigned reg;
	uint32_t value;
} reg_value_t;

typedef struct insn_case {
	const char *name;
	uint16_t hw1, hw2;
	size_t len;         /* bytes given to the decoder */
	bool decodes;       /* false: refused at decode */
	bool executes;      /* false: refused at execute (after decoding) */
	unsigned size;      /* its length */
	reg_value_t in[2];  /* registers changed from the base before it runs */
	reg_value_t out[3]; /* every register it changes (PC excluded), NO_REG ends */
	uint32_t pc;        /* the PC after it */
	uint32_t mem_address;
	size_t mem_regs;        /* words stored: the values of push_regs in order */
	unsigned push_regs[10]; /* registers whose values it stores, lowest address first */
} insn_case_t;

#define NONE                                                                                       \
	{                                                                                          \
		{NO_REG, 0},                                                                       \
		{                                                                                  \
			NO_REG, 0                                                                  \
		}                                                                                  \
	}
#define OUT0                                                                                       \
	{                                                                                          \
		{NO_REG, 0}, {NO_REG, 0},                                                          \
		{                                                                                  \
			NO_REG, 0                                                                  \
		}                                                                                  \
	}

static const insn_case_t cases[] = {
    {"nop", 0xBF00, 0, 2, true, true, 2, NONE, OUT0, PC0 + 2, 0, 0, {0}},
    {"nop.w", 0xF3AF, 0x8000, 4, true, true, 4, NONE, OUT0, PC0 + 4, 0, 0, {0}},
    {"push {r4, lr}",
     0xB510,
     0,
     2,
     true,
     true,
     2,
     NONE,
     {{13, SP0 - 8}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 2,
     SP0 - 8,
     2,
     {4, 14}},
    {"push {r4, r5, r6, r7, lr}",
     0xB5F0,
     0,
     2,
     true,
     true,
     2,
     NONE,
     {{13, SP0 - 20}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 2,
     SP0 - 20,
     5,
     {4, 5, 6, 7, 14}},
    {"push.w {r4-r11, lr}",
     0xE92D,
     0x4FF0,
     4,
     true,
     true,
     4,
     NONE,
     {{13, SP0 - 36}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 4,
     SP0 - 36,
     9,
     {4, 5, 6, 7, 8, 9, 10, 11, 14}},
    {"str.w r8, [sp, #-4]!",
     0xF84D,
     0x8D04,
     4,
     true,
     true,
     4,
     NONE,
     {{13, SP0 - 4}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 4,
     SP0 - 4,
     1,
     {8}},
    {"sub sp, #8",
     0xB082,
     0,
     2,
     true,
     true,
     2,
     NONE,
     {{13, SP0 - 8}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"add sp, #16",
     0xB004,
     0,
     2,
     true,
     true,
     2,
     NONE,
     {{13, SP0 + 16}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"sub sp, #508",
     0xB0FF,
     0,
     2,
     true,
     true,
     2,
     NONE,
     {{13, SP0 - 508}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"sub.w sp, sp, #1024",
     0xF5AD,
     0x6D80,
     4,
     true,
     true,
     4,
     NONE,
     {{13, SP0 - 1024}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 4,
     0,
     0,
     {0}},
    {"subw sp, sp, #1000",
     0xF2AD,
     0x3DE8,
     4,
     true,
     true,
     4,
     NONE,
     {{13, SP0 - 1000}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 4,
     0,
     0,
     {0}},
    {"addw r0, sp, #12",
     0xF20D,
     0x000C,
     4,
     true,
     true,
     4,
     NONE,
     {{0, SP0 + 12}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 4,
     0,
     0,
     {0}},
    {"add r7, sp, #4",
     0xAF01,
     0,
     2,
     true,
     true,
     2,
     NONE,
     {{7, SP0 + 4}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    /* Flags: C from the carry out, V from a signed overflow (A2.2.1). */
    {"adds r0, r1, #3 (carry)",
     0x1CC8,
     0,
     2,
     true,
     true,
     2,
     {{1, 0xFFFFFFFEU}, {NO_REG, 0}},
     {{0, 1}, {16, XPSR0 | XPSR_C}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"subs r2, #1 (zero)",
     0x3A01,
     0,
     2,
     true,
     true,
     2,
     {{2, 1}, {NO_REG, 0}},
     {{2, 0}, {16, XPSR0 | 0x60000000U}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"subs r3, #200 (borrow)",
     0x3BC8,
     0,
     2,
     true,
     true,
     2,
     {{3, 100}, {NO_REG, 0}},
     {{3, 0xFFFFFF9CU}, {16, XPSR0 | 0x80000000U}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"adds r0, #255 (overflow)",
     0x30FF,
     0,
     2,
     true,
     true,
     2,
     {{0, 0x7FFFFF01U}, {NO_REG, 0}},
     {{0, 0x80000000U}, {16, XPSR0 | 0x90000000U}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    /* movs sets N and Z only: C stays as it was. */
    {"movs r0, #0",
     0x2000,
     0,
     2,
     true,
     true,
     2,
     {{16, XPSR0 | XPSR_C}, {NO_REG, 0}},
     {{0, 0}, {16, XPSR0 | XPSR_C | 0x40000000U}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"movs r1, r2",
     0x0011,
     0,
     2,
     true,
     true,
     2,
     {{2, 0x80000000U}, {NO_REG, 0}},
     {{1, 0x80000000U}, {16, XPSR0 | 0x80000000U}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"mov r7, sp",
     0x466F,
     0,
     2,
     true,
     true,
     2,
     NONE,
     {{7, SP0}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"mov r8, r1",
     0x4688,
     0,
     2,
     true,
     true,
     2,
     NONE,
     {{8, 0x1011}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 2,
     0,
     0,
     {0}},
    {"add.w r1, r2, #0x00ff00ff",
     0xF102,
     0x11FF,
     4,
     true,
     true,
     4,
     NONE,
     {{1, 0x1022U + 0x00FF00FFU}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 + 4,
     0,
     0,
     {0}},
    {"bx lr", 0x4770, 0, 2, true, true, 2, NONE, OUT0, LR0 & ~1U, 0, 0, {0}},
    {"bx lr (EXC_RETURN)",
     0x4770,
     0,
     2,
     true,
     false,
     2,
     {{14, 0xFFFFFFF9U}, {NO_REG, 0}},
     OUT0,
     0,
     0,
     0,
     {0}},
    {"bx lr (ARM state)",
     0x4770,
     0,
     2,
     true,
     false,
     2,
     {{14, 0x08000100U}, {NO_REG, 0}},
     OUT0,
     0,
     0,
     0,
     {0}},
    {"b.n .", 0xE7FE, 0, 2, true, true, 2, NONE, OUT0, PC0, 0, 0, {0}},
    /* At 0x3a in the assembler's output, to 0x38: 6 bytes back from pc + 4. */
    {"bl .-2",
     0xF7FF,
     0xFFFD,
     4,
     true,
     true,
     4,
     NONE,
     {{14, (PC0 + 4U) | 1U}, {NO_REG, 0}, {NO_REG, 0}},
     PC0 - 2,
     0,
     0,
     {0}},
    {"b.w .-6", 0xF7FF, 0xBFFB, 4, true, true, 4, NONE, OUT0, PC0 - 6, 0, 0, {0}},
    /* Inside an IT block (IT bits of xPSR set): conditional, not done here. */
    {"nop in an IT block",
     0xBF00,
     0,
     2,
     true,
     false,
     2,
     {{16, XPSR0 | 0x00001C00U}, {NO_REG, 0}},
     OUT0,
     0,
     0,
     0,
     {0}},
    {"push in an IT block",
     0xB510,
     0,
     2,
     true,
     false,
     2,
     {{16, XPSR0 | 0x06000000U}, {NO_REG, 0}},
     OUT0,
     0,
     0,
     0,
     {0}},
    /* Refused: not in the list, or a form the host does not take. */
    {"ldr r0, [r1]", 0x6808, 0, 2, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"mov pc, lr", 0x46F7, 0, 2, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"push {} (no registers)", 0xB400, 0, 2, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"push.w {r4} (one register: T3's job)",
     0xE92D,
     0x0010,
     4,
     false,
     false,
     0,
     NONE,
     OUT0,
     0,
     0,
     0,
     {0}},
    {"push.w {r4, pc}", 0xE92D, 0x8010, 4, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"beq (conditional)", 0xD0F4, 0, 2, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"adr r0, (pc-relative)", 0xA002, 0, 2, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"addw r0, pc, #4 (adr.w)", 0xF20F, 0x0004, 4, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"cmp r0, #1", 0x2801, 0, 2, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"blx r3", 0x4798, 0, 2, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"bl's first half alone", 0xF7FF, 0, 2, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"11J1 0J2 (not a branch on M)", 0xF7FF, 0xEFFD, 4, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"b<c>.w (T3, conditional)", 0xF43F, 0xAFFE, 4, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"adds.w (S = 1)", 0xF112, 0x0101, 4, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
    {"udf", 0xDE00, 0, 2, false, false, 0, NONE, OUT0, 0, 0, 0, {0}},
};

static void base_regs(uint32_t r[BR_THUMB_REGS])
{
	for (unsigned i = 0; i < 13U; i++)
		r[i] = 0x1000U + 0x11U * i;
	r[BR_THUMB_SP] = SP0;
	r[BR_THUMB_LR] = LR0;
	r[BR_THUMB_PC] = PC0;
	r[BR_THUMB_XPSR] = XPSR0;
}

static void check_case(const insn_case_t *c)
{
	uint8_t code[4] = {(uint8_t)c->hw1, (uint8_t)(c->hw1 >> 8), (uint8_t)c->hw2,
	                   (uint8_t)(c->hw2 >> 8)};
	br_thumb_insn_t insn;
	bool decoded = br_thumb_insn_decode(code, c->len, &insn);
	CHECK_MSG(decoded == c->decodes, "%s: decodes %d", c->name, decoded);
	if (!decoded || !c->decodes)
		return;
	CHECK_MSG(insn.size == c->size, "%s: size %u", c->name, insn.size);
	CHECK_MSG(insn.text[0] != '\0', "%s: named", c->name);
	uint32_t in[BR_THUMB_REGS];
	base_regs(in);
	for (size_t i = 0; i < 2U && c->in[i].reg != NO_REG; i++)
		in[c->in[i].reg] = c->in[i].value;
	uint32_t want[BR_THUMB_REGS];
	memcpy(want, in, sizeof(want));
	for (size_t i = 0; i < 3U && c->out[i].reg != NO_REG; i++)
		want[c->out[i].reg] = c->out[i].value;
	want[BR_THUMB_PC] = c->pc;
	br_thumb_effect_t e;
	bool done = br_thumb_insn_execute(&insn, in, &e);
	CHECK_MSG(done == c->executes, "%s (%s): executes %d", c->name, insn.text, done);
	if (!done || !c->executes)
		return;
	for (unsigned i = 0; i < BR_THUMB_REGS; i++) {
		CHECK_MSG(e.r[i] == want[i], "%s: r%u 0x%08x, want 0x%08x", c->name, i, e.r[i],
		          want[i]);
		bool changed = (e.changed >> i) & 1U;
		CHECK_MSG(changed == (want[i] != in[i]), "%s: r%u changed %d", c->name, i, changed);
	}
	/* Every register the instruction's result depends on is in its reads. */
	for (size_t i = 0; i < c->mem_regs; i++)
		CHECK_MSG((insn.reads >> c->push_regs[i]) & 1U, "%s: reads r%u", c->name,
		          c->push_regs[i]);
	CHECK_MSG(e.mem_len == 4U * c->mem_regs, "%s: %zu bytes stored", c->name, e.mem_len);
	if (c->mem_regs > 0)
		CHECK_MSG(e.mem_address == c->mem_address, "%s: stored at 0x%08x", c->name,
		          e.mem_address);
	for (size_t i = 0; i < c->mem_regs && 4U * i + 3U < e.mem_len; i++) {
		uint32_t w = (uint32_t)e.mem[4 * i] | (uint32_t)e.mem[4 * i + 1] << 8 |
		             (uint32_t)e.mem[4 * i + 2] << 16 | (uint32_t)e.mem[4 * i + 3] << 24;
		CHECK_MSG(w == in[c->push_regs[i]], "%s: word %zu 0x%08x, want r%u 0x%08x", c->name,
		          i, w, c->push_regs[i], in[c->push_regs[i]]);
	}
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
	/* The registers a decoded instruction reads: push's and the SP, an
	 * add's source, a flag setter's xPSR. */
	br_thumb_insn_t insn;
	const uint8_t push[2] = {0xF0, 0xB5};
	CHECK(br_thumb_insn_decode(push, 2, &insn) && insn.reads == 0x60F0U);
	const uint8_t subs[2] = {0x01, 0x3A};
	CHECK(br_thumb_insn_decode(subs, 2, &insn) && insn.reads == ((1U << 2) | (1U << 16)));
	CHECK(br_thumb_insn_decode(push, 2, &insn) &&
	      strcmp(insn.text, "push {r4, r5, r6, r7, lr}") == 0);
	CHECK(!br_thumb_insn_decode(push, 1, &insn));
	return check_finish();
}
