#include "results/table.h"

#include <string.h>

#define TABLE_NUMBER_BYTES 32U

/* Integers print without decimals; a median between two samples keeps one. */
static void format_figure(double v, char *buf, size_t cap)
{
	if (v == (double)(long long)v)
		snprintf(buf, cap, "%lld", (long long)v);
	else
		snprintf(buf, cap, "%.1f", v);
}

void br_table_write(const br_run_record_t *run, FILE *out)
{
	int name_width = (int)strlen("bench");
	for (size_t i = 0; i < run->bench_count; i++) {
		int w = (int)strlen(run->benches[i].name);
		if (w > name_width)
			name_width = w;
	}
	fprintf(out, "board %s, counter %s, unit: %s\n", run->board, run->counter, run->unit);
	fprintf(out, "%-*s %6s %10s %10s %10s %10s %10s %8s  %s\n", name_width, "bench", "n",
		"median", "p10", "p90", "min", "max", "stack", "unit");
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		char med[TABLE_NUMBER_BYTES], p10[TABLE_NUMBER_BYTES], p90[TABLE_NUMBER_BYTES];
		char mn[TABLE_NUMBER_BYTES], mx[TABLE_NUMBER_BYTES], stack[TABLE_NUMBER_BYTES];
		format_figure(b->summary.median, med, sizeof(med));
		format_figure(b->summary.p10, p10, sizeof(p10));
		format_figure(b->summary.p90, p90, sizeof(p90));
		format_figure(b->summary.min, mn, sizeof(mn));
		format_figure(b->summary.max, mx, sizeof(mx));
		if (b->stack_measured)
			snprintf(stack, sizeof(stack), "%u", b->stack_bytes);
		else
			snprintf(stack, sizeof(stack), "n/m");
		fprintf(out, "%-*s %6zu %10s %10s %10s %10s %10s %8s  %s\n", name_width, b->name,
			b->summary.n, med, p10, p90, mn, mx, stack, run->unit);
	}
}
