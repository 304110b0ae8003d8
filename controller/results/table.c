#include "results/table.h"

#include <string.h>

#include "common/escape.h"

#define TABLE_NUMBER_BYTES 32U
#define ANSI_RED "\033[31m"
#define ANSI_GREEN "\033[32m"
#define ANSI_YELLOW "\033[33m"
#define ANSI_BOLD "\033[1m"
#define ANSI_RESET "\033[0m"

/* Prints text padded to width (left-aligned when width < 0), in colour when given. */
static void cell(FILE *out, bool colour, const char *ansi, int width, const char *text)
{
	if (colour && ansi != NULL)
		fputs(ansi, out);
	fprintf(out, "%*s", width, text);
	if (colour && ansi != NULL)
		fputs(ANSI_RESET, out);
}

/* Colour only for what the gate decided: red for a row it failed. */
static const char *row_colour(const br_report_t *r, const br_diff_row_t *d)
{
	return br_report_has_finding(r, d->bench, d->metric_name) ? ANSI_RED : NULL;
}

/* Room for any name or text of a record once escaped (common/escape.h). */
typedef struct shown {
	char text[BR_ESCAPE_BYTES(BR_ERROR_MESSAGE_BYTES)];
} shown_t;

/* s as it may reach a terminal: control characters escaped. */
static const char *esc(shown_t *buf, const char *s)
{
	return br_escape_text(s, buf->text, sizeof(buf->text));
}

static int name_width(const br_run_record_t *run, const br_diff_t *diff)
{
	shown_t e;
	int w = (int)strlen("bench");
	for (size_t i = 0; i < run->bench_count; i++) {
		int n = (int)strlen(esc(&e, run->benches[i].name));
		if (n > w)
			w = n;
	}
	for (size_t i = 0; diff != NULL && i < diff->count; i++) {
		int n = (int)strlen(esc(&e, diff->rows[i].bench));
		if (n > w)
			w = n;
	}
	return w;
}

/* "peak/live" bytes, "LEAK <live>" when the bench ended holding memory, "-" when not known. */
static void heap_cell(const br_bench_record_t *b, char *buf, size_t cap)
{
	if (!b->heap_known)
		snprintf(buf, cap, "-");
	else if (b->heap_live != 0U)
		snprintf(buf, cap, "LEAK %u", b->heap_live);
	else
		snprintf(buf, cap, "%u/%u", b->heap_peak, b->heap_live);
}

#define TABLE_BELOW_RESOLUTION "< resolution"

/* A figure of run's counter: "< resolution" below the counter's resolution
 * (a clock finer in its unit than can be observed), never a number there. */
static void figure_cell(const br_run_record_t *run, double v, char *buf, size_t cap)
{
	if (run->resolution > 0 && v < run->resolution)
		snprintf(buf, cap, TABLE_BELOW_RESOLUTION);
	else
		br_report_figure(v, buf, cap);
}

/* The median net of calibration; "-" when the bench was not calibrated, and
 * "not measured" when the median lies below the calibration (it does not
 * apply to it): never a negative figure. */
static void net_cell(const br_run_record_t *run, const br_bench_record_t *b, char *buf, size_t cap)
{
	if (b->calibrated && b->summary.median < b->calibration_median)
		snprintf(buf, cap, "not measured");
	else if (b->calibrated)
		figure_cell(run, b->summary.median - b->calibration_median, buf, cap);
	else
		snprintf(buf, cap, "-");
}

/* The bench with the most other counters (their names head the columns). */
static const br_bench_record_t *counter_columns(const br_run_record_t *run)
{
	const br_bench_record_t *most = NULL;
	for (size_t i = 0; i < run->bench_count; i++) {
		if (most == NULL || run->benches[i].counter_count > most->counter_count)
			most = &run->benches[i];
	}
	return most != NULL && most->counter_count > 0 ? most : NULL;
}

/* The medians of the other counters, in the columns' order ("-" where a
 * bench lacks one). */
static void counter_cells(const br_bench_record_t *columns, const br_bench_record_t *b, FILE *out)
{
	for (size_t c = 0; columns != NULL && c < columns->counter_count; c++) {
		char v[TABLE_NUMBER_BYTES] = "-";
		for (size_t k = 0; k < b->counter_count; k++) {
			if (strcmp(b->counters[k].name, columns->counters[c].name) == 0)
				br_report_figure(b->counters[k].summary.median, v, sizeof(v));
		}
		fprintf(out, " %12s", v);
	}
}

