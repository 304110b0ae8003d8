#include "results/record.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

br_bench_record_t *br_run_record_add_bench(br_run_record_t *run)
{
	run->benches = xrealloc(run->benches, (run->bench_count + 1U) * sizeof(run->benches[0]));
	br_bench_record_t *b = &run->benches[run->bench_count++];
	memset(b, 0, sizeof(*b));
	return b;
}

void br_run_record_free(br_run_record_t *run)
{
	for (size_t i = 0; i < run->bench_count; i++)
		free(run->benches[i].samples);
	free(run->benches);
	run->benches = NULL;
	run->bench_count = 0;
}
