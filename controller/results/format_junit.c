/*
 * --format junit: the XML that CI systems (Jenkins, GitLab, GitHub actions
 * reporters) read: <testsuites> of one <testsuite> per board (name, tests,
 * failures, errors, skipped, time), one <testcase> per bench (name,
 * classname, time); a gate finding is a <failure message type>, a bench not
 * run is <skipped message>, a failed run is an <error> testcase.
 */
#include <string.h>

#include "common/escape.h"
#include "results/format.h"

/* Text or attribute content: common/escape.h's markup escape (entities,
 * control characters as visible \xNN, which XML 1.0 could not carry). */
static void xml_text(FILE *out, const char *s)
{
	br_escape_markup_write(out, s);
}

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	xml_text(out, value);
	fputc('"', out);
}

static void property(FILE *out, const char *name, const char *value)
{
	fputs("      <property", out);
	attr(out, "name", name);
	attr(out, "value", value);
	fputs("/>\n", out);
}

typedef struct junit_counts {
	size_t tests, failures, errors, skipped;
	double seconds;
} junit_counts_t;

static bool bench_failed(const br_report_t *r, const char *bench)
{
	for (size_t i = 0; r->gate != NULL && i < r->gate->count; i++) {
		const br_finding_t *f = &r->gate->findings[i];
		if (f->kind != BR_FINDING_NOT_RUN && strcmp(f->bench, bench) == 0)
			return true;
	}
	return false;
}

static junit_counts_t count_board(const br_report_t *r)
{
	junit_counts_t c = {0};
	const br_run_record_t *run = r->run;
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		c.tests++;
		c.seconds += b->wall_seconds;
		if (b->status != BR_BENCH_MEASURED)
			c.skipped++;
		else if (bench_failed(r, b->name))
			c.failures++;
	}
	if (run->sizes_known) {
		c.tests++;
		if (bench_failed(r, BR_DIFF_FIRMWARE))
			c.failures++;
	}
	if (run->status == BR_RECORD_FAILED) {
		c.tests++;
		c.errors++;
	}
	return c;
}

static void failures_of(FILE *out, const br_report_t *r, const char *bench)
{
	for (size_t i = 0; r->gate != NULL && i < r->gate->count; i++) {
		const br_finding_t *f = &r->gate->findings[i];
		if (f->kind == BR_FINDING_NOT_RUN || strcmp(f->bench, bench) != 0)
			continue;
		fputs("      <failure", out);
		attr(out, "message", f->message);
		attr(out, "type", br_finding_kind_name(f->kind));
		fputc('>', out);
		xml_text(out, f->message);
		fputs("</failure>\n", out);
	}
}

static void bench_case(FILE *out, const br_report_t *r, const char *classname,
                       const br_bench_record_t *b)
{
	fputs("    <testcase", out);
	attr(out, "name", b->name);
	attr(out, "classname", classname);
	fprintf(out, " time=\"%.3f\">\n", b->wall_seconds);
	if (b->status != BR_BENCH_MEASURED) {
		char msg[BR_RECORD_TEXT + 16];
		snprintf(msg, sizeof(msg), "not run: %s", b->reason);
		fputs("      <skipped", out);
		attr(out, "message", msg);
		fputs("/>\n", out);
	} else {
		failures_of(out, r, b->name);
		char metric[32], med[32], p10[32], p90[32];
		br_metric_name(BR_METRIC_COUNT, r->run->unit, metric, sizeof(metric));
		br_report_figure(b->summary.median, med, sizeof(med));
		br_report_figure(b->summary.p10, p10, sizeof(p10));
		br_report_figure(b->summary.p90, p90, sizeof(p90));
		char text[512];
		char stack[32], heap[32];
		if (b->stack_measured)
			snprintf(stack, sizeof(stack), "%u bytes", b->stack_bytes);
		else
			snprintf(stack, sizeof(stack), "not measured");
		if (b->heap_known)
			snprintf(heap, sizeof(heap), "%u bytes", b->heap_peak);
		else
			snprintf(heap, sizeof(heap), "not known");
		snprintf(text, sizeof(text),
		         "%s median %s (p10 %s, p90 %s, n %zu) %s; stack %s; heap peak %s", metric,
		         med, p10, p90, b->n, r->run->unit, stack, heap);
		fputs("      <system-out>", out);
		xml_text(out, text);
		fputs("</system-out>\n", out);
	}
	fputs("    </testcase>\n", out);
}

static void board_suite(FILE *out, const br_report_t *r)
{
	const br_run_record_t *run = r->run;
	char classname[2 * BR_RECORD_NAME + 16];
	snprintf(classname, sizeof(classname), "benchrack.%s.%s",
	         run->suite[0] != '\0' ? run->suite : "run", run->board);
	junit_counts_t c = count_board(r);
	fputs("  <testsuite", out);
	attr(out, "name", classname);
	fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\"",
	        c.tests, c.failures, c.errors, c.skipped, c.seconds);
	attr(out, "timestamp", run->timestamp);
	attr(out, "hostname", run->host);
	fputs(">\n    <properties>\n", out);
	property(out, "board", run->board);
	property(out, "server", run->server);
	property(out, "counter", run->counter);
	property(out, "unit", run->unit);
	property(out, "firmware", run->elf_path);
	property(out, "build_id", run->build_id);
	property(out, "git_commit", run->git_commit);
	property(out, "benchrack_version", run->benchrack_version);
	fputs("    </properties>\n", out);
	for (size_t i = 0; i < run->bench_count; i++)
		bench_case(out, r, classname, &run->benches[i]);
	if (run->sizes_known) {
		fputs("    <testcase", out);
		attr(out, "name", BR_DIFF_FIRMWARE);
		attr(out, "classname", classname);
		fputs(" time=\"0.000\">\n", out);
		failures_of(out, r, BR_DIFF_FIRMWARE);
		fprintf(out,
		        "      <system-out>text %llu bytes, data %llu bytes, bss %llu bytes"
		        "</system-out>\n    </testcase>\n",
		        (unsigned long long)run->text_bytes, (unsigned long long)run->data_bytes,
		        (unsigned long long)run->bss_bytes);
	}
	if (run->status == BR_RECORD_FAILED) {
		fputs("    <testcase name=\"(run)\"", out);
		attr(out, "classname", classname);
		fputs(" time=\"0.000\">\n      <error", out);
		attr(out, "message", run->error);
		attr(out, "type", "infrastructure");
		fputc('>', out);
		xml_text(out, run->error);
		fputs("</error>\n    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

void br_format_junit_write(const br_report_t *reports, size_t count, FILE *out)
{
	junit_counts_t total = {0};
	for (size_t i = 0; i < count; i++) {
		junit_counts_t c = count_board(&reports[i]);
		total.tests += c.tests;
		total.failures += c.failures;
		total.errors += c.errors;
		total.skipped += c.skipped;
		total.seconds += c.seconds;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out,
	        "<testsuites name=\"benchrack\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
	        "skipped=\"%zu\" time=\"%.3f\">\n",
	        total.tests, total.failures, total.errors, total.skipped, total.seconds);
	for (size_t i = 0; i < count; i++)
		board_suite(out, &reports[i]);
	fputs("</testsuites>\n", out);
}
