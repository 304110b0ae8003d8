/* Making the board's free-running counter count (counter.c). */
#ifndef BR_COUNTER_H
#define BR_COUNTER_H

/* Start the board's free-running counter; one definition per board kind,
 * chosen by the cross file's `counter` (stub/meson.build): counter_systick.c
 * starts SysTick; counter.c, below, TIM2.
 * TIM2 as a free-running up-counter: clock it (RCC_APB1ENR.TIM2EN) and
 * enable it (TIM2_CR1.CEN). Needed on a real STM32F4, harmless under QEMU,
 * where TIM2_CNT counts from reset. Never writes TIM2_ARR (its reset value
 * 0xFFFFFFFF is what a free-running counter needs) and never enables SysTick. */
void br_counter_enable(void);

#endif
