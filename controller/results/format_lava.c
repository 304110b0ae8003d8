/*
 * LAVA test-case lines (--format lava), one per bench and board, as the
 * lava-test-case helper takes them in a LAVA test definition:
 *
 *   lava-test-case NAME --result pass|fail --measurement VALUE --units UNIT
 *
 * NAME is <suite>.<board>.<bench> in [A-Za-z0-9._-] (anything else becomes
 * '_'), VALUE the median per iteration, UNIT the first word of the counter's
 * unit ("instructions", "cycles"). A bench with a gate finding fails; a bench
 * not run fails with no measurement; a run that stopped adds one
 * <suite>.<board> case that fails. A job runs these lines as commands.
 */
#include "results/format.h"

#include <stdio.h>
#include <string.h>

#define LAVA_NAME_BYTES 192U
#define LAVA_UNIT_BYTES 64U

/* Keeps [A-Za-z0-9._-], turning anything else into '_'. */
static void lava_token(const char *in, char *out, size_t cap, bool first_word)
{
	size_t n = 0;
	for (; *in != '\0' && n + 1U < cap; in++) {
		char c = *in;
		if (first_word && c == ' ')
			break;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		out[n++] = ok ? c : '_';
	}
	if (n == 0 && cap > 1U)
		out[n++] = '_';
	out[n] = '\0';
}

static bool bench_failed(const br_report_t *r, const char *bench)
{
	for (size_t k = 0; r->gate != NULL && k < r->gate->count; k++) {
		if (strcmp(r->gate->findings[k].bench, bench) == 0)
			return true;
	}
	return false;
}

void br_format_lava_write(const br_report_t *reports, size_t count, FILE *out)
{
	for (size_t i = 0; i < count; i++) {
		const br_run_record_t *run = reports[i].run;
		char prefix[LAVA_NAME_BYTES], raw[LAVA_NAME_BYTES], unit[LAVA_UNIT_BYTES];
		snprintf(raw, sizeof(raw), "%s.%s", run->suite[0] != '\0' ? run->suite : "run",
		         run->board);
		lava_token(raw, prefix, sizeof(prefix), false);
		lava_token(run->unit, unit, sizeof(unit), true);
		for (size_t b = 0; b < run->bench_count; b++) {
			const br_bench_record_t *br = &run->benches[b];
			char name[LAVA_NAME_BYTES + BR_RECORD_NAME + 2U], bench[BR_RECORD_NAME];
			lava_token(br->name, bench, sizeof(bench), false);
			snprintf(name, sizeof(name), "%s.%s", prefix, bench);
			if (br->status != BR_BENCH_MEASURED) {
				fprintf(out, "lava-test-case %s --result fail\n", name);
				continue;
			}
			char value[64];
			br_report_figure(br->summary.median, value, sizeof(value));
			fprintf(out, "lava-test-case %s --result %s --measurement %s --units %s\n",
			        name, bench_failed(&reports[i], br->name) ? "fail" : "pass", value,
			        unit);
		}
		if (run->status == BR_RECORD_FAILED)
			fprintf(out, "lava-test-case %s --result fail\n", prefix);
	}
}
