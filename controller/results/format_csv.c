/* --format csv: RFC 4180, one row per board, bench and metric. */
#include <string.h>

#include "common/escape.h"
#include "results/format.h"

#define CSV_CELL 64U
#define CSV_CELL_BYTES 288U

/* The columns, in the order of header[]. */
enum csv_column {
	COL_BOARD,
	COL_BENCH,
	COL_STATUS,
	COL_METRIC,
	COL_UNIT,
	COL_N,
	COL_MEDIAN,
	COL_P10,
	COL_P90,
	COL_MIN,
	COL_MAX,
	COL_BASELINE,
	COL_CHANGE,
	COL_VERDICT,
	COL_BUDGET,
	COL_GATE,
	CSV_COLUMNS
};

/* A field quoted when it holds a comma or a quote (RFC 4180 2.6, 2.7);
 * control characters escaped first (common/escape.h), so a line break in a
 * name never starts a row. */
static void csv_field(FILE *out, const char *text, bool last)
{
	char s[BR_ESCAPE_BYTES(CSV_CELL_BYTES)];
	br_escape_text(text, s, sizeof(s));
	if (strpbrk(s, ",\"\r\n") != NULL) {
		fputc('"', out);
		for (const char *p = s; *p != '\0'; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputs(last ? "\r\n" : ",", out);
}

static const char *const header[] = {
    "board", "bench", "status", "metric",   "unit",           "n",       "median", "p10",
    "p90",   "min",   "max",    "baseline", "change_percent", "verdict", "budget", "gate",
};
_Static_assert(sizeof(header) / sizeof(header[0]) == CSV_COLUMNS, "a name per column");

typedef struct csv_row {
	char cells[CSV_COLUMNS][CSV_CELL_BYTES];
} csv_row_t;

static void put(csv_row_t *row, size_t col, const char *text)
{
	snprintf(row->cells[col], sizeof(row->cells[col]), "%s", text);
}

static void put_figure(csv_row_t *row, size_t col, double v)
{
	br_report_figure(v, row->cells[col], sizeof(row->cells[col]));
}

static void emit(FILE *out, const csv_row_t *row)
{
	for (size_t c = 0; c < CSV_COLUMNS; c++)
		csv_field(out, row->cells[c], c + 1U == CSV_COLUMNS);
}

/* The baseline, change, verdict and gate columns of one metric. */
static void put_comparison(const br_report_t *r, csv_row_t *row, const char *bench,
                           br_metric_t metric, const char *metric_name, const br_limit_t *budget)
{
	const br_diff_row_t *d = br_report_diff_row(r, bench, metric);
	if (d != NULL) {
		if (d->has_old)
			put_figure(row, COL_BASELINE, d->old_value);
		if (d->has_old && d->has_new && d->percent_defined) {
			char pct[CSV_CELL];
			snprintf(pct, sizeof(pct), "%.2f", d->percent);
			put(row, COL_CHANGE, pct);
		}
		put(row, COL_VERDICT, br_change_name(d->change));
	}
	if (budget != NULL && budget->set) {
		char b[CSV_CELL];
		snprintf(b, sizeof(b), "%llu", (unsigned long long)budget->value);
		put(row, COL_BUDGET, b);
	}
	if (r->gate != NULL)
		put(row, COL_GATE, br_report_has_finding(r, bench, metric_name) ? "fail" : "pass");
}

static void bench_rows(FILE *out, const br_report_t *r, const br_bench_record_t *b)
{
	const br_run_record_t *run = r->run;
	char count_name[32];
	br_metric_name(BR_METRIC_COUNT, run->unit, count_name, sizeof(count_name));
	csv_row_t row;
	memset(&row, 0, sizeof(row));
	put(&row, COL_BOARD, run->board);
	put(&row, COL_BENCH, b->name);
	put(&row, COL_STATUS, br_bench_status_name(b->status));
	put(&row, COL_METRIC, count_name);
	put(&row, COL_UNIT, run->unit);
	if (b->status == BR_BENCH_MEASURED) {
		char n[CSV_CELL];
		snprintf(n, sizeof(n), "%zu", b->n);
		put(&row, COL_N, n);
		put_figure(&row, COL_MEDIAN, b->summary.median);
		put_figure(&row, COL_P10, b->summary.p10);
		put_figure(&row, COL_P90, b->summary.p90);
		put_figure(&row, COL_MIN, b->summary.min);
		put_figure(&row, COL_MAX, b->summary.max);
	}
	put_comparison(r, &row, b->name, BR_METRIC_COUNT, count_name,
	               &b->budgets.max_cycles_per_iteration);
	emit(out, &row);
	if (b->status != BR_BENCH_MEASURED)
		return;
	const struct {
		br_metric_t metric;
		bool known;
		double value;
		const br_limit_t *budget;
	} sizes[] = {
	    {BR_METRIC_STACK, b->stack_measured, b->stack_bytes, &b->budgets.max_stack_bytes},
	    {BR_METRIC_HEAP, b->heap_known, b->heap_peak, &b->budgets.max_heap_bytes},
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char name[32];
		br_metric_name(sizes[i].metric, run->unit, name, sizeof(name));
		memset(&row, 0, sizeof(row));
		put(&row, COL_BOARD, run->board);
		put(&row, COL_BENCH, b->name);
		put(&row, COL_STATUS, sizes[i].known ? "measured" : "not_measured");
		put(&row, COL_METRIC, name);
		put(&row, COL_UNIT, "bytes");
		if (sizes[i].known)
			put_figure(&row, COL_MEDIAN, sizes[i].value);
		put_comparison(r, &row, b->name, sizes[i].metric, name, sizes[i].budget);
		emit(out, &row);
	}
}

void br_format_csv_write(const br_report_t *reports, size_t count, FILE *out)
{
	for (size_t c = 0; c < CSV_COLUMNS; c++)
		csv_field(out, header[c], c + 1U == CSV_COLUMNS);
	for (size_t i = 0; i < count; i++) {
		const br_report_t *r = &reports[i];
		for (size_t b = 0; b < r->run->bench_count; b++)
			bench_rows(out, r, &r->run->benches[b]);
		if (r->run->sizes_known) {
			csv_row_t row;
			memset(&row, 0, sizeof(row));
			put(&row, COL_BOARD, r->run->board);
			put(&row, COL_BENCH, BR_DIFF_FIRMWARE);
			put(&row, COL_STATUS, "measured");
			put(&row, COL_METRIC, "text_bytes");
			put(&row, COL_UNIT, "bytes");
			put_figure(&row, COL_MEDIAN, (double)r->run->text_bytes);
			put_comparison(r, &row, BR_DIFF_FIRMWARE, BR_METRIC_TEXT, "text_bytes",
			               &r->run->budgets.max_text_bytes);
			emit(out, &row);
		}
	}
}
