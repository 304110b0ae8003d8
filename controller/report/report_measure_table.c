/* The terminal report of `benchrack measure` (report/report_measure.h). */
#include "report/report_measure.h"

#include <math.h>
#include <string.h>

#include "benchrack/stack_paint.h"
#include "common/escape.h"
#include "elf/elf_symbols.h"

#define REPORT_FIGURE_BYTES 32U
#define REPORT_US_PER_S 1e6

/* Whole numbers without decimals, others with up to three. */
static void figure(double v, char *buf, size_t cap)
{
	if (!isfinite(v)) {
		snprintf(buf, cap, "-");
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, cap, "%lld", (long long)v);
		return;
	}
	snprintf(buf, cap, "%.3f", v);
	char *end = buf + strlen(buf) - 1;
	while (end > buf && *end == '0')
		*end-- = '\0';
	if (*end == '.')
		*end = '\0';
}

static const char *unit_of(const br_measure_raw_t *raw)
{
	return raw->counter.counter.unit;
}

static void print_header_row(FILE *out)
{
	fprintf(out, "%-10s %6s %10s %10s %10s %10s %10s %10s %10s %10s %10s %8s  %s\n", "figure",
	        "n", "median", "p10", "p90", "p95", "p99", "min", "max", "mean", "MAD", "outliers",
	        "unit");
}

/* One row: s scaled by scale (1, or seconds per tick times 1e6 for µs). */
static void print_row(FILE *out, const char *label, const br_summary_t *s, double scale,
                      const char *unit)
{
	const double v[] = {s->median, s->p10, s->p90,  s->p95, s->p99,
	                    s->min,    s->max, s->mean, s->mad};
	fprintf(out, "%-10s %6zu", label, s->n);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char buf[REPORT_FIGURE_BYTES];
		figure(v[i] * scale, buf, sizeof(buf));
		fprintf(out, " %10s", buf);
	}
	fprintf(out, " %8zu  %s\n", s->outliers, unit);
}

static void print_what(const br_measure_report_t *r, FILE *out)
{
	const br_measure_raw_t *raw = r->raw;
	fprintf(out, "measure %s: ", r->elf_path);
	if (raw->mode == BR_MEASURE_BREAKPOINT && raw->span.kind == BR_SPAN_FUNCTION)
		fprintf(out, "function %s at %s, each call from its entry to its return",
		        raw->span.from.text, raw->span.from.describe);
	else if (raw->mode == BR_MEASURE_BREAKPOINT)
		fprintf(out, "from %s at %s to %s at %s", raw->span.from.text,
		        raw->span.from.describe, raw->span.to.text, raw->span.to.describe);
	else
		fprintf(out, "bench %s in batch mode (the stub times each iteration)", raw->bench);
	if (raw->bench[0] != '\0' && raw->mode == BR_MEASURE_BREAKPOINT)
		fprintf(out, ", while the stub runs bench %s", raw->bench);
	if (raw->bench[0] != '\0' && raw->bench_argument != 0)
		fprintf(out, " (argument %u)", raw->bench_argument);
	fputc('\n', out);
}

static void print_counter(const br_measure_report_t *r, FILE *out)
{
	const br_counter_state_t *cs = &r->raw->counter;
	const br_counter_t *c = &cs->counter;
	if (br_counter_is_monitor(c))
		fprintf(out,
		        "  on %s; counter %s: QEMU's own count of executed instructions "
		        "(monitor '%s' in record mode, 64-bit, exact)",
		        r->raw->server, c->name, BR_COUNTER_ICOUNT_MONITOR);
	else
		fprintf(out, "  on %s; counter %s at 0x%08x (%u-bit, %s)", r->raw->server, c->name,
		        c->address, c->width_bits, c->counts_down ? "down" : "up");
	if (c->clock_hz != 0)
		fprintf(out, " at %llu Hz", (unsigned long long)c->clock_hz);
	fprintf(out, "; unit: %s\n", c->unit);
	double guard_s = br_wrap_guard_seconds(cs);
	if (r->raw->mode == BR_MEASURE_BREAKPOINT && guard_s > 0.0)
		fprintf(
		    out,
		    "  wrap: every %llu %s; a guard halt every %.3g s (a quarter period at %s%.3g "
		    "per second) kept every interval between two reads shorter than a period: "
		    "%zu taken, each sample their 64-bit sum\n",
		    (unsigned long long)cs->period, c->unit, guard_s,
		    c->clock_hz != 0 ? "" : "a stated maximum of ", (double)c->max_rate_hz,
		    r->raw->bp.guard_halts);
	else if (cs->period == 0)
		fprintf(out, "  wrap: none (64 bits); no guard halts\n");
	else if (cs->wrap_seconds > 0.0)
		fprintf(out,
		        "  wrap: every %llu %s = %.6g s; a sample whose host time could hide a "
		        "wrap is not measured\n",
		        (unsigned long long)cs->period, c->unit, cs->wrap_seconds);
	else
		fprintf(out,
		        "  wrap: every %llu %s; not a host time, so a wrap could not be told here "
		        "(a region that long is not measured by this counter)\n",
		        (unsigned long long)cs->period, c->unit);
	if (cs->writes_made > 0)
		fprintf(out,
		        "  the host wrote %zu of the counter's enable registers (the firmware "
		        "had not set them)\n",
		        cs->writes_made);
}

