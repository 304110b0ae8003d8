/*
 * Unit tests of controller/upload and config/upload_config: escaping by each
 * format's rules with hostile names, the mapping of a record to points, the
 * requests each sink kind renders, retry classification and backoff bounds,
 * token handling and redaction, the spool file format and directory, the
 * upload config's checks, and a delivery pass that respects its deadline.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "common/clock.h"
#include "config/sink_url.h"
#include "config/upload_config.h"
#include "upload/deliver.h"
#include "upload/exposition.h"
#include "upload/item_json.h"
#include "upload/line_protocol.h"
#include "upload/metrics.h"
#include "upload/render.h"
#include "upload/retry.h"
#include "upload/secret.h"
#include "upload/spool.h"
#include "upload/timestamp.h"

#define FFFD "\xEF\xBF\xBD"
#define TOKEN "s3cr3t-T0ken-value"

/* What writer(out, in) writes, as a new string. */
static char *written(void (*writer)(FILE *, const char *), const char *in)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&text, &len);
	writer(f, in);
	fclose(f);
	return text;
}

static void check_written(void (*writer)(FILE *, const char *), const char *in,
			  const char *want)
{
	char *got = written(writer, in);
	CHECK_MSG(strcmp(got, want) == 0, "in [%s]: got [%s], want [%s]", in, got, want);
	free(got);
}

/* Percent-encoding and plain path segments, as libcurl escapes them. */
static void test_escaped(void)
{
	check_written(br_upload_write_escaped, "bench", "bench");
	check_written(br_upload_write_escaped, "a b&c/d=e?f#g", "a%20b%26c%2Fd%3De%3Ff%23g");
	check_written(br_upload_write_escaped, "\xC3\xA9~_.-", "%C3%A9~_.-");
	CHECK(br_upload_is_plain_segment("qemu-netduinoplus2"));
	CHECK(!br_upload_is_plain_segment("a b"));
	CHECK(!br_upload_is_plain_segment(""));
	CHECK(!br_upload_is_plain_segment("a/b"));
	CHECK(!br_upload_is_plain_segment("."));
	CHECK(!br_upload_is_plain_segment(".."));
}

/* URLs as libcurl parses them (issue 12): local is a loopback literal or
 * localhost, never a look-alike; a request URL lies under a sink's URL only
 * on the same origin and below its path. */
static void test_sink_url(void)
{
	static const struct {
		const char *url;
		bool parses, loopback, https, credentials;
	} urls[] = {
		{"http://127.0.0.1:8086", true, true, false, false},
		{"http://127.1/x", true, true, false, false},      /* libcurl: 127.0.0.1 */
		{"http://2130706433/", true, true, false, false},  /* 127.0.0.1 as a number */
		{"http://127.255.0.9/", true, true, false, false},
		{"http://LOCALHOST:9091", true, true, false, false},
		{"http://[::1]:8086/", true, true, false, false},
		{"https://[0:0:0:0:0:0:0:1]/", true, true, true, false},
		{"http://127.0.0.1.example.invalid/h", true, false, false, false},
		{"http://127.evil.example/", true, false, false, false},
		{"http://localhost.example/", true, false, false, false},
		{"http://localhost@evil.example/", true, false, false, true},
		{"http://evil.example#@127.0.0.1/", true, false, false, false},
		{"http://[::2]/", true, false, false, false},
		{"http://128.0.0.1/", true, false, false, false},
		{"https://u:p@127.0.0.1/", true, true, true, true},
		{"ftp://127.0.0.1/", false, false, false, false},
		{"http://a b/", false, false, false, false},
		{"127.0.0.1:8086", false, false, false, false},
	};
	for (size_t i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		br_sink_url_t u;
		bool parses = br_sink_url_parse(urls[i].url, &u);
		CHECK_MSG(parses == urls[i].parses, "%s: parses %d", urls[i].url, parses);
		if (parses && urls[i].parses)
			CHECK_MSG(u.loopback == urls[i].loopback && u.https == urls[i].https &&
					  u.credentials == urls[i].credentials,
				  "%s: loopback %d https %d credentials %d", urls[i].url,
				  u.loopback, u.https, u.credentials);
	}
	static const struct {
		const char *base, *request;
		bool within;
	} under[] = {
		{"http://127.0.0.1:8086", "http://127.0.0.1:8086/write?db=a", true},
		{"http://127.0.0.1:8086/", "http://127.0.0.1:8086/write", true},
		{"http://Influx.Lab:8086/p", "http://influx.lab:8086/p/api/v2/write", true},
		{"https://api.bencher.dev", "https://api.bencher.dev:443/v0/projects/x", true},
		{"http://127.0.0.1:8086/p", "http://127.0.0.1:8086/p", true},
		{"http://127.0.0.1:8086/p", "http://127.0.0.1:8086/px/write", false},
		{"http://127.0.0.1:8086", "http://127.0.0.1:8087/write", false},
		{"http://127.0.0.1:8086", "https://127.0.0.1:8086/write", false},
		{"http://127.0.0.1:8086", "http://127.0.0.2:8086/write", false},
		{"http://127.0.0.1:8086", "http://127.0.0.1.example.invalid:8086/write", false},
		{"http://127.0.0.1:8086", "http://u:p@127.0.0.1:8086/write", false},
		{"http://127.0.0.1:8086", "ftp://127.0.0.1:8086/write", false},
		{"http://127.0.0.1:8086", "not a url", false},
	};
	for (size_t i = 0; i < sizeof(under) / sizeof(under[0]); i++)
		CHECK_MSG(br_sink_url_within(under[i].base, under[i].request) == under[i].within,
			  "%s under %s: want %d", under[i].request, under[i].base,
			  under[i].within);
}