/* Whether bench i of run is the first with its own firmware at that path. */
static bool firmware_first(const br_run_record_t *run, size_t i)
{
	for (size_t k = 0; k < i; k++) {
		if (run->benches[k].has_firmware && strcmp(run->benches[k].firmware.elf_path,
		                                           run->benches[i].firmware.elf_path) == 0)
			return false;
	}
	return true;
}

/* One line per firmware the entries measured: its path, what names it and
 * its sizes, and which benches ran on it (a suite that mixes firmwares shows
 * each). */
static void entry_firmware(const br_run_record_t *run, FILE *out)
{
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_firmware_info_t *fw = &run->benches[i].firmware;
		if (!run->benches[i].has_firmware || !firmware_first(run, i))
			continue;
		shown_t e;
		fprintf(out, "firmware %s: ", esc(&e, fw->elf_path));
		if (fw->build_id[0] != '\0')
			fprintf(out, "build-id %.16s", fw->build_id);
		else
			fprintf(out, "sha256 %.16s", fw->sha256);
		if (fw->sizes_known)
			fprintf(out, ", text %llu, data %llu, bss %llu bytes",
			        (unsigned long long)fw->text_bytes,
			        (unsigned long long)fw->data_bytes,
			        (unsigned long long)fw->bss_bytes);
		const char *sep = " (";
		for (size_t k = i; k < run->bench_count; k++) {
			if (run->benches[k].has_firmware &&
			    strcmp(run->benches[k].firmware.elf_path, fw->elf_path) == 0) {
				fprintf(out, "%s%s", sep, esc(&e, run->benches[k].name));
				sep = ", ";
			}
		}
		fprintf(out, ")\n");
	}
}

static void figures(const br_run_record_t *run, int width, bool colour, FILE *out)
{
	const int w = run->resolution > 0 ? (int)strlen(TABLE_BELOW_RESOLUTION) : 10;
	const br_bench_record_t *columns = counter_columns(run);
	fprintf(out, "%-*s %6s %*s %*s %*s %*s %*s %*s %8s %10s", width, "bench", "n", w, "median",
	        w, "p10", w, "p90", w, "min", w, "max", w, "net", "stack", "heap");
	for (size_t c = 0; columns != NULL && c < columns->counter_count; c++)
		fprintf(out, " %12s", columns->counters[c].name);
	fprintf(out, "  %s\n", "unit");
	const br_bench_record_t *calibration = NULL;
	shown_t e1, e2;
	for (size_t i = 0; i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		if (b->status != BR_BENCH_MEASURED) {
			fprintf(out, "%-*s ", width, esc(&e1, b->name));
			char msg[sizeof(e2.text) + 16];
			snprintf(msg, sizeof(msg), "not run: %s", esc(&e2, b->reason));
			cell(out, colour, ANSI_YELLOW, 0, msg);
			fputc('\n', out);
			continue;
		}
		if (b->calibrated && calibration == NULL)
			calibration = b;
		char med[TABLE_NUMBER_BYTES], p10[TABLE_NUMBER_BYTES], p90[TABLE_NUMBER_BYTES];
		char mn[TABLE_NUMBER_BYTES], mx[TABLE_NUMBER_BYTES], stack[TABLE_NUMBER_BYTES];
		char net[TABLE_NUMBER_BYTES], heap[TABLE_NUMBER_BYTES];
		figure_cell(run, b->summary.median, med, sizeof(med));
		figure_cell(run, b->summary.p10, p10, sizeof(p10));
		figure_cell(run, b->summary.p90, p90, sizeof(p90));
		figure_cell(run, b->summary.min, mn, sizeof(mn));
		figure_cell(run, b->summary.max, mx, sizeof(mx));
		net_cell(run, b, net, sizeof(net));
		heap_cell(b, heap, sizeof(heap));
		if (b->stack_measured)
			snprintf(stack, sizeof(stack), "%u", b->stack_bytes);
		else
			snprintf(stack, sizeof(stack), "n/m");
		fprintf(out, "%-*s %6zu %*s %*s %*s %*s %*s %*s %8s ", width, esc(&e1, b->name),
		        b->summary.n, w, med, w, p10, w, p90, w, mn, w, mx, w, net, stack);
		cell(out, colour, b->heap_live != 0U ? ANSI_RED : NULL, 10, heap);
		counter_cells(columns, b, out);
		fprintf(out, "  %s\n", esc(&e2, run->unit));
	}
	/* One line per distinct calibration (stub benches and breakpoint entries differ). */
	for (size_t i = 0; calibration != NULL && i < run->bench_count; i++) {
		const br_bench_record_t *b = &run->benches[i];
		if (b->status != BR_BENCH_MEASURED || !b->calibrated)
			continue;
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++) {
			const br_bench_record_t *e = &run->benches[k];
			seen = e->status == BR_BENCH_MEASURED && e->calibrated &&
			       e->calibration_median == b->calibration_median &&
			       strcmp(e->calibration_method, b->calibration_method) == 0;
		}
		if (seen)
			continue;
		char cost[TABLE_NUMBER_BYTES];
		figure_cell(run, b->calibration_median, cost, sizeof(cost));
		fprintf(out, "calibration: %s per sample, %s; net = median - calibration\n", cost,
		        esc(&e1, b->calibration_method));
	}
	entry_firmware(run, out);
}

