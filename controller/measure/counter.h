/*
 * A counter is data, not code (DESIGN.md, "Counters"): where it is, how wide,
 * which way it counts, and what one tick means. Everything that reads a
 * counter takes one of these; only the addresses differ between boards.
 */
#ifndef BENCHRACK_MEASURE_COUNTER_H
#define BENCHRACK_MEASURE_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

typedef enum br_counter_kind {
	BR_COUNTER_DWT,     /* DWT_CYCCNT: core cycles (not on QEMU, not on Cortex-M0) */
	BR_COUNTER_SYSTICK, /* SysTick current value: 24-bit, counts down */
	BR_COUNTER_MMIO,    /* any free-running memory-mapped up-counter */
} br_counter_kind_t;

typedef struct br_counter {
	br_counter_kind_t kind;
	const char *name;      /* "tim2", "dwt", ... */
	uint32_t address;      /* the register that holds the count */
	unsigned width_bits;   /* 32, or 24 for SysTick */
	bool counts_down;
	uint64_t clock_hz;     /* ticks per second; 0 when a tick is not a time (QEMU icount) */
	const char *unit;      /* "instructions (QEMU icount)", "cycles" */
} br_counter_t;

/* The mask of valid bits: 0xFFFFFFFF for 32 bits, 0x00FFFFFF for 24. */
uint32_t br_counter_mask(const br_counter_t *c);

/* Ticks from start to end, modulo the counter's width and in its direction. */
uint32_t br_counter_delta(const br_counter_t *c, uint32_t start, uint32_t end);

/*
 * Seconds until the counter wraps (2^width / clock_hz); 0 when clock_hz is
 * 0, meaning the wrap period is not a host time.
 */
double br_counter_wrap_seconds(const br_counter_t *c);

/*
 * TIM2 of the STM32F4 as QEMU emulates it under -icount shift=0: one tick per
 * guest instruction, from reset, with no configuration (DESIGN.md).
 */
const br_counter_t *br_counter_qemu_tim2(void);

#endif
