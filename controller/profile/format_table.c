/* The table a person reads (format.h). */
#include "profile/format.h"

#include <inttypes.h>
#include <stdlib.h>

#include "common/xalloc.h"

#define PERCENT 100.0

static const br_profile_t *sort_profile;
static const uint64_t *sort_self;
static const uint64_t *sort_total;

static int by_self(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (sort_self[x] != sort_self[y])
		return sort_self[x] > sort_self[y] ? -1 : 1;
	if (sort_total[x] != sort_total[y])
		return sort_total[x] > sort_total[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* k's share, with its standard error (error < 0: the binomial one of k). */
static void share(FILE *out, const br_profile_t *p, uint64_t k, double error)
{
	uint64_t n = p->counted;
	double pct = n > 0 ? PERCENT * (double)k / (double)n : 0.0;
	if (error < 0)
		error = br_profile_share_error(k, n);
	if (p->mode == BR_PROFILE_SAMPLED)
		fprintf(out, " %6.2f%% ±%5.2f", pct, PERCENT * error);
	else
		fprintf(out, " %7.3f%%", pct);
}

static void header(FILE *out, const br_profile_t *p)
{
	fprintf(out, "profile %s: %s\n", p->elf_path, p->region);
	fprintf(out, "  on %s\n", p->server);
	if (p->mode == BR_PROFILE_EXACT) {
		fprintf(out, "  exact: %" PRIu64 " instructions %s in %.2f s (%.0f/s)", p->counted,
		        p->exec_log ? "counted from QEMU's execution log" : "single-stepped",
		        p->seconds, p->seconds > 0 ? (double)p->counted / p->seconds : 0.0);
		if (p->counter_known)
			fprintf(out,
			        "; counter %s across them: %" PRIu64 " (%" PRIu64
			        " less the one step past the end)",
			        p->counter, p->counter_delta, p->counter_delta - 1U);
		fputc('\n', out);
		if (p->sleeps > 0)
			fprintf(out,
			        "  the core slept %" PRIu64 " times in the region (WFI/WFE): the "
			        "counts are of what ran, the time asleep is in none of them\n",
			        p->sleeps);
		return;
	}
	if (p->exec_log) {
		fprintf(out,
		        "  sampled from QEMU's execution log: %" PRIu64
		        " samples in %.2f s, %" PRIu64 " in the region, one per %" PRIu64
		        " instructions on average (intervals drawn uniformly)\n",
		        p->samples_taken, p->seconds, p->counted, p->interval);
		if (p->region_passes > 0)
			fprintf(out, "  the region: %" PRIu64 " passes ended\n", p->region_passes);
		fputs("  ±: the binomial standard error of each share in points; the samples "
		      "are\n     uniform draws over the instructions run, chains the exact call "
		      "stack\n",
		      out);
		return;
	}
	fprintf(out,
	        "  sampled: %" PRIu64 " samples in %.2f s (%.0f/s; asked %s), %" PRIu64
	        " in the region, %" PRIu64 " outside it, %" PRIu64 " lost (%" PRIu64
	        " below the stack read, %" PRIu64 " stops at the region's end)\n",
	        p->samples_taken, p->seconds,
	        p->seconds > 0 ? (double)p->samples_taken / p->seconds : 0.0,
	        p->rate_hz > 0 ? "a rate" : "as fast as the server allows", p->counted,
	        p->outside_region, p->samples_lost, p->lost_stack_not_read, p->lost_at_region_end);
	if (p->region_passes > 0)
		fprintf(out, "  the region: %" PRIu64 " passes sampled (only inside them)\n",
		        p->region_passes);
	if (p->sample_cost_known)
		fprintf(
		    out,
		    "  one sample (stop, reads, resume, unwinding) took %.0f us median, %.0f us "
		    "p90, %.0f us mean; %.2f writes to the server per sample\n",
		    p->sample_cost_median_s * 1e6, p->sample_cost_p90_s * 1e6,
		    p->sample_cost_mean_s * 1e6,
		    p->samples_taken > 0 ? (double)p->server_writes / (double)p->samples_taken
		                         : 0.0);
	if (p->pcsr)
		fputs(
		    "  flat: PCs read from DWT_PCSR while the core ran (never halted), no call "
		    "chains;\n  lost: reads of 0xFFFFFFFF (not sampled) or refused by the server\n",
		    out);
	else
		fprintf(out,
		        "  call chains: %" PRIu64 " ended in " BR_PROFILE_UNKNOWN_FRAME
		        " (unwinding failed); frames from CFI %" PRIu64 ", frame records %" PRIu64
		        ", LR %" PRIu64 ", exception frames crossed %" PRIu64 "\n",
		        p->unwind.failed_chains, p->unwind.cfi, p->unwind.frame_record,
		        p->unwind.link_register, p->unwind.exception);
	fputs("  ±: the standard error of each share in points, from the spread across 20 batches\n"
	      "     of consecutive samples (never below the binomial sqrt(p(1-p)/n)); lines:\n"
	      "     binomial\n"
	      "  shares are of the time the target ran, not of instructions\n",
	      out);
	if (!p->bias_known)
		fputs("  warning: this sampler's bias on this server is not known: halting "
		      "samples\n     on QEMU fall in the emulator's host time, where a call, a "
		      "return or a\n     breakpoint outweighs an instruction (measured: tens of "
		      "points off);\n     the ± above does not include it. On a QEMU benchrack "
		      "launches, drop\n     --no-exec-log\n",
		      out);
}

void br_profile_write_table(FILE *out, const br_profile_t *p)
{
	header(out, p);
	br_profile_frame_figures_t f;
	br_profile_frame_figures_compute(p, &f);
	const uint64_t *self = f.self, *total = f.total;
	size_t *order = xcalloc(p->nframes + 1U, sizeof(*order));
	for (size_t i = 0; i < p->nframes; i++)
		order[i] = i;
	sort_profile = p;
	sort_self = self;
	sort_total = total;
	qsort(order, p->nframes, sizeof(*order), by_self);
	const char *unit = p->mode == BR_PROFILE_EXACT ? "instructions" : "samples";
	fprintf(out, "%-32s %12s %*s %12s %*s  %s\n", "function", "self",
	        p->mode == BR_PROFILE_SAMPLED ? 15 : 8, "self%", "total",
	        p->mode == BR_PROFILE_SAMPLED ? 15 : 8, "total%", "unit");
	for (size_t k = 0; k < p->nframes; k++) {
		size_t i = order[k];
		if (total[i] == 0)
			continue;
		fprintf(out, "%-32s %12" PRIu64, p->frames[i].name, self[i]);
		share(out, p, self[i], f.self_err[i]);
		fprintf(out, " %12" PRIu64, total[i]);
		share(out, p, total[i], f.total_err[i]);
		fprintf(out, "  %s\n", unit);
	}
	if (p->nlines > 0)
		fputs("hottest lines (self):\n", out);
	for (size_t k = 0; k < p->nlines && k < BR_PROFILE_TABLE_LINES; k++) {
		const br_profile_line_t *l = &p->lines[k];
		fprintf(out, "  %12" PRIu64, l->count);
		share(out, p, l->count, -1.0);
		fprintf(out, "  %s:%u (%s)\n", l->file, l->line, p->frames[l->frame].name);
	}
	free(order);
	br_profile_frame_figures_free(&f);
}
