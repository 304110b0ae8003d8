/* Unit test of results/baseline_policy (issue 31, ND1): a bench the run did
 * not measure keeps its old baseline entry; a measured one replaces it; one
 * with no old entry stays not measured and is counted. */
#include <string.h>

#include "check.h"
#include "results/baseline_policy.h"

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
	br_run_record_free(&run);
	br_run_record_free(&old);
	return check_finish();
}