/* Line protocol names with every hostile character the issue lists. */
static void test_line_protocol_escaping(void)
{
	static const struct {
		const char *in, *measurement, *key;
	} cases[] = {
		{"plain", "plain", "plain"},
		{"a b", "a\\ b", "a\\ b"},
		{"a,b", "a\\,b", "a\\,b"},
		{"a=b", "a=b", "a\\=b"},
		{"say \"hi\"", "say\\ \"hi\"", "say\\ \"hi\""},
		{"back\\slash", "back\\slash", "back\\slash"},
		{"a\\,b", "a\\\\,b", "a\\\\,b"},   /* a backslash before an escaped comma stays */
		{"ends\\", "ends" FFFD, "ends" FFFD}, /* the parser would read it as an escape */
		{"line\nbreak", "line" FFFD "break", "line" FFFD "break"},
		{"tab\there", "tab" FFFD "here", "tab" FFFD "here"},
		{"n\xC3\xA4me \xE2\x9C\x93", "n\xC3\xA4me\\ \xE2\x9C\x93",
		 "n\xC3\xA4me\\ \xE2\x9C\x93"},
		{"#comment", "#comment", "#comment"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		check_written(br_lp_write_measurement, cases[i].in, cases[i].measurement);
		check_written(br_lp_write_key, cases[i].in, cases[i].key);
	}
}

static void test_prometheus_escaping(void)
{
	check_written(br_prom_write_label_value, "plain", "plain");
	check_written(br_prom_write_label_value, "a \"q\" b", "a \\\"q\\\" b");
	check_written(br_prom_write_label_value, "back\\slash\\", "back\\\\slash\\\\");
	check_written(br_prom_write_label_value, "line\nbreak", "line\\nbreak");
	check_written(br_prom_write_label_value, "a,b=c {d}", "a,b=c {d}");
	check_written(br_prom_write_label_value, "n\xC3\xA4me", "n\xC3\xA4me");
}

static void test_timestamps(void)
{
	static const struct {
		const char *text;
		bool ok;
		int64_t ms;
	} cases[] = {
		{"1970-01-01T00:00:00Z", true, 0},
		{"2026-11-29T15:10:05Z", true, 1795965005000LL},
		{"2026-11-29T15:10:05.716Z", true, 1795965005716LL},
		{"2026-11-29T15:10:05.7Z", true, 1795965005700LL},
		{"2026-11-29T15:10:05.716999Z", true, 1795965005716LL},
		{"2026-11-29T16:10:05+01:00", true, 1795965005000LL},
		{"2026-11-29T14:10:05-01:00", true, 1795965005000LL},
		{"2024-02-29T00:00:00Z", true, 1709164800000LL},
		{"2023-02-29T00:00:00Z", false, 0},
		{"2026-04-31T00:00:00Z", false, 0},
		{"2026-13-01T00:00:00Z", false, 0},
		{"2026-11-29T24:00:00Z", false, 0},
		{"2026-11-29T15:10:05", false, 0},
		{"2026-11-29 15:10:05Z", false, 0},
		{"2026-11-29T15:10:05.Z", false, 0},
		{"2026-11-29T15:10:05Zjunk", false, 0},
		{"", false, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t ms = -1;
		bool ok = br_upload_time_parse(cases[i].text, &ms);
		CHECK_MSG(ok == cases[i].ok && (!ok || ms == cases[i].ms), "%s: %d %lld",
			  cases[i].text, ok, (long long)ms);
	}
	static const struct {
		const char *timestamp, *file;
		int64_t ms;
	} runs[] = {
		/* the run file's milliseconds, when it names the same second */
		{"2026-11-29T15:10:05Z", "results/runs/20261129T151005.716Z-board.json",
		 1795965005716LL},
		{"2026-11-29T15:10:05Z", "20261129T151005.716Z-board-1.json", 1795965005716LL},
		{"2026-11-29T15:10:05Z", "results/runs/20261129T151006.002Z-board.json",
		 1795965005000LL},
		{"2026-11-29T15:10:05Z", "results/runs/mine.json", 1795965005000LL},
		{"2026-11-29T15:10:05Z", "results/runs/20261129T151005Z-board.json",
		 1795965005000LL},
		{"2026-11-29T15:10:05.100Z", "20261129T151005.716Z-b.json", 1795965005100LL},
	};
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		int64_t ms = 0;
		CHECK(br_upload_time_of_run(runs[i].timestamp, runs[i].file, &ms));
		CHECK_MSG(ms == runs[i].ms, "%s %s: %lld", runs[i].timestamp, runs[i].file,
			  (long long)ms);
	}
	int64_t untouched = 7;
	CHECK(!br_upload_time_of_run("soon", "20261129T151005.716Z-b.json", &untouched));
	CHECK(untouched == 7);
	char buf[32];
	br_upload_time_format(1795965005716LL, buf, sizeof(buf));
	CHECK(strcmp(buf, "2026-11-29T15:10:05.716Z") == 0);
}

static void test_numbers(void)
{
	static const struct {
		double v;
		bool integer;
		const char *text;
	} cases[] = {
		{1001, false, "1001"},
		{0.1, false, "0.1"},
		{1.0 / 3.0, false, "0.3333333333333333"},
		{2575.5, false, "2575.5"},
		{1e20, false, "1e+20"},
		{16, true, "16"},
		{0, false, "0"},
		{0.003, false, "0.003"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[BR_UPLOAD_NUMBER_BYTES];
		br_upload_number_format(cases[i].v, cases[i].integer, buf, sizeof(buf));
		CHECK_MSG(strcmp(buf, cases[i].text) == 0, "%s != %s", buf, cases[i].text);
		CHECK(strtod(buf, NULL) == cases[i].v);
	}
}

static br_bench_record_t *add_bench(br_run_record_t *r, const char *name, double median)
{
	br_bench_record_t *b = br_run_record_add_bench(r);
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->mode, sizeof(b->mode), "stub");
	b->status = BR_BENCH_MEASURED;
	b->n = 5;
	b->summary.median = median;
	b->summary.p10 = median - 1;
	b->summary.p90 = median + 1;
	b->summary.p95 = median + 1;
	b->summary.p99 = median + 1;
	b->summary.min = median - 1;
	b->summary.max = median + 1;
	b->summary.mean = median;
	b->summary.mad = 0.5;
	b->summary.cv_median = 0.25;
	b->summary.outliers = 1;
	return b;
}

static void record_init(br_run_record_t *r)
{
	memset(r, 0, sizeof(*r));
	r->kind = BR_RECORD_RUN;
	r->status = BR_RECORD_COMPLETE;
	snprintf(r->timestamp, sizeof(r->timestamp), "2026-11-29T15:10:05Z");
	snprintf(r->host, sizeof(r->host), "rack 7");
	snprintf(r->board, sizeof(r->board), "board,a=b \"x\"");
	snprintf(r->server, sizeof(r->server), "qemu");
	snprintf(r->counter, sizeof(r->counter), "tim2");
	snprintf(r->unit, sizeof(r->unit), "instructions (QEMU icount)");
	snprintf(r->elf_path, sizeof(r->elf_path), "/build/benches/suite-O2.elf");
	snprintf(r->build_id, sizeof(r->build_id), "ab12");
	r->sizes_known = true;
	r->text_bytes = 4080;
	r->data_bytes = 864;
	r->bss_bytes = 6664;
	br_bench_record_t *b = add_bench(r, "crc 32", 655);
	b->stack_measured = true;
	b->stack_bytes = 44;
	b->heap_known = true;
	b->heap_peak = 128;
	b->heap_live = 0;
	b->heap_allocs = 2;
	br_bench_record_t *skipped = add_bench(r, "never", 1);
	skipped->status = BR_BENCH_NOT_RUN;
}

static void test_mapping(void)
{
	br_run_record_t r;
	record_init(&r);
	br_upload_points_t p;
	br_error_t err;
	CHECK(br_upload_points_map(&r, "x.json", &p, &err) == BR_OK);
	CHECK(p.time_ms == 1795965005000LL);
	CHECK(p.count == 2); /* the not-run bench has no series */
	CHECK(p.series[0].kind == BR_UPLOAD_SERIES_BENCH);
	CHECK(p.series[1].kind == BR_UPLOAD_SERIES_FIRMWARE);
	const br_upload_series_t *s = &p.series[0];
	for (size_t i = 1; i < s->label_count; i++)
		CHECK(strcmp(s->labels[i - 1].key, s->labels[i].key) < 0);
	CHECK(strcmp(br_upload_label_find(s->labels, s->label_count, "bench"), "crc 32") == 0);
	CHECK(strcmp(br_upload_label_find(s->labels, s->label_count, "firmware"),
		     "suite-O2.elf") == 0);
	CHECK(br_upload_label_find(s->labels, s->label_count, "suite") == NULL); /* empty: out */
	CHECK(br_upload_label_find(s->labels, s->label_count, "git_commit") == NULL);
	CHECK(br_upload_label_find(s->labels, s->label_count, "elf") == NULL);
	size_t count = 0;
	const br_upload_metric_t *m = br_upload_metrics(&count);
	const br_upload_value_t *median = br_upload_series_value(s, &m[0]);
	CHECK(median != NULL && median->value == 655 && !median->metric->integer);
	bool stack = false, calibration = false;
	for (size_t i = 0; i < s->value_count; i++) {
		stack = stack || (strcmp(s->values[i].metric->name, "stack_bytes") == 0 &&
				  s->values[i].value == 44 && s->values[i].metric->integer);
		calibration = calibration || strcmp(s->values[i].metric->name, "calibration") == 0;
	}
	CHECK(stack && !calibration);
	CHECK(p.series[1].value_count == 3 && p.series[1].values[0].value == 4080);
	br_upload_points_free(&p);
	snprintf(r.timestamp, sizeof(r.timestamp), "yesterday");
	CHECK(br_upload_points_map(&r, "x.json", &p, &err) == BR_ERR_INPUT);
	CHECK(strstr(err.message, "yesterday") != NULL);
	br_run_record_free(&r);
}

/* An entry for unmodified firmware is labelled by its own ELF, and its sizes
 * are a series of their own; a run without firmware of its own names none. */
static void test_entry_labels(void)
{
	br_run_record_t r;
	record_init(&r);
	br_bench_record_t *e = add_bench(&r, "app_work", 3002);
	snprintf(e->mode, sizeof(e->mode), "function");
	snprintf(e->elf_path, sizeof(e->elf_path), "fw/build/app.elf");
	e->has_firmware = true;
	snprintf(e->firmware.elf_path, sizeof(e->firmware.elf_path), "fw/build/app.elf");
	snprintf(e->firmware.build_id, sizeof(e->firmware.build_id), "5405");
	snprintf(e->firmware.git_commit, sizeof(e->firmware.git_commit), "c0ffee");
	e->firmware.sizes_known = true;
	e->firmware.text_bytes = 144;
	br_upload_points_t p;
	br_error_t err;
	CHECK(br_upload_points_map(&r, "x.json", &p, &err) == BR_OK);
	CHECK_MSG(p.count == 4, "series %zu", p.count); /* crc 32, app_work, 2 firmwares */
	const br_upload_series_t *s = &p.series[1];
	CHECK(strcmp(br_upload_label_find(s->labels, s->label_count, "bench"), "app_work") == 0);
	CHECK(strcmp(br_upload_label_find(s->labels, s->label_count, "firmware"), "app.elf") == 0);
	CHECK(strcmp(br_upload_label_find(s->labels, s->label_count, "build_id"), "5405") == 0);
	CHECK(strcmp(br_upload_label_find(s->labels, s->label_count, "git_commit"), "c0ffee") == 0);
	for (size_t i = 1; i < s->label_count; i++)
		CHECK(strcmp(s->labels[i - 1].key, s->labels[i].key) < 0);
	s = &p.series[0]; /* the stub bench keeps the suite image's */
	CHECK(strcmp(br_upload_label_find(s->labels, s->label_count, "firmware"), "suite-O2.elf") ==
	      0);
	s = &p.series[3];
	CHECK(s->kind == BR_UPLOAD_SERIES_FIRMWARE && s->values[0].value == 144 &&
	      strcmp(br_upload_label_find(s->labels, s->label_count, "firmware"), "app.elf") == 0);
	br_upload_points_free(&p);
	/* no firmware of the run's own: nothing of the suite image anywhere */
	r.no_firmware = true;
	CHECK(br_upload_points_map(&r, "x.json", &p, &err) == BR_OK);
	CHECK_MSG(p.count == 3, "series %zu", p.count);
	for (size_t i = 0; i < p.count; i++) {
		const char *fw =
		    br_upload_label_find(p.series[i].labels, p.series[i].label_count, "firmware");
		CHECK(p.series[i].kind == BR_UPLOAD_SERIES_BENCH
		          ? (i == 0 ? fw == NULL : strcmp(fw, "app.elf") == 0)
		          : strcmp(fw, "app.elf") == 0);
	}
	br_upload_points_free(&p);
	br_run_record_free(&r);
}

/* Tags: the bounded default (bench, board, unit); the provenance as string fields. */
static const char lp_want[] =
	"bm,bench=crc\\ 32,board=board\\,a\\=b\\ \"x\","
	"unit=instructions\\ (QEMU\\ icount) median=655,p10=654,p90=656,p95=656,p99=656,"
	"min=654,max=656,mean=655,mad=0.5,cv_median=0.25,n=5i,outliers=1i,stack_bytes=44i,"
	"heap_peak_bytes=128i,heap_live_bytes=0i,heap_allocations=2i,build_id=\"ab12\","
	"counter=\"tim2\",firmware=\"suite-O2.elf\",host=\"rack 7\",mode=\"stub\","
	"server=\"qemu\" 1795965005000\n"
	"bm_firmware,board=board\\,a\\=b\\ \"x\",unit=instructions\\ (QEMU\\ icount) "
	"text_bytes=4080i,data_bytes=864i,bss_bytes=6664i,build_id=\"ab12\",counter=\"tim2\","
	"firmware=\"suite-O2.elf\",host=\"rack 7\",server=\"qemu\" 1795965005000\n";

static void test_formats(void)
{
	br_run_record_t r;
	record_init(&r);
	br_upload_points_t p;
	br_error_t err;
	CHECK(br_upload_points_map(&r, "x.json", &p, &err) == BR_OK);
	char *text = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&text, &len);
	br_lp_write_points(f, "bm", &p, NULL);
	fclose(f);
	CHECK_MSG(strcmp(text, lp_want) == 0, "line protocol:\n%s", text);
	free(text);
	/* a sink that asks for build_id and host as tags gets them as tags */
	br_upload_labels_t chosen = {.extra = {"build_id", "host"}, .count = 2};
	f = br_upload_memstream(&text, &len);
	br_lp_write_points(f, "bm", &p, &chosen);
	fclose(f);
	CHECK_MSG(strstr(text, "bm,bench=crc\\ 32,board=board\\,a\\=b\\ \"x\",build_id=ab12,"
			       "host=rack\\ 7,unit=") == text &&
			  strstr(text, ",counter=\"tim2\",") != NULL &&
			  strstr(text, "build_id=\"") == NULL,
		  "line protocol with labels [build_id, host]:\n%s", text);
	free(text);
	const char *omit[] = {"board", "suite"};
	f = br_upload_memstream(&text, &len);
	br_prom_write_points(f, "benchrack", &p, omit, 2, NULL);
	fclose(f);
	CHECK(strstr(text, "# HELP benchrack_median ") != NULL);
	CHECK_MSG(strstr(text, "# TYPE benchrack_median gauge\nbenchrack_median{bench=\"crc 32\","
			       "unit=\"instructions (QEMU icount)\"} 655\n") != NULL,
		  "exposition:\n%s", text);
	CHECK(strstr(text, "benchrack_firmware_text_bytes{unit=") != NULL);
	CHECK(strstr(text, "benchrack_run_timestamp_seconds{unit=") != NULL);
	CHECK(strstr(text, "} 1795965005\n") != NULL);
	/* provenance only in the info metrics */
	CHECK_MSG(strstr(text, "benchrack_run_info{build_id=\"ab12\",counter=\"tim2\","
			       "firmware=\"suite-O2.elf\",host=\"rack 7\",server=\"qemu\","
			       "unit=\"instructions (QEMU icount)\"} 1\n") != NULL,
		  "run info:\n%s", text);
	CHECK(strstr(text, "benchrack_bench_info{bench=\"crc 32\",mode=\"stub\",") != NULL);
	size_t builds = 0;
	for (const char *q = text; (q = strstr(q, "build_id=")) != NULL; q++)
		builds++;
	CHECK_MSG(builds == 1, "build_id in run_info only (%zu)", builds);
	CHECK(strstr(text, "board=") == NULL); /* the URL carries it */
	free(text);
	br_upload_points_free(&p);
	br_run_record_free(&r);
}

