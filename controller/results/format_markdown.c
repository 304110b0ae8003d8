/* --format markdown: a GitHub-flavoured table per board, for a pull request comment. */
#include <string.h>

#include "common/escape.h"
#include "results/format.h"

#define MD_CELL 64U

/* A table cell: control characters escaped (common/escape.h), '|' escaped. */
static void md_cell(FILE *out, const char *text)
{
	fputs(" ", out);
	br_escape_table_cell_write(out, text);
	fputs(" |", out);
}

/* Running text: control characters escaped, Markdown's own characters
 * backslash-escaped, so a name shows as itself. */
static void md_text(FILE *out, const char *text)
{
	char s[BR_ESCAPE_BYTES(BR_ERROR_MESSAGE_BYTES)];
	br_escape_text(text, s, sizeof(s));
	for (const char *p = s; *p != '\0'; p++) {
		if (strchr("*_`[]<>|\\#", *p) != NULL)
			fputc('\\', out);
		fputc(*p, out);
	}
}

static void md_figure(FILE *out, double v)
{
	char buf[MD_CELL];
	br_report_figure(v, buf, sizeof(buf));
	md_cell(out, buf);
}

static void comparison_cells(FILE *out, const br_report_t *r, const char *bench)
{
	if (r->diff == NULL)
		return;
	const br_diff_row_t *d = br_report_diff_row(r, bench, BR_METRIC_COUNT);
	char pct[MD_CELL] = "-";
	if (d != NULL)
		br_diff_format_percent(d, pct, sizeof(pct));
	if (d != NULL && d->has_old)
		md_figure(out, d->old_value);
	else
		md_cell(out, "-");
	md_cell(out, pct);
	char words[BR_DIFF_WORDS_BYTES] = "-";
	if (d != NULL)
		br_diff_describe(d, words, sizeof(words));
	md_cell(out, words);
}

static void figures_table(FILE *out, const br_report_t *r)
{
	const br_run_record_t *run = r->run;
	fputs("| bench | n | median | p10 | p90 | min | max | stack bytes | heap peak bytes |",
	      out);
	if (r->diff != NULL)
		fputs(" baseline | change | verdict |", out);
	fputs("\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |", out);
	if (r->diff != NULL)
		fputs(" ---: | ---: | --- |", out);
	fputc('\n', out);
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		fputc('|', out);
		md_cell(out, b->name);
		if (b->status != BR_BENCH_MEASURED) {
			char msg[BR_RECORD_TEXT + 16];
			snprintf(msg, sizeof(msg), "not run: %s", b->reason);
			md_cell(out, msg);
			for (int k = 0; k < 7; k++)
				md_cell(out, "");
		} else {
			char n[MD_CELL];
			snprintf(n, sizeof(n), "%zu", b->n);
			md_cell(out, n);
			md_figure(out, b->summary.median);
			md_figure(out, b->summary.p10);
			md_figure(out, b->summary.p90);
			md_figure(out, b->summary.min);
			md_figure(out, b->summary.max);
			if (b->stack_measured)
				md_figure(out, b->stack_bytes);
			else
				md_cell(out, "not measured");
			if (b->heap_known)
				md_figure(out, b->heap_peak);
			else
				md_cell(out, "not known");
		}
		comparison_cells(out, r, b->name);
		fputc('\n', out);
	}
}

static void diff_table(FILE *out, const br_report_t *r)
{
	fputs("| bench | metric | old | new | change | verdict |\n"
	      "| --- | --- | ---: | ---: | ---: | --- |\n",
	      out);
	for (size_t i = 0; i < r->diff->count; i++) {
		const br_diff_row_t *d = &r->diff->rows[i];
		char pct[MD_CELL];
		br_diff_format_percent(d, pct, sizeof(pct));
		fputc('|', out);
		md_cell(out, d->bench);
		md_cell(out, d->metric_name);
		if (d->has_old)
			md_figure(out, d->old_value);
		else
			md_cell(out, "-");
		if (d->has_new)
			md_figure(out, d->new_value);
		else
			md_cell(out, "-");
		md_cell(out, pct);
		char words[BR_DIFF_WORDS_BYTES];
		br_diff_describe(d, words, sizeof(words));
		md_cell(out, words);
		fputc('\n', out);
	}
}

void br_format_markdown_write(const br_report_t *reports, size_t count, FILE *out)
{
	br_report_verdict_t verdict = br_report_verdict(reports, count);
	for (size_t i = 0; i < count; i++) {
		const br_report_t *r = &reports[i];
		const br_run_record_t *run = r->run;
		fputs("### benchrack: ", out);
		md_text(out, run->suite[0] != '\0' ? run->suite : "run");
		fputs(" on ", out);
		md_text(out, run->board);
		fputs("\n\nCounter ", out);
		md_text(out, run->counter);
		fputs(", unit: ", out);
		md_text(out, run->unit);
		fputs(". Firmware ", out);
		md_text(out, run->elf_path);
		if (run->build_id[0] != '\0') {
			fputs(" (build-id ", out);
			md_text(out, run->build_id);
			fputc(')', out);
		}
		fputs(".\n\n", out);
		if (run->status == BR_RECORD_FAILED) {
			fputs("**The run failed:** ", out);
			md_text(out, run->error);
			fputs("\n\n", out);
		}
		if (r->figures)
			figures_table(out, r);
		else if (r->diff != NULL)
			diff_table(out, r);
		fputc('\n', out);
		if (r->gate != NULL && r->gate->count > 0) {
			for (size_t k = 0; k < r->gate->count; k++) {
				const br_finding_t *f = &r->gate->findings[k];
				fprintf(out, "- **%s**: ", br_finding_kind_name(f->kind));
				md_text(out, f->message);
				fputc('\n', out);
			}
			fputc('\n', out);
		}
	}
	bool gated = false;
	for (size_t i = 0; i < count; i++)
		gated = gated || reports[i].gate != NULL;
	if (gated)
		fprintf(out, "**Gate: %s**\n", br_report_verdict_name(verdict));
}
