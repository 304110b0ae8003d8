/*
 * A counter on a target: making it count (the enable writes of its data,
 * through memory writes, when the firmware has not) and reading it. Whether
 * it really advances is checked by whoever runs code between two reads
 * (breakpoint_session.h, suite_run.h): "has a counter" is no evidence.
 */
#ifndef BENCHRACK_MEASURE_COUNTER_TARGET_H
#define BENCHRACK_MEASURE_COUNTER_TARGET_H

#include <stdint.h>

#include "common/error.h"
#include "measure/counter.h"
#include "debug/target.h"

/*
 * Prepares c on the halted target t and fills *state: unless the firmware
 * already runs it (c->running_*), applies c's enable writes in order, each
 * read-modify-write and only when its bits differ, and reads the running
 * register back: its absent bits set (DWT_CTRL.NOCYCCNT) is BR_ERR_USAGE
 * with c->absent_text, its running bits still clear (a locked DWT, debug
 * denied) BR_ERR_TARGET naming the register and its value; then reads the period
 * from c->reload_address when there is one (a reload of 0 leaves the full
 * width). On QEMU the writes to peripherals change nothing (DESIGN.md):
 * that is not an error here. Returns BR_OK or the target's error.
 */
br_status_t br_counter_start(br_target_t *t, const br_counter_t *c, br_counter_state_t *state,
                             br_error_t *err);

/* Reads the counter's current value (its valid bits) into *value: a memory
 * read, or for QEMU's icount its monitor command (BR_ERR_INFRA, through
 * br_counter_icount_refused, when QEMU is not in record mode). */
br_status_t br_counter_read(br_target_t *t, const br_counter_state_t *state, uint64_t *value,
                            br_error_t *err);

/* Fills err for an `info replay` answer (text) that holds no instruction
 * count: QEMU not in record mode (BR_ERR_INFRA, exit 3). */
br_status_t br_counter_icount_refused(const char *text, br_error_t *err);

/*
 * Fills err with the "not counting" error for state's counter (BR_ERR_TARGET,
 * exit 3): it did not advance while the core ran `what`, so no figure is
 * reported, and names the alternative (on QEMU, tim2). Returns the status.
 */
br_status_t br_counter_not_counting(const br_counter_state_t *state, const char *what,
                                    br_error_t *err);

#endif
