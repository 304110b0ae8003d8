/*
 * STM32F4 registers the stub touches, from the STM32F405/415/407/417/427/437/
 * 429/439 reference manual (ST RM0090): section 2.3 "Memory map" for the base
 * addresses, 7.3.13 "RCC APB1 peripheral clock enable register (RCC_APB1ENR)",
 * and 18.4 "TIM2 to TIM5 registers" (TIMx_CR1 at offset 0x00, TIMx_CNT at
 * offset 0x24).
 *
 * Deliberately absent: TIMx_ARR and the SysTick registers. Writing either arms
 * a virtual timer in QEMU, and then every debugger stop adds host time to the
 * instruction count (DESIGN.md, "The emulated board").
 */
#ifndef BR_STM32F4_H
#define BR_STM32F4_H

#include <stdint.h>

#define MMIO32(address) (*(volatile uint32_t *)(address))

/* RM0090 2.3: RCC at 0x40023800 (AHB1), TIM2 at 0x40000000 (APB1). */
#define RCC_BASE 0x40023800U
#define TIM2_BASE 0x40000000U

/* RM0090 7.3.13: RCC_APB1ENR, offset 0x40, bit 0 TIM2EN. */
#define RCC_APB1ENR_OFFSET 0x40U
#define RCC_APB1ENR MMIO32(RCC_BASE + RCC_APB1ENR_OFFSET)
#define RCC_APB1ENR_TIM2EN_SHIFT 0U
#define RCC_APB1ENR_TIM2EN_MASK (0x1U << RCC_APB1ENR_TIM2EN_SHIFT)

/* RM0090 18.4.1: TIMx_CR1, offset 0x00, bit 0 CEN (counter enable). */
#define TIM_CR1_OFFSET 0x00U
#define TIM2_CR1 MMIO32(TIM2_BASE + TIM_CR1_OFFSET)
#define TIM_CR1_CEN_SHIFT 0U
#define TIM_CR1_CEN_MASK (0x1U << TIM_CR1_CEN_SHIFT)

/* RM0090 18.4.10: TIMx_CNT, offset 0x24; 32 bits wide on TIM2 and TIM5. The
 * host reads it through the request's counter_address; under QEMU
 * -icount shift=0 it advances exactly once per guest instruction. */
#define TIM_CNT_OFFSET 0x24U
#define TIM2_CNT_ADDRESS (TIM2_BASE + TIM_CNT_OFFSET)

#endif
