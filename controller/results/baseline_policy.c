#include "results/baseline_policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* Appends name to the comma-separated list in kept (size bytes). */
static void kept_add(char *kept, size_t size, const char *name)
{
	size_t used = strlen(kept);
	size_t need = strlen(name) + (used > 0 ? 2U : 0U);
	if (used + need + 4U >= size) {
		if (used + 4U < size && strcmp(kept + (used >= 3 ? used - 3 : 0), "...") != 0)
			snprintf(kept + used, size - used, "...");
		return;
	}
	snprintf(kept + used, size - used, "%s%s", used > 0 ? ", " : "", name);
}

size_t br_baseline_policy_apply(const br_run_record_t *run, const br_run_record_t *old,
                                br_run_record_t *out, char *kept, size_t size, size_t *missing)
{
	*out = *run;
	out->kind = BR_RECORD_BASELINE;
	out->benches =
	    xcalloc(run->bench_count > 0 ? run->bench_count : 1U, sizeof(out->benches[0]));
	size_t n_kept = 0;
	*missing = 0;
	if (size > 0)
		kept[0] = '\0';
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		const br_bench_record_t *prev = old != NULL && b->status != BR_BENCH_MEASURED
		                                    ? br_run_record_find(old, b->name)
		                                    : NULL;
		if (prev != NULL && prev->status == BR_BENCH_MEASURED) {
			out->benches[i] = *prev;
			n_kept++;
			if (size > 0)
				kept_add(kept, size, b->name);
		} else {
			out->benches[i] = *b;
			if (b->status != BR_BENCH_MEASURED)
				(*missing)++;
		}
	}
	return n_kept;
}

void br_baseline_policy_free(br_run_record_t *out)
{
	free(out->benches);
	out->benches = NULL;
	out->bench_count = 0;
}
