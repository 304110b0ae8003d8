/*
 * The roots of a call chain (profile/unwind.h), on the real fixture image
 * (fw_region.S) with registers and a stack written here:
 * - a sample in step just after its push {r3, lr}, the LR it saved being
 *   0xFFFFFFFF (the LR a core resets with): the chain is complete there,
 *   one frame, not an exception frame that cannot be read;
 * - the same sample with the saved LR pointing after Reset_Handler's call
 *   of step: complete at Reset_Handler (the ELF's entry and the reset
 *   vector's function), two frames, the caller named by its call;
 * - the reset vector names Reset_Handler.
 *
 * usage: test_unwind_roots FW_PROFILE_REGION_ELF
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fixture_elf.h"
#include "elf/elf_symbols.h"
#include "profile/unwind.h"

#define STACK_AT 0x20001000U

static void put32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

/* Unwinds a sample in step after its push, the saved LR being saved_lr. */
static void sample(const br_unwinder_t *u, uint32_t step, uint32_t saved_lr, br_unwind_result_t *r)
{
	uint32_t regs[16];
	memset(regs, 0, sizeof(regs));
	regs[13] = STACK_AT;
	regs[14] = 0x12345678U; /* what step's bl heavy left: not looked at */
	regs[15] = step + 2U;   /* after push {r3, lr} */
	static uint8_t stack[16];
	put32(stack, 0);            /* r3 */
	put32(stack + 4, saved_lr); /* lr */
	br_unwind_memory_t mem = {STACK_AT, sizeof(stack), stack};
	br_unwind(u, regs, &mem, 1, r);
}

int main(int argc, char **argv)
{
	br_elf_t *elf = fixture_elf_open(argc, argv);
	if (elf == NULL)
		return 2;
	br_error_t err;
	uint32_t reset = fixture_sym(elf, "Reset_Handler"), step = fixture_sym(elf, "step");
	CHECK(br_unwind_reset_function(elf) == reset);
	br_unwinder_t u;
	CHECK(br_unwinder_open(&u, elf, BR_UNWIND_CFI, &err) == BR_OK);
	br_unwind_result_t r;
	sample(&u, step, 0xFFFFFFFFU, &r);
	CHECK_MSG(r.complete && r.depth == 1 && r.pcs[0] == step + 2U && r.exceptions == 0,
	          "complete %d depth %zu stop %s", r.complete, r.depth, r.stop);
	/* Reset_Handler: bl region_start (4), mov.w r4 (4), bl step: returns to +12. */
	sample(&u, step, (reset + 12U) | 1U, &r);
	CHECK_MSG(r.complete && r.depth == 2 && r.pcs[1] == reset + 12U && r.returns[1] &&
	              !r.returns[0] && br_unwind_name_pc(&r, 1) == reset + 11U,
	          "complete %d depth %zu stop %s", r.complete, r.depth, r.stop);
	br_unwinder_close(&u);
	br_elf_close(elf);
	return check_finish();
}
