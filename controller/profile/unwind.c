#include "profile/unwind.h"

#include <string.h>

#include "elf/elf_image.h"
#include "elf/elf_symbols.h"
#include "profile/thumb_frame.h"

/* EXC_RETURN (ARMv7-M ARM B1.5.8): the top 27 bits all ones in an LR value. */
#define EXC_RETURN_PREFIX 0xFFFFFFE0U
#define EXC_RETURN_SPSEL (1U << 2) /* 1: the frame is on the process stack */
#define EXC_RETURN_NOFP (1U << 4)  /* 0: an extended frame with the FP state */
#define EXC_FRAME_BASIC 0x20U      /* r0-r3, r12, LR, PC, xPSR */
#define EXC_FRAME_EXTENDED 0x68U   /* + s0-s15, FPSCR, a reserved word */
#define EXC_FRAME_LR 5U
#define EXC_FRAME_PC 6U
#define EXC_FRAME_XPSR 7U
#define XPSR_ALIGNED (1U << 9) /* the stack was realigned by 4 bytes */

typedef struct windows {
	const br_unwind_memory_t *mem;
	size_t n;
} windows_t;

static bool read_word(void *ctx, uint32_t address, uint32_t *value)
{
	const windows_t *w = ctx;
	for (size_t i = 0; i < w->n; i++) {
		const br_unwind_memory_t *m = &w->mem[i];
		if (m->bytes == NULL || address < m->address ||
		    address - m->address > m->len - 4U || m->len < 4U)
			continue;
		const uint8_t *b = m->bytes + (address - m->address);
		*value = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		         (uint32_t)b[3] << 24;
		return true;
	}
	return false;
}

