/* empty: the baseline bench — the loop with nothing in it. */
#include "benches.h"

void bench_empty(br_run_t *run)
{
	BR_BENCH_LOOP(run) {
	}
}