static void print_calibration(const br_measure_report_t *r, FILE *out)
{
	const br_measure_raw_t *raw = r->raw;
	if (!r->calibrated) {
		fprintf(out, "  calibration: %s: figures are raw only\n",
		        br_calibration_method_text(raw->calibration.method));
		return;
	}
	char med[REPORT_FIGURE_BYTES], lo[REPORT_FIGURE_BYTES], hi[REPORT_FIGURE_BYTES];
	figure(r->calibration.median, med, sizeof(med));
	figure(r->calibration.min, lo, sizeof(lo));
	figure(r->calibration.max, hi, sizeof(hi));
	fprintf(out,
	        "  calibration (the cost of measuring nothing): %s %s (median of %zu, %s..%s): "
	        "%s; %s%s\n",
	        med, unit_of(raw), r->calibration.n, lo, hi,
	        br_calibration_method_text(raw->calibration.method),
	        r->net_known ? "net = raw - " : "not subtracted (see net below)",
	        r->net_known ? med : "");
}

/* At breakpoints: the instructions the host executed under them, or why a
 * self-check turned that off (measure/host_step.h); nothing otherwise. */
static void print_host_steps(const br_measure_report_t *r, FILE *out)
{
	const br_bp_result_t *bp = &r->raw->bp;
	if (r->raw->mode != BR_MEASURE_BREAKPOINT)
		return;
	if (bp->host_check_failed)
		fprintf(out,
		        "  breakpoints swapped at each halt: the host's execution of the "
		        "instruction under one disagreed with a real step (%s)\n",
		        bp->host_why_off);
	else if (bp->host_steps > 0 && !bp->host_stepping)
		fprintf(out,
		        "  breakpoints swapped after the first samples, in which the host executed "
		        "%llu instructions under them (checked against a real step at %llu "
		        "places): %s\n",
		        (unsigned long long)bp->host_steps, (unsigned long long)bp->host_checks,
		        bp->host_why_off);
	else if (bp->host_steps > 0)
		fprintf(out,
		        "  breakpoints kept inserted: the host executed %llu instructions under "
		        "them (checked against a real step at %llu places), each one inside a "
		        "sample added to it\n",
		        (unsigned long long)bp->host_steps, (unsigned long long)bp->host_checks);
}

