/*
 * The checks every figure passes before it is kept, applied here once for
 * suites and breakpoint entries alike (DESIGN.md, "Counters"): the counter
 * must have advanced ("has a counter" is no evidence: QEMU's DWT reads 0),
 * and a batch whose host time could hide a wrap is not measured.
 */
#ifndef BENCHRACK_RUN_RUN_CHECKS_H
#define BENCHRACK_RUN_RUN_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "debug/core_state.h"
#include "debug/target.h"
#include "measure/counter.h"
#include "measure/stub_batch.h"
#include "run/runner.h"

/* True when any of the n samples is not zero. */
bool br_run_any_counted(const uint32_t *samples, size_t n);

/*
 * BR_OK when the counter advanced (counted) or nothing was sampled (n == 0);
 * else the "not counting" error (BR_ERR_TARGET, exit 3) for state's counter,
 * saying it did not advance while `what` ran. Judged over a whole run, not
 * per bench: on a slow clock (SysTick at 25 MHz under QEMU's icount) a
 * one-instruction bench legitimately measures 0 ticks every time.
 */
br_status_t br_run_check_counting(const br_counter_state_t *state, bool counted, size_t n,
                                  const char *what, br_error_t *err);

/*
 * The batch check of measure/wrap.h on a stub bench's samples: with guard
 * reads (r->guarded) their exact total (br_wrap_guarded_check), otherwise the
 * host time around them (br_wrap_batch_check). Sets measured[i] (all true or
 * all false) and returns how many are not measured.
 */
size_t br_run_check_wrap(const br_counter_state_t *state, const br_stub_result_t *r,
                         bool *measured);

/* Why br_run_check_wrap found r's samples not measured, in one line. */
void br_run_wrap_reason(const br_counter_state_t *state, const br_stub_result_t *r, char *buf,
                        size_t cap);

/* How long a board that still answers takes to stop on an interrupt. */
#define BR_RUN_HALT_PROBE_MS 2000

/*
 * After a wait on t timed out (err says for what, BR_ERR_TIMEOUT): asks
 * whether the server still answers — the 0x03 interrupt stops the core and
 * its registers read. Answered: BR_OK, *state what the core was doing (PC,
 * xPSR, the fault status when in a fault handler), err untouched (the target
 * ran and the firmware did not get there). Unanswered: the server is at
 * fault, not the firmware: BR_ERR_INFRA, err replaced by "the server stopped
 * answering while the target ran: ...". A session that broke since the wait
 * (a cleanup's interrupt unanswered) counts as unanswered.
 */
br_status_t br_run_probe_after_timeout(br_target_t *t, br_core_state_t *state, br_error_t *err);

/*
 * Where the core was, for a message: "PC 0x08000068 (HardFault_Handler), in
 * an exception handler: IPSR 3 (HardFault); HFSR 0x40000000: FORCED; CFSR
 * 0x00010000: UNDEFINSTR", the PC named from the ELF at elf_path (NULL: by
 * address only), into buf.
 */
void br_run_core_text(const char *elf_path, const br_core_state_t *state, char *buf, size_t cap);

/*
 * After a wait on r's target timed out (err says for what): where the core
 * was, as a clause for a message, into core (cap bytes). Once the interrupt
 * stopped it (br_run_probe_after_timeout): "the core was at PC ..."
 * (br_run_core_text, the PC named from elf_path), BR_OK. A core that cannot
 * be stopped (br_runner_core_unstoppable: QEMU in record mode) is neither
 * interrupted nor waited for again: on a QEMU benchrack launched, BR_OK and
 * BR_COUNTER_UNINTERRUPTIBLE_TEXT (br_runner_close stops that QEMU, the next
 * runner launches another); on one it did not launch, BR_ERR_INFRA, err (its
 * words kept, when err is a failure) saying that QEMU runs on with the
 * breakpoints in place and naming record mode and --timeout (timeout_ms).
 * A server that answered no interrupt: BR_ERR_INFRA, as the probe says.
 */
br_status_t br_run_core_after_timeout(br_runner_t *r, const char *elf_path, int timeout_ms,
                                      char *core, size_t cap, br_error_t *err);

/*
 * After `what` (a bench, an entry, a region) did not finish within
 * timeout_ms on r's target (err says so, BR_ERR_TIMEOUT): asks where the
 * core was (br_run_core_after_timeout). Known, or unknown on a QEMU
 * benchrack launched in record mode: BR_ERR_TIMEOUT (exit 3, README's
 * table: a breakpoint that never hit), err saying "WHAT did not finish
 * within N s: the core was at PC ... (SYMBOL)[, in an exception handler:
 * ...] (what the wait said)". When starved is not NULL (the host did not run
 * the board for most of the wait, saying how much it did), BR_ERR_INFRA
 * saying so: an overloaded host, not the firmware. Otherwise the server
 * stopped answering, or is a QEMU in record mode benchrack did not launch
 * (BR_ERR_INFRA).
 */
br_status_t br_run_classify_timeout(br_runner_t *r, const char *elf_path, const char *what,
                                    int timeout_ms, const char *starved, br_error_t *err);

#endif