uint32_t br_unwind_reset_function(const br_elf_t *elf)
{
	br_elf_segment_iter_t it;
	br_elf_segment_t seg;
	bool any = false;
	uint32_t low = 0;
	br_elf_segments_begin(elf, &it);
	while (br_elf_segments_next(&it, &seg))
		if (seg.filesz >= 8U && (!any || seg.vaddr < low)) {
			low = seg.vaddr;
			any = true;
		}
	uint8_t b[8];
	br_error_t ignored;
	br_elf_function_t fn;
	if (!any || br_elf_read_initial(elf, low, b, sizeof(b), &ignored) != BR_OK)
		return 0;
	uint32_t reset =
	    ((uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24) &
	    ~1U;
	return reset != 0 && br_elf_symbol_at(elf, reset, &fn) && fn.address == reset ? reset : 0;
}

br_status_t br_unwinder_open(br_unwinder_t *u, const br_elf_t *elf, br_unwind_method_t method,
                             br_error_t *err)
{
	memset(u, 0, sizeof(*u));
	u->elf = elf;
	u->method = method;
	u->entry = br_elf_entry(elf);
	br_elf_function_t fn;
	if (br_elf_symbol_at(elf, u->entry, &fn))
		u->entry = fn.address;
	u->reset = br_unwind_reset_function(elf);
	if (method == BR_UNWIND_FRAME_RECORDS)
		return BR_OK;
	return br_elf_cfi_open(elf, &u->cfi, err);
}

void br_unwinder_close(br_unwinder_t *u)
{
	br_elf_cfi_close(u->cfi);
	u->cfi = NULL;
}

/* Replaces *r with the interrupted code's registers from the exception frame. */
static bool exception_frame(uint32_t exc_return, br_cfi_regs_t *r, windows_t *w)
{
	if ((exc_return & EXC_RETURN_SPSEL) != 0 || !r->known[BR_CFI_REG_SP])
		return false;
	uint32_t frame = r->value[BR_CFI_REG_SP];
	uint32_t words[8];
	for (unsigned i = 0; i < 8U; i++)
		if (!read_word(w, frame + 4U * i, &words[i]))
			return false;
	uint32_t size = (exc_return & EXC_RETURN_NOFP) != 0 ? EXC_FRAME_BASIC : EXC_FRAME_EXTENDED;
	if ((words[EXC_FRAME_XPSR] & XPSR_ALIGNED) != 0)
		size += 4U;
	static const unsigned stacked[5] = {0, 1, 2, 3, 12};
	for (unsigned i = 0; i < 5U; i++) {
		r->value[stacked[i]] = words[i];
		r->known[stacked[i]] = true;
	}
	r->value[BR_CFI_REG_LR] = words[EXC_FRAME_LR];
	r->known[BR_CFI_REG_LR] = true;
	r->value[BR_CFI_REG_PC] = words[EXC_FRAME_PC];
	r->value[BR_CFI_REG_SP] = frame + size;
	return true;
}

static bool is_exc_return(uint32_t v)
{
	return (v & EXC_RETURN_PREFIX) == EXC_RETURN_PREFIX;
}

void br_unwind(const br_unwinder_t *u, const uint32_t regs[16], const br_unwind_memory_t *mem,
               size_t nmem, br_unwind_result_t *out)
{
	memset(out, 0, sizeof(*out));
	windows_t w = {mem, nmem};
	br_cfi_regs_t cur;
	for (unsigned i = 0; i < BR_CFI_REGS; i++) {
		cur.value[i] = regs[i];
		cur.known[i] = true;
	}
	bool innermost = true; /* pc is the next instruction, not a return address */
	out->stop = "too many frames";
	while (out->depth < BR_UNWIND_MAX_FRAMES) {
		uint32_t pc = cur.value[BR_CFI_REG_PC];
		if (is_exc_return(pc)) {
			if (!exception_frame(pc, &cur, &w)) {
				out->stop =
				    "an exception frame that was not read (process stack, or "
				    "outside the stack window)";
				return;
			}
			out->exceptions++;
			innermost = true;
			continue;
		}
		pc &= ~1U;
		br_elf_function_t fn;
		bool in_function = br_elf_symbol_at(u->elf, innermost ? pc : pc - 1U, &fn);
		out->returns[out->depth] = !innermost;
		out->pcs[out->depth++] = pc;
		if (!in_function) {
			out->stop = "a PC in no function";
			return;
		}
		if (fn.address == u->entry || (u->reset != 0 && fn.address == u->reset)) {
			out->complete = true;
			out->stop = "reset handler";
			return;
		}
		uint32_t lookup = innermost ? pc : pc - 1U;
		br_cfi_regs_t caller;
		br_unwind_how_t how = BR_UNWIND_HOW_CFI;
		br_cfi_result_t cr = BR_CFI_NO_ENTRY;
		if (u->method != BR_UNWIND_FRAME_RECORDS)
			cr = br_elf_cfi_step(u->cfi, lookup, &cur, read_word, &w, &caller);
		if (cr == BR_CFI_OUTERMOST) {
			out->complete = true;
			out->stop = "CFI: outermost frame";
			return;
		}
		if (cr != BR_CFI_STEPPED && cr != BR_CFI_NO_ENTRY) {
			out->stop = cr == BR_CFI_UNREADABLE ? "CFI: a stack word outside the window"
			                                    : "CFI: an expression not evaluated";
			return;
		}
		if (cr == BR_CFI_NO_ENTRY) {
			if (u->method == BR_UNWIND_CFI) {
				out->stop = "no CFI for this code";
				return;
			}
			br_thumb_frame_result_t tr = br_thumb_frame_step(
			    u->elf, fn.address, fn.size, innermost, &cur, read_word, &w, &caller);
			if (tr == BR_THUMB_FRAME_FAILED) {
				out->stop = "frame records: no record found";
				return;
			}
			how =
			    tr == BR_THUMB_FRAME_LR ? BR_UNWIND_HOW_LR : BR_UNWIND_HOW_FRAME_RECORD;
		}
		uint32_t ra = caller.value[BR_CFI_REG_PC];
		if (ra == BR_UNWIND_RESET_LR) {
			/* The LR the core resets with: this frame is the reset
			 * handler's, whatever the ELF calls its entry. */
			out->complete = true;
			out->stop = "reset handler (LR 0xFFFFFFFF)";
			return;
		}
		if (!is_exc_return(ra) && !br_thumb_is_after_call(u->elf, ra)) {
			out->stop = "a return address not after a call";
			return;
		}
		if (caller.value[BR_CFI_REG_SP] < cur.value[BR_CFI_REG_SP]) {
			out->stop = "a caller's SP below its callee's";
			return;
		}
		if (how == BR_UNWIND_HOW_CFI)
			out->by_cfi++;
		else if (how == BR_UNWIND_HOW_FRAME_RECORD)
			out->by_frame_record++;
		else
			out->by_lr++;
		cur = caller;
		innermost = false;
	}
}

uint32_t br_unwind_name_pc(const br_unwind_result_t *r, size_t i)
{
	return r->returns[i] ? r->pcs[i] - 1U : r->pcs[i];
}

const char *br_unwind_method_name(br_unwind_method_t m)
{
	return m == BR_UNWIND_CFI ? "cfi" : m == BR_UNWIND_FRAME_RECORDS ? "frame-records" : "auto";
}

bool br_unwind_method_parse(const char *text, br_unwind_method_t *out)
{
	static const br_unwind_method_t all[] = {BR_UNWIND_AUTO, BR_UNWIND_CFI,
	                                         BR_UNWIND_FRAME_RECORDS};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(text, br_unwind_method_name(all[i])) == 0) {
			*out = all[i];
			return true;
		}
	return false;
}