static void print_samples(const br_measure_report_t *r, FILE *out)
{
	const br_measure_raw_t *raw = r->raw;
	const br_counter_state_t *cs = &raw->counter;
	const br_bp_sample_t *judged = br_measure_report_first_not_measured(raw);
	char why[BR_MEASURE_WHY_TEXT];
	if (judged != NULL)
		br_bp_sample_why(judged, why, sizeof(why));
	if (r->not_measured > 0 && judged != NULL && judged->why != BR_WRAP_OK)
		fprintf(out, "not measured: %zu of %zu samples: %s (counter %s, every %llu %s)\n",
		        r->not_measured, raw->count, why, cs->counter.name,
		        (unsigned long long)cs->period, unit_of(raw));
	else if (r->not_measured > 0)
		fprintf(
		    out,
		    "not measured: %zu of %zu samples: the host time around them (up to %.6g s) "
		    "could hide a wrap of counter %s (every %llu %s = %.6g s)\n",
		    r->not_measured, raw->count, r->worst_host_seconds, cs->counter.name,
		    (unsigned long long)cs->period, unit_of(raw), cs->wrap_seconds);
	if (raw->mode == BR_MEASURE_BREAKPOINT && raw->bp.ran_out && raw->bp.idled) {
		char where[160];
		snprintf(where, sizeof(where), "0x%08x", raw->bp.idle_pc);
		br_elf_t *elf = NULL;
		br_error_t ignored;
		if (br_elf_open(r->elf_path, &elf, &ignored) == BR_OK) {
			br_elf_symbol_describe(elf, raw->bp.idle_pc, where, sizeof(where));
			br_elf_close(elf);
		}
		fprintf(
		    out,
		    "ran %zu of %u times in %.3g s: the start was not reached again, and the core "
		    "idles in an endless loop at %s: not waited for the rest of the timeout (give "
		    "-n to wait for it, as an interrupt could still call it)\n",
		    raw->count, raw->asked, raw->wall_seconds, where);
	} else if (raw->mode == BR_MEASURE_BREAKPOINT && raw->bp.ran_out)
		fprintf(out,
		        "ran %zu of %u times in %.3g s: the start was not reached again within the "
		        "timeout%s%s\n",
		        raw->count, raw->asked, raw->wall_seconds, raw->bp.left_running ? "; " : "",
		        raw->bp.left_running ? BR_COUNTER_UNINTERRUPTIBLE_TEXT : "");
	if (!r->summarized)
		return;
	print_header_row(out);
	print_row(out, "raw", &r->raw_summary, 1.0, unit_of(raw));
	if (r->calibrated && r->net_known)
		print_row(out, "net", &r->net_summary, 1.0, unit_of(raw));
	uint64_t hz = cs->counter.clock_hz;
	if (hz != 0) {
		char unit[64];
		snprintf(unit, sizeof(unit), "us (%s at %llu Hz)", unit_of(raw),
		         (unsigned long long)hz);
		double scale = REPORT_US_PER_S / (double)hz;
		print_row(out, "raw time", &r->raw_summary, scale, unit);
		if (r->calibrated && r->net_known)
			print_row(out, "net time", &r->net_summary, scale, unit);
	}
	if (r->calibrated && !r->net_known)
		fprintf(out, "net: not measured: %s\n", r->net_why);
}

static void print_stack(const br_measure_report_t *r, FILE *out)
{
	const br_measure_raw_t *raw = r->raw;
	if (!r->stack_reported)
		return;
	if (raw->mode == BR_MEASURE_STUB) {
		if (r->stack_measured > 0)
			fprintf(out,
			        "stack: %u bytes, from the SP at the bench call down to the "
			        "deepest byte written (the stub's paint)\n",
			        raw->stub->stack_bytes);
		else
			fprintf(out, "stack: not measured: the bench overflowed the painted stack "
			             "region\n");
		return;
	}
	const br_stack_region_t *g = &raw->stack_region;
	if (r->stack_measured > 0) {
		char med[REPORT_FIGURE_BYTES], mx[REPORT_FIGURE_BYTES], mn[REPORT_FIGURE_BYTES];
		figure(r->stack.median, med, sizeof(med));
		figure(r->stack.max, mx, sizeof(mx));
		figure(r->stack.min, mn, sizeof(mn));
		fprintf(
		    out,
		    "stack: %s bytes at most (median %s, min %s, over %zu samples), from the SP at "
		    "the start down to the deepest byte written\n",
		    mx, med, mn, r->stack_measured);
	}
	if (r->stack_missing > 0)
		fprintf(out, "stack: not measured for %zu of %zu samples: %s\n", r->stack_missing,
		        r->stack_missing + r->stack_measured, br_stack_status_text(r->stack_why));
	fprintf(out,
	        "  stack region: 0x%08x..0x%08x (%u bytes, %s), painted with 0x%02X by the "
	        "host\n",
	        g->low, g->low + g->size, g->size, g->source, BR_STACK_PAINT);
}

