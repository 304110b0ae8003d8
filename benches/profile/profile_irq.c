/*
 * An interrupt handler interrupting a loop (see profile.h). The stub's vector
 * table stops at SysTick, so this image installs its own through VTOR
 * (ARMv7-M ARM B3.2.5), with the handler at entry 16 + PROFILE_IRQ_NUMBER,
 * enables the interrupt (NVIC_ISER, B3.4.4) and pends it from the loop
 * (NVIC_ISPR, B3.4.6).
 */
#include "benchrack/debug_regs.h"
#include "main.h"
#include "profile.h"

#define SCB_VTOR (*(volatile uint32_t *)BR_SCB_VTOR)
#define NVIC_ISER0 (*(volatile uint32_t *)BR_NVIC_ISER0)
#define NVIC_ISPR0 (*(volatile uint32_t *)BR_NVIC_ISPR0)
/* Exceptions 0..15 are the core's; external interrupt n is exception 16 + n. */
#define PROFILE_FIRST_IRQ_VECTOR 16U
#define PROFILE_VECTORS (PROFILE_FIRST_IRQ_VECTOR + PROFILE_IRQ_NUMBER + 1U)

volatile uint32_t profile_sink;

/* From the stub's start-up code (stub/src/startup.c). */
extern const uint32_t br_vectors[];
void br_default_handler(void);

/* VTOR needs the table aligned to its size rounded up to a power of two, at
 * least 128 bytes (B3.2.5): 20 entries fit in 128. Filled at start-up, in RAM. */
static uint32_t profile_vectors[PROFILE_VECTORS] __attribute__((aligned(128)));

__attribute__((noipa)) void profile_irq_handler(void)
{
	profile_spin(PROFILE_IRQ_WORK);
}

__attribute__((noipa)) void profile_irq_loop(void)
{
	for (;;) {
		profile_spin(PROFILE_IRQ_EVERY);
		NVIC_ISPR0 = 1U << PROFILE_IRQ_NUMBER;
	}
}

_Noreturn void br_main(void)
{
	for (uint32_t i = 0U; i < PROFILE_FIRST_IRQ_VECTOR; i++)
		profile_vectors[i] = br_vectors[i];
	for (uint32_t i = PROFILE_FIRST_IRQ_VECTOR; i < PROFILE_VECTORS; i++)
		profile_vectors[i] = (uint32_t)(uintptr_t)&br_default_handler;
	profile_vectors[PROFILE_FIRST_IRQ_VECTOR + PROFILE_IRQ_NUMBER] =
	    (uint32_t)(uintptr_t)&profile_irq_handler;
	SCB_VTOR = (uint32_t)(uintptr_t)profile_vectors;
	NVIC_ISER0 = 1U << PROFILE_IRQ_NUMBER;
	profile_irq_loop();
	for (;;) {
	}
}
