/*
 * The runner: serves the host's requests forever, stopping at br_host_sync()
 * between them (the protocol is described in benchrack/control_block.h).
 */
#include "runner.h"

#include <stdint.h>

#include "benchrack/suite.h"
#include "counter.h"
#include "host_sync.h"
#include "main.h"
#include "stack.h"

/* The runner's steps are not inlined into each other: inlined, GCC threads the
 * checks' outcomes into copies of the result stores along every path, and the
 * stub outgrows its size budget (tests/firmware/size.py). */
#define BR_RUNNER_STEP __attribute__((noinline, noclone))

/* The request and result areas (control_block.h), in .bss: request.seq ==
 * result.seq == 0 means "idle". The constant part, br_control_block, is the
 * firmware's (BR_SUITE_COUNT_DEFINE), in flash. */
br_control_state_t br_control_state;

/* BR_CB_STATUS_OK if request can be served by the suite and buffer cb describes,
 * else the reason it cannot; of several reasons, the first in enum
 * br_cb_status order. Written as overriding assignments, checked from the last
 * reason to the first, because that compiles to a few conditional moves. */
static BR_RUNNER_STEP uint32_t br_runner_request_check(const br_request_t *request,
                                                       const br_control_block_t *cb)
{
	uint32_t status = BR_CB_STATUS_OK;

	if (request->counter_address == 0U)
		status = BR_CB_STATUS_NO_COUNTER;
	if (request->iterations == 0U || request->iterations > cb->max_samples)
		status = BR_CB_STATUS_BAD_COUNT;
	if (request->bench_index >= cb->bench_count)
		status = BR_CB_STATUS_BAD_BENCH;
	return status;
}

/*
 * Serve request into result: check it, run the bench if it is valid, and fill
 * result, its seq last. The heap figures are counted in the result area itself
 * (heap.c), hence zeroed before the bench runs. The request is read straight
 * from the block: the host writes it only while the stub is stopped in
 * br_host_sync(), which the compiler must assume changes all memory.
 */
static BR_RUNNER_STEP void br_runner_request_serve(const br_request_t *request, br_result_t *result)
{
	const uint32_t status = br_runner_request_check(request, &br_control_block);
	uint32_t stack_bytes = BR_CB_NOT_MEASURED;
	uint32_t count = 0U;

	result->heap_peak = 0U;
	result->heap_live = 0U;
	result->heap_allocs = 0U;
	if (status == BR_CB_STATUS_OK) {
		br_run_t run;

		run.request = request;
		run.samples = br_ld_samples;
		stack_bytes = br_stack_measure(br_suite[request->bench_index].fn, &run);
		count = request->iterations;
	}
	result->count = count;
	result->stack_bytes = stack_bytes;
	result->status = status;
	result->bench_index = request->bench_index;
	result->seq = request->seq;
}

/* The stub image's main (main.h): serve host requests forever. */
_Noreturn void br_main(void)
{
	br_counter_enable();
	for (;;) {
		if (br_control_state.request.seq != br_control_state.result.seq)
			br_runner_request_serve(&br_control_state.request,
			                        &br_control_state.result);
		br_host_sync();
	}
}