static void print_heap(const br_measure_report_t *r, FILE *out)
{
	const br_stub_result_t *s = r->raw->stub;
	if (s == NULL)
		return;
	fprintf(out, "heap: peak %u bytes, %u allocations, %u bytes live at the end%s\n",
	        s->heap_peak, s->heap_allocs, s->heap_live,
	        s->heap_live != 0 ? ": a LEAK (live bytes when the bench returned)" : "");
}

/* The stub's footprint: the image, the stub alone (the empty bench's image)
 * and each bench on top of it (measure/stub_footprint.h). */
static void print_footprint(const br_suite_footprint_t *f, const char *elf, FILE *out)
{
	fprintf(out, "footprint (flash: text + data; RAM: data + bss, the sample buffer apart; "
	             "bytes):\n");
	fprintf(out, "  %-24s %8s %8s %8s  %s\n", "image", "flash", "RAM", "samples", "from");
	fprintf(out, "  %-24s %8llu %8llu %8llu  %s\n", "whole image",
	        (unsigned long long)f->suite.flash, (unsigned long long)f->suite.ram,
	        (unsigned long long)f->suite.samples, elf);
	if (!f->stub_known) {
		fprintf(out,
		        "  stub alone: not known (no bench-empty image beside %s; name one with "
		        "--empty-elf)\n",
		        elf);
		return;
	}
	fprintf(out, "  %-24s %8llu %8llu %8llu  %s\n", "stub (empty bench)",
	        (unsigned long long)f->stub.flash, (unsigned long long)f->stub.ram,
	        (unsigned long long)f->stub.samples, f->empty_elf);
	for (size_t i = 0; i < f->count; i++) {
		const br_footprint_bench_t *b = &f->benches[i];
		if (b->known)
			fprintf(out, "  + %-22s %+8lld %+8lld %8s  %s\n", b->name,
			        (long long)b->flash, (long long)b->ram, "", b->elf);
		else
			fprintf(out, "  + %-22s %8s %8s %8s  no bench-%s image beside the suite\n",
			        b->name, "?", "?", "", b->name);
	}
}

static void print_sizes(const br_measure_report_t *r, FILE *out)
{
	fprintf(out, "size: text %llu, data %llu, bss %llu bytes (%s)\n",
	        (unsigned long long)r->sizes.text, (unsigned long long)r->sizes.data,
	        (unsigned long long)r->sizes.bss, r->elf_path);
	if (r->bench_size_known)
		fprintf(
		    out,
		    "bench size: text %+lld, data %+lld, bss %+lld bytes against the empty bench "
		    "(%s against %s)\n",
		    (long long)r->bench_size.text, (long long)r->bench_size.data,
		    (long long)r->bench_size.bss, r->bench_elf, r->empty_elf);
	if (r->footprint != NULL && r->footprint->has_stub)
		print_footprint(r->footprint, r->elf_path, out);
	if (!r->symbols_shown)
		return;
	bool stub = r->symbols_against_empty;
	fprintf(out, "%-40s %-8s %-12s %-9s %8s", "symbol (aliases folded)", "kind", "section",
	        "memory", "bytes");
	if (stub)
		fprintf(out, " %8s  %s", "empty", "growth");
	fputc('\n', out);
	for (size_t i = 0; i < r->symbol_count; i++) {
		const br_size_symbol_t *s = &r->symbols[i];
		char name[BR_ESCAPE_BYTES(sizeof(s->name))];
		char section[BR_ESCAPE_BYTES(sizeof(s->section))];
		fprintf(out, "%-40s %-8s %-12s %-9s %8u",
		        br_escape_text(s->name, name, sizeof(name)),
		        s->is_function ? "function" : "object",
		        br_escape_text(s->section, section, sizeof(section)),
		        br_elf_memory_name(s->memory), s->size);
		if (stub)
			fprintf(out, " %8u  %+lld", s->empty_size,
			        (long long)s->size - (long long)s->empty_size);
		fputc('\n', out);
	}
}

void br_measure_report_print(const br_measure_report_t *r, FILE *out)
{
	if (r->raw != NULL) {
		print_what(r, out);
		print_counter(r, out);
		print_calibration(r, out);
		print_host_steps(r, out);
		print_samples(r, out);
		print_stack(r, out);
		print_heap(r, out);
	}
	print_sizes(r, out);
}