static void test_retry(void)
{
	static const struct {
		br_http_failure_t failure;
		long status;
		br_upload_verdict_t verdict;
	} cases[] = {
		{BR_HTTP_OK, 200, BR_UPLOAD_DELIVERED},   {BR_HTTP_OK, 204, BR_UPLOAD_DELIVERED},
		{BR_HTTP_OK, 408, BR_UPLOAD_RETRY},       {BR_HTTP_OK, 429, BR_UPLOAD_RETRY},
		{BR_HTTP_OK, 500, BR_UPLOAD_RETRY},       {BR_HTTP_OK, 503, BR_UPLOAD_RETRY},
		{BR_HTTP_OK, 599, BR_UPLOAD_RETRY},       {BR_HTTP_OK, 400, BR_UPLOAD_REJECT},
		{BR_HTTP_OK, 401, BR_UPLOAD_REJECT},      {BR_HTTP_OK, 403, BR_UPLOAD_REJECT},
		{BR_HTTP_OK, 404, BR_UPLOAD_REJECT},      {BR_HTTP_OK, 422, BR_UPLOAD_REJECT},
		{BR_HTTP_OK, 301, BR_UPLOAD_REJECT},      {BR_HTTP_OK, 413, BR_UPLOAD_REJECT},
		{BR_HTTP_CONNECT, 0, BR_UPLOAD_RETRY},    {BR_HTTP_TIMEOUT, 0, BR_UPLOAD_RETRY},
		{BR_HTTP_CONNECTION, 0, BR_UPLOAD_RETRY}, {BR_HTTP_TLS, 0, BR_UPLOAD_STUCK},
		{BR_HTTP_LOCAL, 0, BR_UPLOAD_STUCK},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_MSG(br_upload_classify(cases[i].failure, cases[i].status) == cases[i].verdict,
			  "failure %d status %ld", cases[i].failure, cases[i].status);
	uint64_t state = 42;
	for (unsigned attempt = 1; attempt <= 40; attempt++) {
		unsigned d = 500U;
		for (unsigned k = 1; k < attempt && d < 8000U; k++)
			d *= 2U;
		if (d > 8000U)
			d = 8000U;
		const uint32_t randoms[] = {0, 1, UINT32_MAX, br_upload_random(&state)};
		for (size_t k = 0; k < 4; k++) {
			unsigned w = br_upload_backoff_ms(attempt, 500U, 8000U, randoms[k]);
			CHECK_MSG(w >= d / 2U && w <= d, "attempt %u wait %u cap %u", attempt, w,
				  d);
		}
	}
	CHECK(br_upload_backoff_ms(1, 500U, 8000U, 0) == 250U);
	CHECK(br_upload_backoff_ms(30, 500U, 8000U, UINT32_MAX) <= 8000U);
}

static void test_secret(void)
{
	br_upload_item_t item;
	memset(&item, 0, sizeof(item));
	item.sink = (char *)"lab";
	item.auth = BR_UPLOAD_AUTH_BEARER;
	item.token_env = (char *)"BR_TEST_TOKEN";
	br_upload_secret_t s;
	br_error_t err;
	unsetenv("BR_TEST_TOKEN");
	CHECK(br_upload_secret_load(&item, &s, &err) == BR_ERR_INPUT);
	CHECK(strstr(err.message, "BR_TEST_TOKEN") != NULL);
	setenv("BR_TEST_TOKEN", "bad\ntoken", 1);
	CHECK(br_upload_secret_load(&item, &s, &err) == BR_ERR_INPUT);
	CHECK(strstr(err.message, "bad") == NULL && strstr(err.message, "control") != NULL);
	setenv("BR_TEST_TOKEN", TOKEN, 1);
	CHECK(br_upload_secret_load(&item, &s, &err) == BR_OK);
	char header[256];
	br_http_request_t req;
	memset(&req, 0, sizeof(req));
	/* bearer and basic go through libcurl's options, never a header of ours */
	CHECK(!br_upload_secret_header(&item, &s, header, sizeof(header)) && header[0] == '\0');
	br_upload_secret_credentials(&item, &s, &req);
	CHECK(req.bearer != NULL && strcmp(req.bearer, TOKEN) == 0 && req.username == NULL);
	char text[256] = "server says: token " TOKEN " is bad; " TOKEN;
	br_upload_secret_redact(&s, text, sizeof(text));
	CHECK_MSG(strcmp(text, "server says: token [redacted] is bad; [redacted]") == 0, "%s",
		  text);
	char cut[64] = "echo: s3cr3t-T0"; /* a message cut short in the token */
	br_upload_secret_redact(&s, cut, sizeof(cut));
	CHECK_MSG(strcmp(cut, "echo: ") == 0, "%s", cut);
	char tiny[12]; /* the token cut by the buffer's end */
	memcpy(tiny, "x s3cr3t-T0", sizeof(tiny));
	br_upload_secret_redact(&s, tiny, sizeof(tiny));
	CHECK(strstr(tiny, "s3cr") == NULL);
	br_upload_secret_free(&s);
	item.auth = BR_UPLOAD_AUTH_BASIC;
	item.username = (char *)"admin";
	CHECK(br_upload_secret_load(&item, &s, &err) == BR_OK);
	CHECK(!br_upload_secret_header(&item, &s, header, sizeof(header)));
	memset(&req, 0, sizeof(req));
	br_upload_secret_credentials(&item, &s, &req);
	CHECK(req.bearer == NULL && strcmp(req.username, "admin") == 0 &&
	      strcmp(req.password, TOKEN) == 0);
	const char *b64 = "YWRtaW46czNjcjN0LVQwa2VuLXZhbHVl"; /* base64("admin:" TOKEN) */
	char echoed[256];
	snprintf(echoed, sizeof(echoed), "got %s", b64);
	br_upload_secret_redact(&s, echoed, sizeof(echoed));
	CHECK(strcmp(echoed, "got [redacted]") == 0);
	br_upload_secret_free(&s);
	item.auth = BR_UPLOAD_AUTH_TOKEN;
	CHECK(br_upload_secret_load(&item, &s, &err) == BR_OK);
	CHECK(br_upload_secret_header(&item, &s, header, sizeof(header)));
	CHECK(strcmp(header, "Authorization: Token " TOKEN) == 0);
	br_upload_secret_free(&s);
	item.auth = BR_UPLOAD_AUTH_HEADER;
	item.auth_header = (char *)"X-Api-Key";
	item.token_env = NULL;
	char path[] = "/tmp/br-upload-token-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, TOKEN "\n", strlen(TOKEN) + 1U) > 0);
	close(fd);
	item.token_file = path;
	CHECK(br_upload_secret_load(&item, &s, &err) == BR_OK);
	CHECK(br_upload_secret_header(&item, &s, header, sizeof(header)));
	CHECK(strcmp(header, "X-Api-Key: " TOKEN) == 0);
	br_upload_secret_free(&s);
	unlink(path);
	CHECK(br_upload_secret_load(&item, &s, &err) == BR_ERR_INPUT);
	CHECK(strstr(err.message, path) != NULL);
	unsetenv("BR_TEST_TOKEN");
}

static void fill_item(br_upload_item_t *item)
{
	memset(item, 0, sizeof(*item));
	item->id = strdup("20260101T000000.000Z-b--lab");
	item->sink = strdup("lab");
	item->kind = strdup("influxdb1");
	item->run_file = strdup("results/runs/x.json");
	item->spooled = strdup("2026-01-01T00:00:01.000Z");
	item->method = strdup("POST");
	item->url = strdup("http://127.0.0.1:8086/write?db=a%20b&precision=ms");
	item->content_type = strdup("text/plain; charset=utf-8");
	item->idempotency_key = strdup("benchrack-x");
	item->auth = BR_UPLOAD_AUTH_BASIC;
	item->username = strdup("admin");
	item->token_env = strdup("INFLUX_PASSWORD");
	item->connect_timeout_ms = 5000;
	item->timeout_ms = 15000;
	item->attempts = 3;
	item->last_error = strdup("HTTP 503: busy \"now\"");
	item->not_before_ms = 1795965005000LL;
	item->body = strdup("m,t=a\\ b\\,c f=1 1\nq,u=\"\\\\\" g=\xC3\xA4 2\t\x01 end\n");
	item->body_len = strlen(item->body);
}

static void test_item_json(void)
{
	br_upload_item_t item, back;
	fill_item(&item);
	char *text = NULL;
	size_t len = 0;
	FILE *f = br_upload_memstream(&text, &len);
	br_upload_item_write(&item, f);
	fclose(f);
	br_error_t err;
	CHECK_MSG(br_upload_item_parse("item.json", (const unsigned char *)text, len, &back,
				       &err) == BR_OK, "%s", err.message);
	CHECK(strcmp(back.body, item.body) == 0 && back.body_len == item.body_len);
	CHECK(strcmp(back.url, item.url) == 0 && strcmp(back.method, "POST") == 0);
	CHECK(back.auth == BR_UPLOAD_AUTH_BASIC && strcmp(back.username, "admin") == 0);
	CHECK(strcmp(back.token_env, "INFLUX_PASSWORD") == 0 && back.token_file == NULL);
	CHECK(back.attempts == 3 && back.not_before_ms == item.not_before_ms);
	CHECK(strcmp(back.last_error, item.last_error) == 0);
	CHECK(back.rejected_at == NULL && strcmp(back.kind, "influxdb1") == 0);
	br_upload_item_free(&back);
	/* the file opens with its kind and version; the sink's kind is sink_kind */
	static const char head[] = "{\n  \"kind\": \"upload_item\",\n  \"schema_version\": 2,\n";
	CHECK_MSG(strncmp(text, head, strlen(head)) == 0, "%.60s", text);
	CHECK(strstr(text, "\"sink_kind\": \"influxdb1\"") != NULL);
	free(text);
	/* a version 1 file (spooled before versioning) still reads, "kind" its sink's */
	static const char v1[] =
	    "{\"spool_version\": 1, \"id\": \"i\", \"sink\": \"lab\", \"kind\": \"webhook\", "
	    "\"run_file\": \"r.json\", \"spooled\": \"2026-01-01T00:00:01.000Z\", "
	    "\"method\": \"PUT\", \"url\": \"http://127.0.0.1:1/h\", \"content_type\": \"a/b\", "
	    "\"idempotency_key\": \"k\", \"auth\": null, \"ca_file\": null, "
	    "\"connect_timeout_ms\": 5, \"timeout_ms\": 6, \"attempts\": 2, \"last_error\": null, "
	    "\"not_before\": null, \"rejected\": {\"status\": 400, \"at\": \"x\", "
	    "\"message\": null}, \"body\": \"{}\"}";
	CHECK_MSG(br_upload_item_parse("v1.json", (const unsigned char *)v1, strlen(v1), &back,
	                               &err) == BR_OK,
	          "%s", err.message);
	CHECK(back.kind != NULL && strcmp(back.kind, "webhook") == 0 &&
	      strcmp(back.method, "PUT") == 0 && back.attempts == 2 && back.rejected_status == 400);
	br_upload_item_free(&back);
	static const struct {
		const char *text, *where;
	} bad[] = {
		{"{\"spool_version\": 2}", "item.json: spool_version: 2 is out of range"},
		{"[1]", "item.json: the file holds a list"},
		{"{\"spool_version\": 1, \"spool_version\": 1}", "item.json:1:36: duplicate object key"},
		{"{\"spool_version\": 18446744073709551617}", "item.json:1:38: too big integer"},
		{"{\"spool_version\": 1, \"id\": \"x\", \"token\": \"t\"}", "unknown key 'token'"},
		{"{\"kind\": \"upload_item\", \"schema_version\": 3}",
		 "item.json: schema_version: 3 is out of range"},
		{"{\"kind\": \"measurement\", \"schema_version\": 2}", "expected one of: upload_item"},
		{"{\"schema_version\": 2, \"id\": \"x\"}", "'kind'"},
		{"{\"spool_version\": 1, \"sink_kind\": \"webhook\"}", "unknown key 'sink_kind'"},
		{"{\"kind\": \"upload_item\", \"schema_version\": 2, \"spool_version\": 1}",
		 "unknown key 'schema_version'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(br_upload_item_parse("item.json", (const unsigned char *)bad[i].text,
					   strlen(bad[i].text), &back, &err) == BR_ERR_INPUT);
		CHECK_MSG(strstr(err.message, bad[i].where) != NULL, "%s", err.message);
	}
	br_upload_item_free(&item);
}

