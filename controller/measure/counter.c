#include "measure/counter.h"

#include <stddef.h>

/* STM32F405 reference manual (RM0090) 18.4.10: TIMx_CNT at offset 0x24 of TIM2 (0x40000000). */
#define STM32F4_TIM2_CNT 0x40000024U
#define COUNTER_FULL_WIDTH 32U

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

double br_counter_wrap_seconds(const br_counter_t *c)
{
	if (c->clock_hz == 0)
		return 0.0;
	double span = (double)br_counter_mask(c) + 1.0;
	return span / (double)c->clock_hz;
}

static const br_counter_t qemu_tim2 = {
	.kind = BR_COUNTER_MMIO,
	.name = "tim2",
	.address = STM32F4_TIM2_CNT,
	.width_bits = COUNTER_FULL_WIDTH,
	.counts_down = false,
	.clock_hz = 0,
	.unit = "instructions (QEMU icount)",
};

const br_counter_t *br_counter_qemu_tim2(void)
{
	return &qemu_tim2;
}
