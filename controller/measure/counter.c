#include "measure/counter.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "benchrack/debug_regs.h"
#include "common/counter_kind.h"

#define COUNTER_FULL_WIDTH 32U
#define COUNTER_SYSTICK_WIDTH 24U
#define COUNTER_PERIOD_FULL 0x100000000ULL
#define COUNTER_ICOUNT_WIDTH 64U

/* DEMCR, the DWT and SysTick: benchrack/debug_regs.h. */
#define ARM_ALL_BITS 0xFFFFFFFFU

/* STM32F405 reference manual (RM0090): 7.3.13 RCC_APB1ENR (TIM2EN, bit 0);
 * 18.4.1 TIMx_CR1 (CEN, bit 0); 18.4.10 TIMx_CNT at offset 0x24; 38.16.4
 * DBGMCU_APB1_FZ (DBG_TIM2_STOP, bit 0). */
#define STM32F4_RCC_APB1ENR 0x40023840U
#define STM32F4_RCC_APB1ENR_TIM2EN (1U << 0)
#define STM32F4_TIM2_CR1 0x40000000U
#define STM32F4_TIM_CR1_CEN (1U << 0)
#define STM32F4_TIM2_CNT 0x40000024U
#define STM32F4_DBGMCU_APB1_FZ 0xE0042008U
#define STM32F4_DBG_TIM2_STOP (1U << 0)

uint32_t br_counter_mask(const br_counter_t *c)
{
	if (c->width_bits >= COUNTER_FULL_WIDTH)
		return 0xFFFFFFFFU;
	return (1U << c->width_bits) - 1U;
}

uint32_t br_counter_delta(const br_counter_t *c, uint32_t start, uint32_t end)
{
	uint32_t d = c->counts_down ? start - end : end - start;
	return d & br_counter_mask(c);
}

uint32_t br_counter_delta_period(const br_counter_t *c, uint64_t period, uint32_t start,
                                 uint32_t end)
{
	if (period == 0 || period >= COUNTER_PERIOD_FULL)
		return c->counts_down ? start - end : end - start;
	uint64_t s = (uint64_t)start % period;
	uint64_t e = (uint64_t)end % period;
	uint64_t from = c->counts_down ? s : e;
	uint64_t to = c->counts_down ? e : s;
	return (uint32_t)(from >= to ? from - to : from + period - to);
}

void br_counter_state_init(br_counter_state_t *state, const br_counter_t *c)
{
	memset(state, 0, sizeof(*state));
	state->counter = *c;
	/* A 64-bit count has no period worth guarding (0: br_wrap_guard_seconds). */
	state->period =
	    c->width_bits >= COUNTER_ICOUNT_WIDTH ? 0U : (uint64_t)br_counter_mask(c) + 1U;
	state->wrap_seconds = c->clock_hz != 0 ? (double)state->period / (double)c->clock_hz : 0.0;
}

uint32_t br_counter_state_delta(const br_counter_state_t *state, uint32_t start, uint32_t end)
{
	return br_counter_delta_period(&state->counter, state->period, start, end);
}

uint64_t br_counter_state_delta64(const br_counter_state_t *state, uint64_t start, uint64_t end)
{
	if (state->counter.width_bits >= COUNTER_ICOUNT_WIDTH)
		return end - start;
	return br_counter_state_delta(state, (uint32_t)start, (uint32_t)end);
}

bool br_counter_is_monitor(const br_counter_t *c)
{
	return c->kind == BR_COUNTER_ICOUNT;
}

bool br_counter_uninterruptible(const br_counter_t *c)
{
	return br_counter_is_monitor(c);
}

bool br_counter_icount_parse(const char *text, uint64_t *count)
{
	const char *at = strstr(text, BR_COUNTER_ICOUNT_PREFIX);
	if (at == NULL)
		return false;
	at += strlen(BR_COUNTER_ICOUNT_PREFIX);
	if (*at < '0' || *at > '9')
		return false;
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(at, &end, 10);
	if (errno != 0 || (*end != '\0' && *end != '\n' && *end != '\r'))
		return false;
	*count = v;
	return true;
}

void br_counter_icount(br_counter_t *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = BR_COUNTER_ICOUNT;
	out->name = br_counter_kind_names[BR_COUNTER_KIND_ICOUNT];
	out->width_bits = COUNTER_ICOUNT_WIDTH;
	out->unit = "instructions (QEMU icount)";
	out->max_rate_hz = BR_COUNTER_QEMU_MAX_IPS;
}

