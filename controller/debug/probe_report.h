/*
 * What `benchrack probe` finds on a connection, written to a stream the
 * caller names: the server and what it offers (PacketSize, no-ack mode,
 * target.xml, memory map, X and qCRC), the core (CPUID), whether
 * DWT_CYCCNT exists and advances, the FPB comparators and the memory map;
 * memory dumps; and the firmware run for a while with its output passed to
 * a callback. A failure to identify the core or read memory is returned,
 * never printed.
 */
#ifndef BENCHRACK_DEBUG_PROBE_REPORT_H
#define BENCHRACK_DEBUG_PROBE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "debug/endpoint.h"
#include "debug/target.h"

/* Writes the report of session s to out; board_hw_breakpoints is the
 * comparator count the board file says (0: none said). Returns the first
 * failure (no core, an unreadable register), the report so far written. */
br_status_t br_probe_report_write(br_session_t *s, unsigned board_hw_breakpoints, FILE *out,
                                  br_error_t *err);

/* Reads length bytes at address and writes them to out as hex, 16 a line,
 * each line led by its address. */
br_status_t br_probe_dump_write(br_target_t *t, uint32_t address, uint32_t length, FILE *out,
                                br_error_t *err);

/* How a firmware run by br_probe_run ended. */
typedef enum br_probe_run_end {
	BR_PROBE_RUN_DEADLINE, /* still running at the deadline (halted then, or left) */
	BR_PROBE_RUN_EXITED,   /* the program exited: exit_code */
	BR_PROBE_RUN_STOPPED,  /* it stopped by itself before the deadline, at pc */
} br_probe_run_end_t;

typedef struct br_probe_run_result {
	br_probe_run_end_t end;
	int exit_code;
	uint32_t pc;
} br_probe_run_result_t;

/*
 * Resumes t and passes what the firmware prints (console, semihosting) to
 * output until it stops, exits or run_ms pass; *result says which.
 */
br_status_t br_probe_run(br_target_t *t, long run_ms, br_target_output_fn output, void *output_ctx,
                         br_probe_run_result_t *result, br_error_t *err);

#endif