static void test_spool(void)
{
	char dir[] = "/tmp/br-upload-spool-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	br_upload_spool_t sp, other;
	br_error_t err;
	CHECK(br_upload_spool_open(&sp, dir, true, &err) == BR_OK);
	br_upload_item_t item;
	fill_item(&item);
	CHECK(br_upload_spool_put(&sp, &item, &err) == BR_OK);
	free(item.id);
	item.id = strdup("20250101T000000.000Z-b--lab");
	CHECK(br_upload_spool_put(&sp, &item, &err) == BR_OK);
	char **ids = NULL;
	size_t count = 0;
	CHECK(br_upload_spool_list(&sp, false, &ids, &count, &err) == BR_OK);
	CHECK(count == 2 && strcmp(ids[0], "20250101T000000.000Z-b--lab") == 0);
	br_upload_spool_ids_free(ids, count);
	CHECK(br_upload_spool_lock(&sp, &err) == BR_OK);
	CHECK(br_upload_spool_open(&other, dir, false, &err) == BR_OK);
	CHECK(br_upload_spool_lock(&other, &err) == BR_ERR_INFRA);
	br_upload_spool_unlock(&sp);
	CHECK(br_upload_spool_lock(&other, &err) == BR_OK);
	br_upload_spool_unlock(&other);
	item.rejected_status = 400;
	item.rejected_at = strdup("2026-01-01T00:00:02.000Z");
	item.rejected_message = strdup("HTTP 400: field type conflict");
	CHECK(br_upload_spool_reject(&sp, &item, &err) == BR_OK);
	CHECK(br_upload_spool_list(&sp, false, &ids, &count, &err) == BR_OK && count == 1);
	br_upload_spool_ids_free(ids, count);
	CHECK(br_upload_spool_list(&sp, true, &ids, &count, &err) == BR_OK && count == 1);
	char path[2048];
	br_upload_spool_path(&sp, true, ids[0], path, sizeof(path));
	br_upload_spool_ids_free(ids, count);
	br_upload_item_t back;
	CHECK(br_upload_item_read(path, &back, &err) == BR_OK);
	CHECK(back.rejected_status == 400 && strstr(back.rejected_message, "conflict") != NULL);
	br_upload_item_free(&back);
	CHECK(br_upload_spool_remove(&sp, "20260101T000000.000Z-b--lab", &err) == BR_OK);
	CHECK(br_upload_spool_list(&sp, false, &ids, &count, &err) == BR_OK && count == 0);
	br_upload_spool_ids_free(ids, count);
	br_upload_item_free(&item);
	/* a pass over a spool whose server is not there ends by its deadline */
	fill_item(&item);
	free(item.url);
	item.url = strdup("http://127.0.0.1:9/write");
	item.auth = BR_UPLOAD_AUTH_NONE;
	CHECK(br_upload_spool_put(&sp, &item, &err) == BR_OK);
	br_upload_config_t cfg;
	const char *yaml = "sinks:\n  - {name: lab, kind: influxdb1, url: 'http://127.0.0.1:9',\n"
			   "     database: d, username: u, token_env: BR_TEST_CONFIG_TOKEN}\n";
	CHECK(br_upload_config_parse("up.yaml", (const unsigned char *)yaml, strlen(yaml), &cfg,
				     &err) == BR_OK);
	setenv("BR_TEST_CONFIG_TOKEN", TOKEN, 1);
	br_upload_pass_t pass = {.results_dir = dir,
				 .section = &cfg.section,
				 .config_dir = "/cfg",
				 .limits = {.max_total_ms = 700, .max_attempts = 100,
					    .retry_initial_ms = 50, .retry_max_ms = 200},
				 .user_agent = "test", .seed = 7};
	br_upload_report_t report;
	int64_t start = br_clock_ms();
	CHECK(br_upload_deliver(&pass, &report, &err) == BR_OK);
	int64_t took = br_clock_ms() - start;
	CHECK_MSG(took < 1500, "took %lld ms", (long long)took);
	CHECK(report.count == 1 && report.items[0].kind == BR_UPLOAD_OUT_PENDING);
	CHECK(report.items[0].attempts >= 2 && report.items[0].total_attempts > 3);
	CHECK(strstr(report.items[0].message, "no connection") != NULL);
	br_upload_report_free(&report);
	br_upload_spool_path(&sp, false, item.id, path, sizeof(path));
	CHECK(br_upload_item_read(path, &back, &err) == BR_OK && back.attempts > 3);
	/* sent as the configuration says, whatever the file said (auth none) */
	CHECK(back.auth == BR_UPLOAD_AUTH_BASIC && strcmp(back.username, "u") == 0 &&
	      strcmp(back.token_env, "BR_TEST_CONFIG_TOKEN") == 0);
	br_upload_item_free(&back);
	/* a second upload for the sink behind it is not tried, and says whose it
	 * is: "lab (influxdb1)", never an empty kind (issue 12) */
	br_upload_item_set(&item.id, "20260101T000001.000Z-b--lab");
	CHECK(br_upload_spool_put(&sp, &item, &err) == BR_OK);
	pass.limits.max_attempts = 1;
	CHECK(br_upload_deliver(&pass, &report, &err) == BR_OK);
	CHECK_MSG(report.count == 2 && report.items[1].kind == BR_UPLOAD_OUT_DEFERRED &&
			  strcmp(report.items[1].sink, "lab") == 0 &&
			  strcmp(report.items[1].sink_kind, "influxdb1") == 0,
		  "%zu outcomes; the second: %s (%s)", report.count,
		  report.count > 1 ? report.items[1].sink : "",
		  report.count > 1 ? report.items[1].sink_kind : "");
	br_upload_report_free(&report);
	CHECK(br_upload_spool_remove(&sp, item.id, &err) == BR_OK);
	CHECK(br_upload_spool_remove(&sp, "20260101T000000.000Z-b--lab", &err) == BR_OK);
	br_upload_item_free(&item);

	/* planted items (issue 12): each is refused, kept, and says why; none is
	 * sent (nothing listens on 127.0.0.1:9, so a send would show as "no
	 * connection" and an attempt) */
	static const struct {
		const char *id, *sink, *kind, *url, *why;
	} planted[] = {
		{"p1--lab", "lab", "influxdb1", "http://127.0.0.2:9/write", "is not under sink"},
		{"p2--lab", "lab", "webhook", "http://127.0.0.1:9/write", "of kind influxdb1"},
		{"p3--other", "other", "influxdb1", "http://127.0.0.1:9/write", "names no sink"},
		{"p4--lab", "lab", "influxdb1", "http://127.0.0.1.example.invalid:9/write",
		 "is not under sink"},
	};
	for (size_t i = 0; i < sizeof(planted) / sizeof(planted[0]); i++) {
		fill_item(&item);
		br_upload_item_set(&item.id, planted[i].id);
		br_upload_item_set(&item.sink, planted[i].sink);
		br_upload_item_set(&item.kind, planted[i].kind);
		br_upload_item_set(&item.url, planted[i].url);
		br_upload_item_set(&item.token_env, "BR_TEST_OTHER_SECRET");
		item.attempts = 0;
		CHECK(br_upload_spool_put(&sp, &item, &err) == BR_OK);
		br_upload_item_free(&item);
	}
	/* and one whose id would lead out of the spool */
	fill_item(&item);
	br_upload_item_set(&item.id, "p5--lab");
	br_upload_item_set(&item.url, "http://127.0.0.2:9/write");
	item.attempts = 0;
	CHECK(br_upload_spool_put(&sp, &item, &err) == BR_OK);
	br_upload_item_set(&item.id, "../../escaped");
	br_upload_spool_path(&sp, false, "p5--lab", path, sizeof(path));
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	br_upload_item_write(&item, f);
	fclose(f);
	br_upload_item_free(&item);
	CHECK(br_upload_deliver(&pass, &report, &err) == BR_OK);
	CHECK_MSG(report.count == 5, "%zu outcomes", report.count);
	for (size_t i = 0; i < report.count; i++) {
		const br_upload_outcome_t *o = &report.items[i];
		CHECK_MSG(o->kind == BR_UPLOAD_OUT_REFUSED && o->attempts == 0 &&
				  strncmp(o->message, "refused: ", 9) == 0 && o->sink_kind[0] != '\0',
			  "%s: kind %d, %u attempts: %s", o->id, (int)o->kind, o->attempts,
			  o->message);
		for (size_t k = 0; k < sizeof(planted) / sizeof(planted[0]); k++) {
			if (strcmp(o->id, planted[k].id) == 0)
				CHECK_MSG(strstr(o->message, planted[k].why) != NULL, "%s: %s",
					  o->id, o->message);
		}
		br_upload_spool_path(&sp, false, o->id, path, sizeof(path));
		CHECK(br_upload_item_read(path, &back, &err) == BR_OK && back.attempts == 0 &&
		      back.last_error != NULL && strncmp(back.last_error, "refused: ", 9) == 0);
		br_upload_item_free(&back);
	}
	br_upload_report_free(&report);
	char escaped[4200];
	snprintf(escaped, sizeof(escaped), "%s/../escaped.json", dir);
	CHECK(access(escaped, F_OK) != 0);
	/* after a run (others_left): another configuration's item is left alone
	 * and unreported; one claiming this configuration's sink is refused */
	pass.others_left = true;
	CHECK(br_upload_deliver(&pass, &report, &err) == BR_OK);
	CHECK_MSG(report.count == 4 &&
			  br_upload_report_count(&report, BR_UPLOAD_OUT_REFUSED) == 4,
		  "%zu outcomes", report.count);
	for (size_t i = 0; i < report.count; i++)
		CHECK(strcmp(report.items[i].id, "p3--other") != 0);
	br_upload_report_free(&report);
	pass.others_left = false;
	/* with no configuration at all, nothing goes anywhere */
	pass.section = NULL;
	CHECK(br_upload_deliver(&pass, &report, &err) == BR_OK);
	CHECK(report.count == 5 &&
	      br_upload_report_count(&report, BR_UPLOAD_OUT_REFUSED) == report.count);
	br_upload_report_free(&report);
	unsetenv("BR_TEST_CONFIG_TOKEN");
	br_upload_config_free(&cfg);
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* --- the upload config ----------------------------------------------------- */

static br_status_t parse_config(const char *yaml, br_upload_config_t *cfg, br_error_t *err)
{
	return br_upload_config_parse("up.yaml", (const unsigned char *)yaml, strlen(yaml), cfg,
				      err);
}

static void render_sink(const br_upload_config_t *cfg, size_t i, const br_upload_source_t *src,
			br_upload_item_t *item)
{
	const br_upload_sink_t *sink = br_upload_section_sink(&cfg->section, i);
	br_upload_render(&cfg->section, sink, "/cfg", src, item);
}

static void test_config(void)
{
	br_upload_config_t cfg;
	br_error_t err;
	const char *good =
		"max_total_seconds: 10\n"
		"sinks:\n"
		"  - {name: lab, kind: influxdb1, url: 'http://127.0.0.1:8086', database: b,\n"
		"     username: admin, token_env: INFLUX_PASSWORD, retention_policy: 'a b'}\n"
		"  - {name: two, kind: influxdb2, url: 'https://influx:8086/', org: o,\n"
		"     bucket: 'x/y', token_file: tok}\n"
		"  - {name: pg, kind: pushgateway, url: 'http://127.0.0.1:9091',\n"
		"     grouping: [board, host], job: 'my job', labels: [git_commit, mode]}\n"
		"  - {name: bencher, kind: bencher, project: fw, branch: main, token_env: BT}\n"
		"  - {name: hook, kind: webhook, url: 'https://h.example/x?y=1', token_env: HT,\n"
		"     token_header: X-Api-Key}\n";
	CHECK_MSG(parse_config(good, &cfg, &err) == BR_OK, "%s", err.message);
	CHECK(cfg.section.sinks.count == 5);
	br_upload_limits_t l = br_upload_section_limits(&cfg.section);
	CHECK(l.max_total_ms == 10000U && l.max_attempts == 5U);
	const br_upload_sink_t *lab = br_upload_section_sink(&cfg.section, 0);
	CHECK(br_upload_sink_connect_timeout_ms(&cfg.section, lab) == 5000U);
	br_upload_labels_t chosen;
	br_upload_render_labels(lab, &chosen);
	CHECK(chosen.count == 0);
	br_upload_render_labels(br_upload_section_sink(&cfg.section, 2), &chosen);
	CHECK(chosen.count == 2 && strcmp(chosen.extra[0], "git_commit") == 0 &&
	      strcmp(chosen.extra[1], "mode") == 0);

	/* each kind's request */
	br_run_record_t r;
	record_init(&r);
	br_upload_points_t p;
	CHECK(br_upload_points_map(&r, "x.json", &p, &err) == BR_OK);
	br_upload_source_t src = {&r, "results/runs/20261129T151005.716Z-b.json", &p};
	br_upload_item_t item;
	br_upload_render(&cfg.section, lab, "/cfg", &src, &item);
	CHECK(strcmp(item.url, "http://127.0.0.1:8086/write?db=b&rp=a%20b&precision=ms") == 0);
	CHECK(item.auth == BR_UPLOAD_AUTH_BASIC && strcmp(item.username, "admin") == 0);
	CHECK(strcmp(item.id, "20261129T151005.716Z-b--lab") == 0);
	CHECK(strcmp(item.body, lp_want + 0) != 0 && strncmp(item.body, "benchrack,", 10) == 0);
	br_upload_item_free(&item);
	render_sink(&cfg, 1, &src, &item);
	CHECK_MSG(strcmp(item.url, "https://influx:8086/api/v2/write?org=o&bucket=x%2Fy&"
				   "precision=ms") == 0, "%s", item.url);
	CHECK(item.auth == BR_UPLOAD_AUTH_TOKEN && strcmp(item.token_file, "/cfg/tok") == 0);
	br_upload_item_free(&item);
	render_sink(&cfg, 2, &src, &item);
	/* "board,a=b \"x\"" is no plain path segment: base64url; "my job" neither */
	CHECK_MSG(strcmp(item.url, "http://127.0.0.1:9091/metrics/job@base64/bXkgam9i"
				   "/board@base64/Ym9hcmQsYT1iICJ4Ig==/host@base64/cmFjayA3") == 0,
		  "%s", item.url);
	CHECK(strcmp(item.method, "PUT") == 0 && item.auth == BR_UPLOAD_AUTH_NONE);
	CHECK(strstr(item.body, "host=") == NULL && strstr(item.body, "board=") == NULL);
	br_upload_item_free(&item);
	render_sink(&cfg, 3, &src, &item);
	CHECK(strcmp(item.url, "https://api.bencher.dev/v0/projects/fw/reports") == 0);
	CHECK(item.auth == BR_UPLOAD_AUTH_BEARER && strstr(item.body, "\"hash\"") == NULL);
	CHECK(strstr(item.body, "\"testbed\": \"board,a=b \\\"x\\\"\"") != NULL);
	CHECK(strstr(item.body, "\"start_time\": \"2026-11-29T15:10:05.000Z\"") != NULL);
	br_upload_item_free(&item);
	snprintf(r.git_commit, sizeof(r.git_commit), "0123456789abcdef0123456789abcdef01234567");
	render_sink(&cfg, 3, &src, &item);
	CHECK(strstr(item.body, "\"hash\": \"0123456789abcdef") != NULL);
	br_upload_item_free(&item);
	render_sink(&cfg, 4, &src, &item);
	CHECK(strcmp(item.url, "https://h.example/x?y=1") == 0);
	CHECK(item.auth == BR_UPLOAD_AUTH_HEADER && strcmp(item.auth_header, "X-Api-Key") == 0);
	CHECK(strncmp(item.body, "{\n  \"schema_version\": 3,", 24) == 0);
	br_upload_item_free(&item);
	br_upload_points_free(&p);
	br_run_record_free(&r);
	br_upload_config_free(&cfg);

	static const struct {
		const char *yaml, *want;
	} bad[] = {
		{"sinks:\n  - {name: a, kind: influxdb1, url: 'http://x', database: d, token: "
		 "hunter2}\n",
		 "up.yaml:2:69: sink 'a': a token written in the config file"},
		{"sinks:\n  - {name: a, kind: influxdb1, url: 'http://x', database: d, password: "
		 "hunter2}\n",
		 "up.yaml:2:72: sink 'a': a password written"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://x', insecure: true}\n",
		 "up.yaml:2:47: unknown key 'insecure' in sinks[0] (kind webhook)"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://x', verify_tls: false}\n",
		 "unknown key 'verify_tls'"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://user:pw@x/h'}\n",
		 "up.yaml:2:35: url of sink 'a' carries credentials"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://lab.example/h',\n"
		 "     token_env: T}\n",
		 "would send its token unencrypted"},
		/* look-alike local hosts (issue 12): only loopback literals and localhost */
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://127.0.0.1.example.invalid/h',\n"
		 "     token_env: T}\n",
		 "would send its token unencrypted"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://127.evil.example/h',\n"
		 "     token_env: T}\n",
		 "would send its token unencrypted"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://localhost.example/h',\n"
		 "     token_env: T}\n",
		 "would send its token unencrypted"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'ftp://x/h'}\n",
		 "is not an http(s) URL"},
		{"sinks:\n  - {name: a, kind: influxdb1, url: 'http://x?db=y', database: d}\n",
		 "has a ?query"},
		{"sinks:\n  - {name: a, kind: bencher, project: p, branch: b}\n",
		 "up.yaml:2:5: sink 'a' (bencher) needs a token"},
		{"sinks:\n  - {name: a, kind: influxdb2, url: 'http://x', bucket: b,\n"
		 "     token_env: T}\n",
		 "lacks required key 'org'"},
		{"sinks:\n  - {name: a, kind: pushgateway}\n", "lacks required key 'url'"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://x', token_env: T,\n"
		 "     token_file: f}\n",
		 "has both token_env and token_file"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://x', token_env: '1BAD'}\n",
		 "is not an environment variable name"},
		{"sinks:\n  - {name: 'a b', kind: webhook, url: 'http://x'}\n",
		 "cannot name a file"},
		{"sinks:\n  - {name: a, kind: webhook, url: 'http://x'}\n  - {name: a, kind: "
		 "webhook, url: 'http://y'}\n",
		 "up.yaml:3:12: sink 'a' listed twice"},
		{"sinks:\n  - {name: a, kind: pushgateway, url: 'http://x', metric_prefix: '9x'}\n",
		 "is not a Prometheus metric name"},
		{"sinks:\n  - {name: a, kind: pushgateway, url: 'http://x',\n"
		 "     grouping: [board, board]}\n",
		 "grouping lists 'board' twice"},
		{"sinks:\n  - {name: a, kind: influxdb2, url: 'http://x', org: o, bucket: b,\n"
		 "     labels: [commit]}\n",
		 "expected one of: build_id, counter, elf"},
		{"sinks:\n  - {name: a, kind: influxdb1, url: 'http://x', database: d,\n"
		 "     measurement: '#m'}\n",
		 "cannot be written in line protocol"},
		{"sinks:\n  - {name: a, kind: carrier-pigeon, url: 'http://x'}\n",
		 "'carrier-pigeon' is not allowed; expected one of: influxdb1, influxdb2"},
		{"sinks: []\n", "sinks has 0 items"},
		{"max_total_seconds: 0\nsinks:\n  - {name: a, kind: webhook, url: 'http://x'}\n",
		 "up.yaml:1:20: max_total_seconds: 0 is out of range"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		br_error_clear(&err);
		CHECK(parse_config(bad[i].yaml, &cfg, &err) == BR_ERR_INPUT);
		CHECK_MSG(strstr(err.message, bad[i].want) != NULL, "case %zu: %s", i, err.message);
		CHECK(strstr(err.message, "hunter2") == NULL);
	}
}

int main(void)
{
	test_escaped();
	test_sink_url();
	test_line_protocol_escaping();
	test_prometheus_escaping();
	test_timestamps();
	test_numbers();
	test_mapping();
	test_entry_labels();
	test_formats();
	test_retry();
	test_secret();
	test_item_json();
	test_spool();
	test_config();
	return check_finish();
}
