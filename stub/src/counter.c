/* The board's free-running counter: TIM2 on STM32F4 (see counter.h). */
#include "counter.h"

#include "stm32f4.h"

void br_counter_enable(void)
{
	RCC_APB1ENR |= RCC_APB1ENR_TIM2EN_MASK;
	/* STM32F40x errata sheet (ES0182), "Delay after an RCC peripheral clock
	 * enabling": read the register back before touching the peripheral. */
	(void)RCC_APB1ENR;
	/* CR1 resets to 0: up-counting, no one-pulse mode; only enable it. */
	TIM2_CR1 = TIM_CR1_CEN_MASK;
}
