#include "debug/core_state.h"

#include <stdio.h>
#include <string.h>

#define EXC_NMI 2U
#define EXC_USAGEFAULT 6U
#define EXC_FIRST_IRQ 16U

/* Bit names, low bit first; NULL where the architecture reserves the bit. */
typedef struct fault_bit {
	unsigned bit;
	const char *name;
} fault_bit_t;

/* CFSR: MMFSR [7:0], BFSR [15:8], UFSR [31:16] (ARMv7-M ARM B3.2.15). */
static const fault_bit_t cfsr_bits[] = {
    {0, "IACCVIOL"},  {1, "DACCVIOL"}, {3, "MUNSTKERR"},  {4, "MSTKERR"},      {5, "MLSPERR"},
    {7, "MMARVALID"}, {8, "IBUSERR"},  {9, "PRECISERR"},  {10, "IMPRECISERR"}, {11, "UNSTKERR"},
    {12, "STKERR"},   {13, "LSPERR"},  {15, "BFARVALID"}, {16, "UNDEFINSTR"},  {17, "INVSTATE"},
    {18, "INVPC"},    {19, "NOCP"},    {20, "STKOF"},     {24, "UNALIGNED"},   {25, "DIVBYZERO"},
};

/* HFSR (B3.2.16). */
static const fault_bit_t hfsr_bits[] = {{1, "VECTTBL"}, {30, "FORCED"}, {31, "DEBUGEVT"}};

#define CFSR_MMARVALID (1U << 7)
#define CFSR_BFARVALID (1U << 15)

static const char *const exception_names[EXC_FIRST_IRQ] = {
    [1] = "Reset",         [2] = "NMI",        [3] = "HardFault",   [4] = "MemManage",
    [5] = "BusFault",      [6] = "UsageFault", [7] = "SecureFault", [11] = "SVCall",
    [12] = "DebugMonitor", [14] = "PendSV",    [15] = "SysTick",
};

void br_core_exception_name(unsigned ipsr, char *buf, size_t cap)
{
	if (ipsr == 0U)
		snprintf(buf, cap, "Thread mode");
	else if (ipsr >= EXC_FIRST_IRQ)
		snprintf(buf, cap, "IRQ %u", ipsr - EXC_FIRST_IRQ);
	else if (exception_names[ipsr] != NULL)
		snprintf(buf, cap, "%s", exception_names[ipsr]);
	else
		snprintf(buf, cap, "reserved exception %u", ipsr);
}

/* Appends " NAME NAME" for the bits of value set in bits, or " none". */
static size_t bit_names(uint32_t value, const fault_bit_t *bits, size_t n, char *buf, size_t cap)
{
	size_t o = 0;
	bool any = false;
	for (size_t i = 0; i < n && o < cap; i++) {
		if ((value & (1U << bits[i].bit)) == 0U)
			continue;
		int w = snprintf(buf + o, cap - o, "%s%s", any ? " " : ": ", bits[i].name);
		if (w < 0)
			break;
		o += (size_t)w;
		any = true;
	}
	if (!any && o < cap) {
		int w = snprintf(buf + o, cap - o, ": none set");
		o += w > 0 ? (size_t)w : 0U;
	}
	return o < cap ? o : cap - 1U;
}

void br_core_state_describe(const br_core_state_t *s, char *buf, size_t cap)
{
	if (cap == 0)
		return;
	buf[0] = '\0';
	unsigned ipsr = s->xpsr & BR_XPSR_IPSR_MASK;
	if (ipsr == 0U)
		return;
	char name[32];
	br_core_exception_name(ipsr, name, sizeof(name));
	int w = snprintf(buf, cap, "IPSR %u (%s)", ipsr, name);
	size_t o = w > 0 ? (size_t)w : 0U;
	if (!s->faults_read || o >= cap)
		return;
	w = snprintf(buf + o, cap - o, "; HFSR 0x%08x", s->hfsr);
	o += w > 0 ? (size_t)w : 0U;
	if (o < cap)
		o += bit_names(s->hfsr, hfsr_bits, sizeof(hfsr_bits) / sizeof(hfsr_bits[0]),
		               buf + o, cap - o);
	if (o < cap) {
		w = snprintf(buf + o, cap - o, "; CFSR 0x%08x", s->cfsr);
		o += w > 0 ? (size_t)w : 0U;
	}
	if (o < cap)
		o += bit_names(s->cfsr, cfsr_bits, sizeof(cfsr_bits) / sizeof(cfsr_bits[0]),
		               buf + o, cap - o);
	if (o < cap && (s->cfsr & CFSR_MMARVALID) != 0U) {
		w = snprintf(buf + o, cap - o, "; MMFAR 0x%08x", s->mmfar);
		o += w > 0 ? (size_t)w : 0U;
	}
	if (o < cap && (s->cfsr & CFSR_BFARVALID) != 0U)
		(void)snprintf(buf + o, cap - o, "; BFAR 0x%08x", s->bfar);
}

br_status_t br_core_state_read(br_target_t *t, br_core_state_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	br_status_t st = br_target_pc(t, &out->pc, err);
	if (st == BR_OK)
		st = br_target_reg_read(t, BR_TARGET_REG_XPSR, &out->xpsr, err);
	if (st != BR_OK)
		return st;
	unsigned ipsr = out->xpsr & BR_XPSR_IPSR_MASK;
	if (ipsr < EXC_NMI || ipsr > EXC_USAGEFAULT)
		return BR_OK;
	br_error_t ignored;
	out->faults_read = br_target_read_u32(t, BR_SCB_CFSR, &out->cfsr, &ignored) == BR_OK &&
	                   br_target_read_u32(t, BR_SCB_HFSR, &out->hfsr, &ignored) == BR_OK &&
	                   br_target_read_u32(t, BR_SCB_MMFAR, &out->mmfar, &ignored) == BR_OK &&
	                   br_target_read_u32(t, BR_SCB_BFAR, &out->bfar, &ignored) == BR_OK;
	return BR_OK;
}
