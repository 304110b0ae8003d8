/*
 * Symbols defined by the generated linker script (stub/link.ld.in). They are
 * addresses, not variables: use them only as such.
 */
#ifndef BR_LINKER_SYMBOLS_H
#define BR_LINKER_SYMBOLS_H

#include <stdint.h>

/* .data: run address range in RAM and load address of its image in flash. */
extern uint32_t br_ld_data_start[];
extern uint32_t br_ld_data_end[];
extern const uint32_t br_ld_data_load[];

/* .bss: zeroed at reset. */
extern uint32_t br_ld_bss_start[];
extern uint32_t br_ld_bss_end[];

/* Stack region: br_ld_stack_limit (lowest byte) up to br_ld_stack_top (one
 * past the highest byte; the initial SP). */
extern uint8_t br_ld_stack_limit[];
extern uint8_t br_ld_stack_top[];

#endif
