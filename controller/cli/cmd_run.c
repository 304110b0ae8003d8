/*
 * `benchrack run`: measure a suite firmware on the emulated board, print the
 * table, optionally write JSON.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/xalloc.h"
#include "measure/suite_run.h"
#include "results/record.h"
#include "results/run_json.h"
#include "results/table.h"
#include "stats/summary.h"

#define RUN_MAX_COUNT 1000000UL

static void run_usage(FILE *out)
{
	fputs("usage: benchrack run [ELF] [options]\n"
	      "\n"
	      "Measures every bench of a firmware built with benchrack's stub, on QEMU's\n"
	      "netduinoplus2 (STM32F405) under -icount: figures are exact instruction counts.\n"
	      "ELF defaults to the suite built with this benchrack:\n"
	      "  " BR_DEFAULT_SUITE_ELF "\n"
	      "\n"
	      "options:\n"
	      "  -n, --iterations N   measured iterations per bench (default 100, at most 1024)\n"
	      "  -w, --warmup N       iterations run first and discarded (default 2)\n"
	      "      --json FILE      also write the results as JSON to FILE\n"
	      "      --qemu PROGRAM   the QEMU to launch (default qemu-system-arm)\n"
	      "      --timeout SEC    how long one bench may run (default 30)\n"
	      "  -h, --help           this text\n",
	      out);
}

static int parse_count(const char *opt, const char *arg, unsigned long max, unsigned long *out)
{
	char *end = NULL;
	unsigned long v = strtoul(arg, &end, 10);
	if (arg[0] == '\0' || arg[0] == '-' || *end != '\0' || v > max) {
		fprintf(stderr, "benchrack run: %s takes a whole number from 0 to %lu, not '%s'\n",
			opt, max, arg);
		return -1;
	}
	*out = v;
	return 0;
}

static void show_progress(void *ctx, unsigned index, unsigned count, const char *name)
{
	(void)ctx;
	fprintf(stderr, "\r[%u/%u] %-24s", index + 1U, count, name);
	if (index + 1U == count)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

static void show_output(void *ctx, int fd, const char *text, size_t len)
{
	(void)ctx;
	(void)fd;
	fprintf(stderr, "firmware: %.*s", (int)len, text);
}

static void fill_provenance(br_run_record_t *rec, const br_suite_options_t *opts,
			    const br_suite_raw_t *raw)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(rec->timestamp, sizeof(rec->timestamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(rec->board, sizeof(rec->board), "qemu-%s", opts->machine);
	snprintf(rec->server, sizeof(rec->server), "%s", raw->server);
	snprintf(rec->counter, sizeof(rec->counter), "%s", opts->counter->name);
	snprintf(rec->unit, sizeof(rec->unit), "%s", opts->counter->unit);
	rec->clock_hz = opts->counter->clock_hz;
	snprintf(rec->elf_path, sizeof(rec->elf_path), "%s", opts->elf_path);
	snprintf(rec->build_id, sizeof(rec->build_id), "%s", raw->build_id);
	snprintf(rec->benchrack_version, sizeof(rec->benchrack_version), "%s", BENCHRACK_VERSION);
	if (gethostname(rec->host, sizeof(rec->host)) != 0)
		snprintf(rec->host, sizeof(rec->host), "unknown");
}

/* Turns raw samples into bench records with their statistics. */
static br_status_t summarize(const br_suite_raw_t *raw, uint32_t warmup, br_run_record_t *rec,
			     br_error_t *err)
{
	for (size_t i = 0; i < raw->count; i++) {
		const br_stub_result_t *r = &raw->results[i];
		br_bench_record_t *b = br_run_record_add_bench(rec);
		snprintf(b->name, sizeof(b->name), "%s", raw->names[i]);
		b->n = r->count;
		b->warmup = warmup;
		b->samples = xmalloc(r->count * sizeof(b->samples[0]));
		memcpy(b->samples, r->samples, r->count * sizeof(b->samples[0]));
		b->stack_measured = r->stack_bytes != BR_CB_NOT_MEASURED;
		b->stack_bytes = b->stack_measured ? r->stack_bytes : 0U;
		b->heap_peak = r->heap_peak;
		b->heap_live = r->heap_live;
		b->heap_allocs = r->heap_allocs;
		double *values = xmalloc(r->count * sizeof(double));
		for (uint32_t k = 0; k < r->count; k++)
			values[k] = (double)r->samples[k];
		br_status_t st = br_stats_summarize(values, r->count, &b->summary, err);
		free(values);
		if (st != BR_OK)
			return st;
	}
	return BR_OK;
}

int br_cli_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"iterations", required_argument, NULL, 'n'},
		{"warmup", required_argument, NULL, 'w'},
		{"json", required_argument, NULL, 'j'},
		{"qemu", required_argument, NULL, 'q'},
		{"timeout", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	br_suite_options_t opts;
	br_suite_options_default(&opts);
	const char *json_path = NULL;
	unsigned long v = 0;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_count("--iterations", optarg, BR_CB_MAX_SAMPLES, &v) != 0)
				return 2;
			opts.iterations = (uint32_t)v;
			break;
		case 'w':
			if (parse_count("--warmup", optarg, RUN_MAX_COUNT, &v) != 0)
				return 2;
			opts.warmup = (uint32_t)v;
			break;
		case 'j':
			json_path = optarg;
			break;
		case 'q':
			opts.qemu_program = optarg;
			break;
		case 't':
			if (parse_count("--timeout", optarg, 86400, &v) != 0 || v == 0)
				return 2;
			opts.bench_timeout_ms = (int)v * 1000;
			break;
		case 'h':
			run_usage(stdout);
			return 0;
		default:
			run_usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "benchrack run: one firmware ELF at most; try 'benchrack run --help'\n");
		return 2;
	}
	if (opts.iterations == 0) {
		fprintf(stderr, "benchrack run: --iterations must be at least 1\n");
		return 2;
	}
	opts.elf_path = optind < argc ? argv[optind] : BR_DEFAULT_SUITE_ELF;
	if (isatty(STDERR_FILENO))
		opts.progress = show_progress;
	opts.output = show_output;

	br_error_t err;
	br_error_clear(&err);
	br_suite_raw_t raw;
	br_status_t st = br_suite_measure(&opts, &raw, &err);
	br_error_t failure = err;
	br_run_record_t rec;
	memset(&rec, 0, sizeof(rec));
	fill_provenance(&rec, &opts, &raw);
	br_status_t sst = summarize(&raw, opts.warmup, &rec, &err);
	br_suite_raw_free(&raw);
	if (sst != BR_OK && st == BR_OK) {
		st = sst;
		failure = err;
	}
	/* Whatever finished before a failure is still shown and kept. */
	if (rec.bench_count > 0)
		br_table_write(&rec, stdout);
	if (json_path != NULL && rec.bench_count > 0) {
		br_status_t jst = br_run_json_save(&rec, json_path, &err);
		if (jst != BR_OK && st == BR_OK) {
			st = jst;
			failure = err;
		}
	}
	br_run_record_free(&rec);
	if (st != BR_OK)
		return br_cli_report(&failure);
	return 0;
}
