/*
 * DWARF CFI through libdw (elf/elf_cfi.h). The rules libdw hands back are
 * DWARF expressions (DWARF 5, 6.4.2 "Call Frame Instructions" as libdw
 * translates them): a small stack machine evaluates the operations CFI uses.
 */
#include "elf/elf_cfi.h"

#include <dwarf.h>
#include <stdlib.h>

#include "common/xalloc.h"
#include "elf/elf_private.h"

/* The deepest expression stack the evaluator keeps. */
#define CFI_STACK_MAX 8U

struct br_elf_cfi {
	Dwarf_CFI *cfi;
	bool owned; /* from dwarf_getcfi_elf: released with dwarf_cfi_end */
	const char *source;
};

br_status_t br_elf_cfi_open(const br_elf_t *elf, br_elf_cfi_t **out, br_error_t *err)
{
	(void)err;
	*out = NULL;
	Dwarf_CFI *c = NULL;
	bool owned = false;
	const char *source = ".debug_frame";
	if (elf->dwarf != NULL)
		c = dwarf_getcfi(elf->dwarf);
	if (c == NULL) {
		c = dwarf_getcfi_elf(elf->elf);
		owned = c != NULL;
		source = ".eh_frame";
	}
	if (c == NULL)
		return BR_OK;
	br_elf_cfi_t *h = xcalloc(1, sizeof(*h));
	h->cfi = c;
	h->owned = owned;
	h->source = source;
	*out = h;
	return BR_OK;
}

void br_elf_cfi_close(br_elf_cfi_t *cfi)
{
	if (cfi == NULL)
		return;
	if (cfi->owned)
		dwarf_cfi_end(cfi->cfi);
	free(cfi);
}

const char *br_elf_cfi_source(const br_elf_cfi_t *cfi)
{
	return cfi->source;
}

bool br_elf_cfi_covers(const br_elf_cfi_t *cfi, uint32_t address)
{
	Dwarf_Frame *frame = NULL;
	if (cfi == NULL || dwarf_cfi_addrframe(cfi->cfi, address, &frame) != 0)
		return false;
	free(frame);
	return true;
}

/* What evaluating a rule gave: a value, or a memory address holding it. */
typedef struct cfi_value {
	uint32_t v;
	bool is_location; /* v is an address to read (no DW_OP_stack_value) */
} cfi_value_t;

typedef struct cfi_eval {
	const br_cfi_regs_t *regs;
	bool cfa_known;
	uint32_t cfa;
	br_cfi_read_fn read;
	void *ctx;
} cfi_eval_t;

static br_cfi_result_t reg_value(const cfi_eval_t *e, unsigned reg, uint32_t *v)
{
	if (reg >= BR_CFI_REGS)
		return BR_CFI_UNSUPPORTED;
	if (!e->regs->known[reg])
		return BR_CFI_UNREADABLE;
	*v = e->regs->value[reg];
	return BR_CFI_STEPPED;
}

/* Evaluates the operations CFI produces; anything else is UNSUPPORTED. */
static br_cfi_result_t evaluate(const cfi_eval_t *e, const Dwarf_Op *ops, size_t nops,
                                cfi_value_t *out)
{
	uint32_t stack[CFI_STACK_MAX];
	size_t depth = 0;
	bool is_location = true;
	for (size_t i = 0; i < nops; i++) {
		const Dwarf_Op *op = &ops[i];
		uint32_t v = 0;
		br_cfi_result_t r = BR_CFI_STEPPED;
		if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
			r = reg_value(e, (unsigned)(op->atom - DW_OP_breg0), &v);
			v += (uint32_t)op->number;
		} else if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31) {
			v = (uint32_t)(op->atom - DW_OP_lit0);
		} else if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31 && nops == 1) {
			/* The value lives in another register of this frame. */
			r = reg_value(e, (unsigned)(op->atom - DW_OP_reg0), &out->v);
			out->is_location = false;
			return r;
		} else {
			switch (op->atom) {
			case DW_OP_bregx:
				r = reg_value(e, (unsigned)op->number, &v);
				v += (uint32_t)op->number2;
				break;
			case DW_OP_regx:
				if (nops != 1)
					return BR_CFI_UNSUPPORTED;
				r = reg_value(e, (unsigned)op->number, &out->v);
				out->is_location = false;
				return r;
			case DW_OP_call_frame_cfa:
				if (!e->cfa_known)
					return BR_CFI_UNREADABLE;
				v = e->cfa;
				break;
			case DW_OP_const1u:
			case DW_OP_const2u:
			case DW_OP_const4u:
			case DW_OP_const1s:
			case DW_OP_const2s:
			case DW_OP_const4s:
			case DW_OP_constu:
			case DW_OP_consts:
				v = (uint32_t)op->number;
				break;
			case DW_OP_plus_uconst:
				if (depth < 1)
					return BR_CFI_UNSUPPORTED;
				stack[depth - 1] += (uint32_t)op->number;
				continue;
			case DW_OP_plus:
			case DW_OP_minus:
				if (depth < 2)
					return BR_CFI_UNSUPPORTED;
				depth--;
				stack[depth - 1] = op->atom == DW_OP_plus
				                       ? stack[depth - 1] + stack[depth]
				                       : stack[depth - 1] - stack[depth];
				continue;
			case DW_OP_deref:
				if (depth < 1)
					return BR_CFI_UNSUPPORTED;
				if (!e->read(e->ctx, stack[depth - 1], &stack[depth - 1]))
					return BR_CFI_UNREADABLE;
				continue;
			case DW_OP_stack_value:
				is_location = false;
				continue;
			default:
				return BR_CFI_UNSUPPORTED;
			}
		}
		if (r != BR_CFI_STEPPED)
			return r;
		if (depth == CFI_STACK_MAX)
			return BR_CFI_UNSUPPORTED;
		stack[depth++] = v;
	}
	if (depth != 1)
		return BR_CFI_UNSUPPORTED;
	out->v = stack[0];
	out->is_location = is_location;
	return BR_CFI_STEPPED;
}