static void comparison(const br_report_t *r, int width, bool colour, FILE *out)
{
	shown_t e;
	fprintf(out, "compared with %s\n",
	        esc(&e, r->baseline_path != NULL ? r->baseline_path : "baseline"));
	const bool ab = r->run->ab.role[0] != '\0'; /* --against: the base and the head */
	fprintf(out, "%-*s %-16s %10s %10s %12s  %s\n", width, "bench", "metric",
	        ab ? "base" : "old", ab ? "head" : "new", "change", "verdict");
	for (size_t i = 0; i < r->diff->count; i++) {
		const br_diff_row_t *d = &r->diff->rows[i];
		char old_v[TABLE_NUMBER_BYTES] = "-", new_v[TABLE_NUMBER_BYTES] = "-";
		char pct[TABLE_NUMBER_BYTES];
		if (d->has_old)
			br_report_figure(d->old_value, old_v, sizeof(old_v));
		if (d->has_new)
			br_report_figure(d->new_value, new_v, sizeof(new_v));
		br_diff_format_percent(d, pct, sizeof(pct));
		fprintf(out, "%-*s %-16s %10s %10s %12s  ", width, esc(&e, d->bench),
		        d->metric_name, old_v, new_v, pct);
		char words[BR_DIFF_WORDS_BYTES];
		br_diff_describe(d, words, sizeof(words));
		cell(out, colour, row_colour(r, d), 0, words);
		fputc('\n', out);
	}
}

static void findings(const br_report_t *r, bool colour, FILE *out)
{
	const br_gate_t *g = r->gate;
	shown_t e;
	for (size_t i = 0; i < g->count; i++) {
		const br_finding_t *f = &g->findings[i];
		bool error = f->kind == BR_FINDING_NOT_RUN;
		cell(out, colour, error ? ANSI_YELLOW : ANSI_RED, 0, error ? "ERROR" : "FAIL");
		fprintf(out, " %s: %s\n", br_finding_kind_name(f->kind), esc(&e, f->message));
	}
	if (g->failures == 0 && g->not_run == 0) {
		cell(out, colour, ANSI_GREEN, 0, "PASS");
		if (g->compared)
			fprintf(out, " %s: within budgets, no regression beyond the limits\n",
			        esc(&e, r->run->board));
		else
			fprintf(out, " %s: within budgets (no baseline to compare with)\n",
			        esc(&e, r->run->board));
	}
}

void br_table_write(const br_report_t *reports, size_t count, bool colour, FILE *out)
{
	bool first = true;
	for (size_t i = 0; i < count; i++) {
		const br_report_t *r = &reports[i];
		const br_run_record_t *run = r->run;
		/* A run that stopped before any bench has nothing to show; stderr
		 * says why. */
		if (run->bench_count == 0 && (r->diff == NULL || r->diff->count == 0))
			continue;
		int width = name_width(run, r->diff);
		if (!first)
			fputc('\n', out);
		first = false;
		shown_t e1, e2;
		fprintf(out, "board %s, counter %s", esc(&e1, run->board), esc(&e2, run->counter));
		if (run->clock_hz != 0)
			fprintf(out, " at %g MHz", (double)run->clock_hz / 1e6);
		fprintf(out, ", unit: %s", esc(&e1, run->unit));
		if (run->resolution > 0) {
			char res[TABLE_NUMBER_BYTES];
			br_report_figure(run->resolution, res, sizeof(res));
			fprintf(out, ", resolution %s", res);
		}
		fputc('\n', out);
		if (r->figures)
			figures(run, width, colour, out);
		if (r->diff != NULL)
			comparison(r, width, colour, out);
		if (r->gate != NULL)
			findings(r, colour, out);
	}
}