/* Appends one enable write to c. */
static void counter_enable_add(br_counter_t *c, uint32_t address, uint32_t mask, uint32_t value)
{
	c->enable[c->enable_count].address = address;
	c->enable[c->enable_count].mask = mask;
	c->enable[c->enable_count].value = value;
	c->enable_count++;
}

void br_counter_mmio(br_counter_t *out, const char *name, uint32_t address, unsigned width_bits,
                     bool counts_down, uint64_t clock_hz)
{
	memset(out, 0, sizeof(*out));
	out->kind = BR_COUNTER_MMIO;
	out->name = name;
	out->address = address;
	out->width_bits = width_bits;
	out->counts_down = counts_down;
	out->clock_hz = clock_hz;
	out->max_rate_hz = clock_hz;
	out->unit = "ticks";
}

void br_counter_tim2(br_counter_t *out, uint64_t clock_hz)
{
	br_counter_mmio(out, br_counter_kind_names[BR_COUNTER_KIND_TIM2], STM32F4_TIM2_CNT,
	                COUNTER_FULL_WIDTH, false, clock_hz);
	if (clock_hz == 0) {
		out->unit = "instructions (QEMU icount)";
		out->max_rate_hz = BR_COUNTER_QEMU_MAX_IPS;
	}
	counter_enable_add(out, STM32F4_RCC_APB1ENR, STM32F4_RCC_APB1ENR_TIM2EN,
	                   STM32F4_RCC_APB1ENR_TIM2EN);
	counter_enable_add(out, STM32F4_TIM2_CR1, STM32F4_TIM_CR1_CEN, STM32F4_TIM_CR1_CEN);
	counter_enable_add(out, STM32F4_DBGMCU_APB1_FZ, STM32F4_DBG_TIM2_STOP,
	                   STM32F4_DBG_TIM2_STOP);
}

void br_counter_dwt(br_counter_t *out, uint64_t clock_hz, bool unlock)
{
	br_counter_mmio(out, br_counter_kind_names[BR_COUNTER_KIND_DWT], BR_DWT_CYCCNT,
	                COUNTER_FULL_WIDTH, false, clock_hz);
	out->kind = BR_COUNTER_DWT;
	out->unit = "cycles";
	counter_enable_add(out, BR_DEMCR, BR_DEMCR_TRCENA, BR_DEMCR_TRCENA);
	if (unlock)
		counter_enable_add(out, BR_DWT_LAR, ARM_ALL_BITS, BR_DWT_LAR_KEY);
	counter_enable_add(out, BR_DWT_CTRL, BR_DWT_CTRL_CYCCNTENA, BR_DWT_CTRL_CYCCNTENA);
	out->running_address = BR_DWT_CTRL;
	out->running_mask = BR_DWT_CTRL_CYCCNTENA;
	out->absent_mask = BR_DWT_CTRL_NOCYCCNT;
	out->absent_text = "DWT_CTRL.NOCYCCNT is set: this core's DWT has no cycle counter (a "
	                   "Cortex-M0, M0+ or M23, or a part built without it); name counter "
	                   "systick, or a timer of the chip, in the board file";
}

void br_counter_systick(br_counter_t *out, uint64_t clock_hz)
{
	br_counter_mmio(out, br_counter_kind_names[BR_COUNTER_KIND_SYSTICK], BR_SYST_CVR,
	                COUNTER_SYSTICK_WIDTH, true, clock_hz);
	out->kind = BR_COUNTER_SYSTICK;
	out->unit = "cycles";
	counter_enable_add(out, BR_SYST_RVR, BR_SYST_RVR_RELOAD_MASK, BR_SYST_RVR_RELOAD_MASK);
	counter_enable_add(out, BR_SYST_CVR, BR_SYST_RVR_RELOAD_MASK, 0U);
	counter_enable_add(out, BR_SYST_CSR, BR_SYST_CSR_ENABLE | BR_SYST_CSR_CLKSOURCE,
	                   BR_SYST_CSR_ENABLE | BR_SYST_CSR_CLKSOURCE);
	out->running_address = BR_SYST_CSR;
	out->running_mask = BR_SYST_CSR_ENABLE;
	out->reload_address = BR_SYST_RVR;
}

static br_counter_t qemu_tim2;

const br_counter_t *br_counter_qemu_tim2(void)
{
	if (qemu_tim2.name == NULL)
		br_counter_tim2(&qemu_tim2, 0);
	return &qemu_tim2;
}