br_cfi_result_t br_elf_cfi_step(const br_elf_cfi_t *cfi, uint32_t lookup, const br_cfi_regs_t *in,
                                br_cfi_read_fn read, void *ctx, br_cfi_regs_t *out)
{
	Dwarf_Frame *frame = NULL;
	if (cfi == NULL || dwarf_cfi_addrframe(cfi->cfi, lookup, &frame) != 0)
		return BR_CFI_NO_ENTRY;
	cfi_eval_t e = {.regs = in, .read = read, .ctx = ctx};
	br_cfi_result_t r = BR_CFI_STEPPED;
	int ra = dwarf_frame_info(frame, NULL, NULL, NULL);
	Dwarf_Op *ops = NULL;
	size_t nops = 0;
	cfi_value_t val;
	if (ra < 0 || ra >= (int)BR_CFI_REGS || dwarf_frame_cfa(frame, &ops, &nops) != 0 ||
	    nops == 0)
		r = BR_CFI_UNSUPPORTED;
	if (r == BR_CFI_STEPPED)
		r = evaluate(&e, ops, nops, &val);
	if (r == BR_CFI_STEPPED) {
		e.cfa = val.v;
		e.cfa_known = true;
	}
	br_cfi_regs_t caller = {0};
	uint32_t ra_value = 0;
	bool ra_known = false;
	for (unsigned reg = 0; r == BR_CFI_STEPPED && reg < BR_CFI_REGS; reg++) {
		Dwarf_Op mem[3];
		ops = NULL;
		nops = 0;
		if (dwarf_frame_register(frame, (int)reg, mem, &ops, &nops) != 0) {
			r = BR_CFI_UNSUPPORTED;
			break;
		}
		bool known = false;
		uint32_t v = 0;
		if (nops == 0 && ops == NULL) { /* same value */
			known = in->known[reg];
			v = in->value[reg];
		} else if (nops > 0) {
			br_cfi_result_t rr = evaluate(&e, ops, nops, &val);
			if (rr == BR_CFI_STEPPED) {
				known = true;
				v = val.v;
				if (val.is_location)
					known = read(ctx, val.v, &v);
			} else if (rr == BR_CFI_UNSUPPORTED && (int)reg != ra) {
				known = false; /* a register we do not need for the chain */
			} else if ((int)reg == ra) {
				r = rr;
				break;
			}
		}
		if ((int)reg == ra) {
			if (nops == 0 && ops != NULL) { /* undefined: the outermost frame */
				r = BR_CFI_OUTERMOST;
				break;
			}
			ra_value = v;
			ra_known = known;
		}
		caller.value[reg] = v;
		caller.known[reg] = known;
	}
	free(frame);
	if (r != BR_CFI_STEPPED)
		return r;
	if (!ra_known)
		return BR_CFI_UNREADABLE;
	caller.value[BR_CFI_REG_SP] = e.cfa;
	caller.known[BR_CFI_REG_SP] = true;
	caller.value[BR_CFI_REG_PC] = ra_value;
	caller.known[BR_CFI_REG_PC] = true;
	*out = caller;
	return BR_CFI_STEPPED;
}
