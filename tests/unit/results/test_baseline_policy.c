/* Unit test of results/baseline_policy (issue 31, ND1): a bench the run did
 * not measure keeps its old baseline entry; a measured one replaces it; one
 * with no old entry stays not measured and is counted. A noisy figure's runs
 * accumulate (issue 24): the old entry's (or its own one), then the run's,
 * each with its build, at most BR_STATS_RUNS_MAX; exact figures keep none. */
#include <string.h>

#include "check.h"
#include "results/baseline_policy.h"
#include "stats/run_shift.h"

static br_bench_record_t *bench(br_run_record_t *r, const char *name, br_bench_status_t st,
                                double median)
{
	br_bench_record_t *b = br_run_record_add_bench(r);
	snprintf(b->name, sizeof(b->name), "%s", name);
	b->status = st;
	b->summary.median = median;
	return b;
}

int main(void)
{
	br_run_record_t old, run, out;
	memset(&old, 0, sizeof(old));
	memset(&run, 0, sizeof(run));
	bench(&old, "crc", BR_BENCH_MEASURED, 100.0);
	bench(&old, "sort", BR_BENCH_MEASURED, 200.0);
	bench(&old, "gone", BR_BENCH_NOT_RUN, 0.0);
	bench(&run, "crc", BR_BENCH_NOT_RUN, 0.0);
	bench(&run, "sort", BR_BENCH_MEASURED, 190.0);
	bench(&run, "gone", BR_BENCH_NOT_RUN, 0.0);
	bench(&run, "new", BR_BENCH_NOT_RUN, 0.0);
	char kept[64];
	size_t missing = 99;
	size_t n = br_baseline_policy_apply(&run, &old, &out, kept, sizeof(kept), &missing);
	CHECK(n == 1);
	CHECK(strcmp(kept, "crc") == 0);
	CHECK(missing == 2); /* gone (old not measured either) and new */
	CHECK(out.kind == BR_RECORD_BASELINE && out.bench_count == 4);
	CHECK(out.benches[0].status == BR_BENCH_MEASURED && out.benches[0].summary.median == 100.0);
	CHECK(out.benches[1].status == BR_BENCH_MEASURED && out.benches[1].summary.median == 190.0);
	CHECK(out.benches[2].status == BR_BENCH_NOT_RUN);
	CHECK(out.benches[3].status == BR_BENCH_NOT_RUN);
	CHECK(run.benches[0].status == BR_BENCH_NOT_RUN); /* the run's record is untouched */
	br_baseline_policy_free(&out);

	/* no old baseline: the run as it is */
	n = br_baseline_policy_apply(&run, NULL, &out, kept, sizeof(kept), &missing);
	CHECK(n == 0 && kept[0] == '\0' && missing == 3);
	br_baseline_policy_free(&out);

	/* a long list is cut with "...", never overflows */
	br_run_record_t many_old, many;
	memset(&many_old, 0, sizeof(many_old));
	memset(&many, 0, sizeof(many));
	for (int i = 0; i < 20; i++) {
		char name[16];
		snprintf(name, sizeof(name), "bench_%02d", i);
		bench(&many_old, name, BR_BENCH_MEASURED, 1.0);
		bench(&many, name, BR_BENCH_NOT_RUN, 0.0);
	}
	char small[40];
	n = br_baseline_policy_apply(&many, &many_old, &out, small, sizeof(small), &missing);
	CHECK(n == 20 && strlen(small) < sizeof(small) && strstr(small, "...") != NULL);
	br_baseline_policy_free(&out);
	br_run_record_free(&many);
	br_run_record_free(&many_old);

	/* runs: old crc holds none (its own one counts), the run measures it */
	br_run_record_t r1, r2;
	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	snprintf(r1.unit, sizeof(r1.unit), "ns (CLOCK_MONOTONIC_RAW)");
	snprintf(r1.sha256, sizeof(r1.sha256), "aaaa");
	snprintf(r1.elf_path, sizeof(r1.elf_path), "prog");
	r2 = r1;
	snprintf(r2.sha256, sizeof(r2.sha256), "bbbb");
	bench(&r1, "crc", BR_BENCH_MEASURED, 100.0);
	bench(&r2, "crc", BR_BENCH_MEASURED, 150.0);
	n = br_baseline_policy_apply(&r2, &r1, &out, kept, sizeof(kept), &missing);
	CHECK(out.benches[0].run_count == 2 && out.benches[0].runs[0].median == 100.0 &&
	      strcmp(out.benches[0].runs[0].build, "aaaa") == 0 &&
	      out.benches[0].runs[1].median == 150.0 &&
	      strcmp(out.benches[0].runs[1].build, "bbbb") == 0);
	/* 40 more: the latest BR_STATS_RUNS_MAX stay, the newest last */
	br_run_record_t acc = out;
	for (int i = 0; i < 40; i++) {
		r2.benches[0].summary.median = 200.0 + i;
		br_run_record_t next;
		br_baseline_policy_apply(&r2, &acc, &next, kept, sizeof(kept), &missing);
		br_baseline_policy_free(&acc);
		acc = next;
	}
	CHECK(acc.benches[0].run_count == BR_STATS_RUNS_MAX &&
	      acc.benches[0].runs[BR_STATS_RUNS_MAX - 1U].median == 239.0 &&
	      acc.benches[0].runs[0].median == 239.0 - (BR_STATS_RUNS_MAX - 1U));
	/* a bench not measured keeps the old entry's runs as they were */
	r1.benches[0].status = BR_BENCH_NOT_RUN;
	br_baseline_policy_apply(&r1, &acc, &out, kept, sizeof(kept), &missing);
	CHECK(out.benches[0].run_count == BR_STATS_RUNS_MAX &&
	      out.benches[0].runs[BR_STATS_RUNS_MAX - 1U].median == 239.0);
	br_baseline_policy_free(&out);
	br_baseline_policy_free(&acc);
	/* exact (QEMU's instruction count): no runs */
	snprintf(r2.unit, sizeof(r2.unit), "instructions (QEMU icount)");
	br_baseline_policy_apply(&r2, &r1, &out, kept, sizeof(kept), &missing);
	CHECK(out.benches[0].run_count == 0 && out.benches[0].runs == NULL);
	br_baseline_policy_free(&out);
	br_run_record_free(&r1);
	br_run_record_free(&r2);
	br_run_record_free(&run);
	br_run_record_free(&old);
	return check_finish();
}
