/*
 * The runner: publishes the suite in the control block, then serves the host's
 * requests forever, stopping at br_host_sync() between them (the protocol is
 * described in benchrack/control_block.h).
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

/* One counter delta per measured iteration; in .bss, apart from the block. */
static uint32_t br_samples[BR_CB_MAX_SAMPLES];

/* In .data, so that the host can check magic, version and size, and find the
 * sample buffer, in the ELF file before starting anything; request.seq ==
 * result.seq == 0 means "idle". The suite is published at start-up by
 * br_runner_publish. */
__attribute__((used)) br_control_block_t br_control_block = {
    .magic = BR_CB_MAGIC,
    .version = BR_CB_VERSION,
    .size = (uint32_t)sizeof(br_control_block_t),
    .max_samples = BR_CB_MAX_SAMPLES,
    .samples_address = (uint32_t)(uintptr_t)br_samples,
};

/* Fill cb's bench table and count from the suite, in suite order (its length
 * is checked against BR_CB_MAX_BENCHES at compile time, by
 * BR_SUITE_COUNT_DEFINE). Names longer than a slot are truncated; the slot's
 * padding is already NUL because the block is zero there and is published
 * once, after reset. */
static BR_RUNNER_STEP void br_runner_publish(br_control_block_t *cb)
{
	const uint32_t count = br_suite_count;
	uint32_t bench;

	for (bench = 0U; bench < count; bench++) {
		const char *name = br_suite[bench].name;
		uint32_t i;

		for (i = 0U; i < BR_CB_NAME_BYTES - 1U && name[i] != '\0'; i++)
			cb->bench_names[bench][i] = name[i];
	}
	cb->bench_count = count;
}

/* BR_CB_STATUS_OK if request can be served by a suite of bench_count benches,
 * else the reason it cannot; of several reasons, the first in enum
 * br_cb_status order. Written as overriding assignments, checked from the last
 * reason to the first, because that compiles to a few conditional moves. */
static BR_RUNNER_STEP uint32_t br_runner_request_check(const br_request_t *request,
                                                       uint32_t bench_count)
{
	uint32_t status = BR_CB_STATUS_OK;

	if (request->counter_address == 0U)
		status = BR_CB_STATUS_NO_COUNTER;
	if (request->iterations == 0U || request->iterations > BR_CB_MAX_SAMPLES)
		status = BR_CB_STATUS_BAD_COUNT;
	if (request->bench_index >= bench_count)
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
	const uint32_t status = br_runner_request_check(request, br_control_block.bench_count);
	uint32_t stack_bytes = BR_CB_NOT_MEASURED;
	uint32_t count = 0U;

	result->heap_peak = 0U;
	result->heap_live = 0U;
	result->heap_allocs = 0U;
	if (status == BR_CB_STATUS_OK) {
		br_run_t run;

		run.request = request;
		run.samples = br_samples;
		stack_bytes = br_stack_measure(br_suite[request->bench_index].fn, &run);
		count = request->iterations;
	}
	result->count = count;
	result->stack_bytes = stack_bytes;
	result->status = status;
	result->bench_index = request->bench_index;
	result->seq = request->seq;
}

/* The stub image's main (main.h): publish the suite in br_control_block, then
 * serve host requests forever. */
_Noreturn void br_main(void)
{
	br_counter_enable();
	br_runner_publish(&br_control_block);
	for (;;) {
		if (br_control_block.request.seq != br_control_block.result.seq)
			br_runner_request_serve(&br_control_block.request,
			                        &br_control_block.result);
		br_host_sync();
	}
}
