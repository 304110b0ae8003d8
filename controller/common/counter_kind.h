/*
 * The kinds of counter a bench is timed by, declared once, here, for the
 * board files (config/board.c: counter: kind:), the command line (`measure
 * --counter`, measure/counter_spec.c) and the counters themselves
 * (measure/counter.c): each X(ID, name) row names one; parsers, help texts
 * and the "expected one of" of errors are made from this list
 * (tests/style/check_closed_sets.py fails on a name written elsewhere).
 */
#ifndef BENCHRACK_COMMON_COUNTER_KIND_H
#define BENCHRACK_COMMON_COUNTER_KIND_H

#include <stdbool.h>

/* DWT_CYCCNT at the core clock; SysTick at the core clock; STM32 TIM2 (on
 * QEMU: one tick per instruction); any memory-mapped counter register;
 * QEMU's own instruction count (record mode): exact. */
#define BR_COUNTER_KIND_LIST(X)                                                                    \
	X(DWT, "dwt")                                                                              \
	X(SYSTICK, "systick")                                                                      \
	X(TIM2, "tim2")                                                                            \
	X(MMIO, "mmio")                                                                            \
	X(ICOUNT, "icount")

#define BR_COUNTER_KIND_ENUM_ROW(id, name) BR_COUNTER_KIND_##id,
typedef enum br_counter_kind_id {
	BR_COUNTER_KIND_LIST(BR_COUNTER_KIND_ENUM_ROW) BR_COUNTER_KIND_COUNT
} br_counter_kind_id_t;
#undef BR_COUNTER_KIND_ENUM_ROW

/* The names in br_counter_kind_id_t order, NULL-terminated (a config
 * schema's enum names). */
extern const char *const br_counter_kind_names[BR_COUNTER_KIND_COUNT + 1];

/* "dwt, systick, tim2, mmio, icount": for help texts and messages. */
const char *br_counter_kind_list(void);

/* The kind called name into *out; false when none is. */
bool br_counter_kind_find(const char *name, br_counter_kind_id_t *out);

#endif
