#include "run/board_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "measure/calibration.h"
#include "measure/host_batch.h"
#include "measure/suite_run.h"
#include "results/paths.h"
#include "results/record_read.h"
#include "results/run_json.h"
#include "run/board_target.h"
#include "run/elf_entry.h"
#include "run/provenance.h"
#include "run/run_checks.h"
#include "run/runner.h"
#include "stats/summary.h"

#define BOARD_RUN_MS_PER_S 1000

/* What the per-bench callback needs to keep results as they come. */
typedef struct keeper {
	const br_run_settings_t *s;
	const br_suite_t *suite; /* NULL without a suite file */
	br_board_run_t *run;
	const br_counter_state_t *counter; /* as started on the board */
	const char *current; /* the bench running now */
	uint32_t warmup;    /* host benches: the warm-up they ran with */
	unsigned current_index;
	bool counted;       /* any sample of any bench was not zero */
	size_t sampled;     /* samples of all benches */
	int64_t started_ms;
	bool save_failed;
	br_error_t save_error;
} keeper_t;

static void progress(const br_run_settings_t *s, unsigned index, unsigned count, const char *name)
{
	if (s->progress != NULL)
		s->progress(s->progress_ctx, index, count, name);
}

static void progress_done(const br_run_settings_t *s)
{
	if (s->progress_done != NULL)
		s->progress_done(s->progress_ctx);
}

static void notice(const br_run_settings_t *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void notice(const br_run_settings_t *s, const char *fmt, ...)
{
	if (s->notice == NULL)
		return;
	char text[BR_ERROR_MESSAGE_BYTES];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	s->notice(s->notice_ctx, text);
}

static br_limit_t limit_of(const br_cfg_uint_t *u)
{
	br_limit_t l = {u->set, u->value};
	return l;
}

static br_budgets_t budgets_of(const br_suite_budgets_t *b)
{
	br_budgets_t out = {limit_of(&b->max_stack_bytes), limit_of(&b->max_heap_bytes),
			    limit_of(&b->max_cycles_per_iteration), limit_of(&b->max_text_bytes)};
	return out;
}

static const br_suite_bench_t *suite_bench(const br_suite_t *suite, const char *name)
{
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++) {
		if (strcmp(suite->benches[i].name.value, name) == 0)
			return &suite->benches[i];
	}
	return NULL;
}

/* Saves the record where the run keeps it; the first failure is remembered. */
static void keep(keeper_t *k)
{
	br_error_t err;
	br_error_clear(&err);
	if (br_run_json_save(&k->run->record, k->run->run_path, &err) != BR_OK && !k->save_failed) {
		k->save_failed = true;
		k->save_error = err;
	}
}

static void on_progress(void *ctx, unsigned index, unsigned count, const char *name)
{
	keeper_t *k = ctx;
	k->started_ms = br_clock_ms();
	k->current = name;
	k->current_index = index;
	progress(k->s, index, count, name);
}

/*
 * Stub benches are calibrated by the suite's empty bench (the loop's own
 * overhead): once it is measured, every stub bench of the record carries its
 * median, so that tables show figures raw and net of it.
 */
static void apply_stub_calibration(br_run_record_t *rec)
{
	const br_bench_record_t *empty = NULL;
	for (size_t i = 0; i < rec->bench_count && empty == NULL; i++) {
		const br_bench_record_t *b = &rec->benches[i];
		if (b->status == BR_BENCH_MEASURED && strcmp(b->mode, "stub") == 0 &&
		    strcmp(b->name, BR_CALIBRATION_EMPTY_BENCH) == 0)
			empty = b;
	}
	if (empty == NULL)
		return;
	for (size_t i = 0; i < rec->bench_count; i++) {
		br_bench_record_t *b = &rec->benches[i];
		if (b->status != BR_BENCH_MEASURED || strcmp(b->mode, "stub") != 0)
			continue;
		b->calibrated = true;
		b->calibration_median = empty->summary.median;
		snprintf(b->calibration_method, sizeof(b->calibration_method), "%s",
			 br_calibration_method_text(BR_CALIBRATION_STUB_EMPTY));
	}
}

/* A bench finished: the wrap check, then its statistics go into the record,
 * and the record to disk; whether the counter counted at all is judged over
 * the whole run (run_checks.h). */
static br_status_t on_bench_done(void *ctx, const br_suite_bench_request_t *req,
				 const br_stub_result_t *r, br_error_t *err)
{
	keeper_t *k = ctx;
	(void)err;
	k->counted = k->counted || br_run_any_counted(r->samples, r->count);
	k->sampled += r->count;
	br_bench_record_t *b = br_run_record_add_bench(&k->run->record);
	snprintf(b->name, sizeof(b->name), "%s", req->name);
	snprintf(b->mode, sizeof(b->mode), "stub");
	b->status = BR_BENCH_MEASURED;
	b->n = r->count;
	b->warmup = req->warmup;
	b->samples = xcalloc(r->count == 0 ? 1U : r->count, sizeof(b->samples[0]));
	memcpy(b->samples, r->samples, r->count * sizeof(b->samples[0]));
	bool watermark = k->suite == NULL || k->suite->stack_watermark;
	b->stack_measured = watermark && r->stack_bytes != BR_CB_NOT_MEASURED;
	b->stack_bytes = b->stack_measured ? r->stack_bytes : 0U;
	b->heap_known = true;
	b->heap_peak = r->heap_peak;
	b->heap_live = r->heap_live;
	b->heap_allocs = r->heap_allocs;
	b->halts = r->halts;
	b->wall_seconds = (double)(br_clock_ms() - k->started_ms) / BOARD_RUN_MS_PER_S;
	const br_suite_bench_t *sb = suite_bench(k->suite, req->name);
	if (sb != NULL) {
		br_suite_budgets_t budgets = br_suite_bench_budgets(k->suite, sb);
		b->budgets = budgets_of(&budgets);
		b->budgets.max_text_bytes.set = false;
	}
	bool *measured = xcalloc(r->count == 0 ? 1U : r->count, sizeof(bool));
	size_t lost = br_run_check_wrap(k->counter, r, measured);
	free(measured);
	double *values = xcalloc(r->count == 0 ? 1U : r->count, sizeof(double));
	for (uint32_t i = 0; i < r->count; i++)
		values[i] = (double)r->samples[i];
	br_error_t why;
	if (lost > 0) {
		b->status = BR_BENCH_NOT_RUN;
		br_run_wrap_reason(k->counter, r, b->reason, sizeof(b->reason));
	} else if (br_stats_summarize(values, r->count, &b->summary, &why) != BR_OK) {
		b->status = BR_BENCH_NOT_RUN;
		snprintf(b->reason, sizeof(b->reason), "no samples: %.200s", why.message);
	}
	free(values);
	apply_stub_calibration(&k->run->record);
	keep(k);
	return BR_OK;
}

/* The iterations and warm-up of a suite's stub bench (settings first). */
static br_suite_bench_request_t bench_request(const br_run_settings_t *s, const br_suite_t *suite,
					      const br_suite_bench_t *b)
{
	br_suite_bench_request_t req = {
		.name = b->name.value,
		.iterations = b->iterations.set ? (uint32_t)b->iterations.value : suite->iterations,
		.warmup = b->warmup_runs.set ? (uint32_t)b->warmup_runs.value : suite->warmup,
	};
	if (s->iterations_set)
		req.iterations = s->iterations;
	if (s->warmup_set)
		req.warmup = s->warmup;
	return req;
}

/* A bench that did not come back within its timeout (run_checks.h): on a
 * board that answers, a test failure kept as the bench's record. */
static br_status_t classify_timeout(br_runner_t *runner, br_board_run_t *run, const char *bench,
				    int timeout_ms, br_error_t *err)
{
	char what[BR_CB_NAME_BYTES + 16U];
	snprintf(what, sizeof(what), "bench %s", bench);
	br_status_t st = br_run_classify_timeout(br_runner_target(runner), what, timeout_ms, err);
	if (st != BR_ERR_REGRESSION)
		return st;
	br_bench_record_t *b = br_run_record_add_bench(&run->record);
	snprintf(b->name, sizeof(b->name), "%s", bench);
	snprintf(b->mode, sizeof(b->mode), "stub");
	b->status = BR_BENCH_NOT_RUN;
	snprintf(b->reason, sizeof(b->reason), "%.250s", err->message + strlen(what) + 1U);
	run->bench_timed_out = true;
	return st;
}

/* Whether the record holds a bench called name. */
static bool recorded(const br_run_record_t *rec, const char *name)
{
	for (size_t i = 0; i < rec->bench_count; i++) {
		if (strcmp(rec->benches[i].name, name) == 0)
			return true;
	}
	return false;
}

static void add_not_run(br_board_run_t *run, const char *name, const char *why)
{
	br_bench_record_t *b = br_run_record_add_bench(&run->record);
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->mode, sizeof(b->mode), "stub");
	b->status = BR_BENCH_NOT_RUN;
	snprintf(b->reason, sizeof(b->reason), "%.*s", (int)sizeof(b->reason) - 1, why);
}

/* The suite stopped at the bench k->current (err says why): it and every
 * bench after it are kept as not run, with the reason, never as figures. */
static void mark_unfinished(keeper_t *k, const br_suite_bench_request_t *reqs, size_t count,
			    const br_error_t *err)
{
	if (k->current == NULL)
		return;
	const char *stopped = k->current;
	if (!recorded(&k->run->record, stopped))
		add_not_run(k->run, stopped, err->message);
	for (size_t i = (size_t)k->current_index + 1U; i < count; i++) {
		char why[BR_RECORD_TEXT];
		snprintf(why, sizeof(why), "not reached: the suite stopped at bench %.100s", stopped);
		if (!recorded(&k->run->record, reqs[i].name))
			add_not_run(k->run, reqs[i].name, why);
	}
	keep(k);
}

/* The stub benches of the suite in order (every bench of the firmware
 * without a suite), on one runner: the firmware loaded once. */
static br_status_t measure_stub_benches(const br_run_settings_t *s, const br_suite_t *suite,
					br_board_run_t *run, br_error_t *err)
{
	br_elf_t *elf = NULL;
	br_stub_layout_t layout;
	br_status_t st = br_elf_open(run->record.elf_path, &elf, err);
	if (st != BR_OK)
		return st;
	st = br_stub_layout_from_elf(elf, &layout, err);
	br_elf_close(elf);
	if (st != BR_OK)
		return st;

	size_t room = suite != NULL ? suite->bench_count + 1U : 1U;
	br_suite_bench_request_t *reqs = xcalloc(room, sizeof(*reqs));
	size_t count = 0;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++) {
		if (suite->benches[i].kind == BR_SUITE_ENTRY_STUB)
			reqs[count++] = bench_request(s, suite, &suite->benches[i]);
	}
	br_endpoint_t ep;
	br_counter_t counter;
	br_board_counter(&run->board, &counter);
	st = br_run_settings_endpoint(s, &run->board, run->record.elf_path, &ep, err);
	br_runner_options_t ro = {
		.endpoint = &ep,
		.elf_path = run->record.elf_path,
		.load = run->board.load,
		.counter = &counter,
		.output = s->firmware_output,
		.output_ctx = s->firmware_output_ctx,
		.load_progress = s->load_progress,
		.load_progress_ctx = s->load_progress_ctx,
	};
	br_runner_t runner;
	if (st == BR_OK)
		st = br_runner_open(&ro, &runner, err);
	if (st == BR_OK) {
		keeper_t k = {.s = s, .suite = suite, .run = run, .counter = &runner.counter};
		br_suite_options_t opts;
		br_suite_options_default(&opts);
		opts.elf_path = run->record.elf_path;
		opts.layout = &layout;
		opts.counter = &runner.counter;
		opts.benches = suite != NULL ? reqs : NULL;
		opts.bench_count = count;
		if (s->iterations_set)
			opts.default_iterations = s->iterations;
		if (s->warmup_set)
			opts.default_warmup = s->warmup;
		if (suite != NULL)
			opts.bench_timeout_ms = (int)suite->timeout_seconds * BOARD_RUN_MS_PER_S;
		if (s->timeout_s > 0)
			opts.bench_timeout_ms = s->timeout_s * BOARD_RUN_MS_PER_S;
		opts.progress = on_progress;
		opts.progress_ctx = &k;
		opts.bench_done = on_bench_done;
		opts.bench_done_ctx = &k;
		st = br_suite_measure(&opts, br_runner_target(&runner), err);
		if (st == BR_ERR_TIMEOUT && k.current != NULL)
			st = classify_timeout(&runner, run, k.current, opts.bench_timeout_ms, err);
		if (st == BR_OK)
			st = br_run_check_counting(&runner.counter, k.counted, k.sampled,
						   "any bench ran", err);
		if (st != BR_OK) {
			br_runner_explain(&runner, err);
			mark_unfinished(&k, reqs, suite != NULL ? count : 0, err);
		}
		br_runner_close(&runner);
		if (st == BR_OK && k.save_failed) {
			*err = k.save_error;
			st = k.save_error.status;
		}
	}
	progress_done(s);
	free(reqs);
	return st;
}

#define BOARD_RUN_HOST_COUNTER "clock_monotonic_raw"
#define BOARD_RUN_HOST_UNIT "ns (CLOCK_MONOTONIC_RAW)"
#define BOARD_RUN_NS_PER_S 1000000000ULL

void br_board_run_host(br_board_run_t *run)
{
	memset(&run->board, 0, sizeof(run->board));
	run->host = true;
	run->board.name = BR_HOST_BOARD_NAME;
}

/* The host's counters are known: the record says what they can do. */
static void on_host_started(void *ctx, const br_host_info_t *info)
{
	keeper_t *k = ctx;
	br_run_record_t *rec = &k->run->record;
	rec->resolution = (double)info->resolution_ns;
	snprintf(rec->server, sizeof(rec->server),
		 "benchrack-host-benches pinned to CPU %ld (clock_getres %llu ns, smallest step "
		 "%llu ns)",
		 info->cpu, (unsigned long long)info->getres_ns,
		 (unsigned long long)info->step_ns);
	if (!info->perf)
		snprintf(rec->counter_note, sizeof(rec->counter_note),
			 "cycles and instructions not counted: %.200s", info->perf_note);
	keep(k);
}

/* A host bench: the stub's figures as for a board, then its other counters. */
static void on_host_bench_done(void *ctx, const char *name, const br_host_result_t *r)
{
	keeper_t *k = ctx;
	br_suite_bench_request_t req = {.name = name, .iterations = r->stub.count,
					.warmup = k->warmup};
	br_error_t ignored;
	on_bench_done(ctx, &req, &r->stub, &ignored);
	br_bench_record_t *b = &k->run->record.benches[k->run->record.bench_count - 1U];
	if (r->saturated && b->status == BR_BENCH_MEASURED) {
		b->status = BR_BENCH_NOT_RUN;
		snprintf(b->reason, sizeof(b->reason),
			 "an iteration took 2^32 ns or more: not measured");
	}
	static const char *const names[] = {"cycles", "instructions"};
	static const char *const units[] = {"cycles (user mode)", "instructions (user mode)"};
	const uint32_t *rows[] = {r->cycles, r->instructions};
	for (size_t c = 0; r->perf && b->status == BR_BENCH_MEASURED && c < 2U; c++) {
		br_bench_counter_t *bc = &b->counters[b->counter_count];
		double *values = xcalloc(r->stub.count, sizeof(double));
		for (uint32_t i = 0; i < r->stub.count; i++)
			values[i] = (double)rows[c][i];
		br_error_t err;
		if (br_stats_summarize(values, r->stub.count, &bc->summary, &err) == BR_OK) {
			snprintf(bc->name, sizeof(bc->name), "%s", names[c]);
			snprintf(bc->unit, sizeof(bc->unit), "%s", units[c]);
			bc->samples = xcalloc(r->stub.count, sizeof(uint32_t));
			memcpy(bc->samples, rows[c], r->stub.count * sizeof(uint32_t));
			b->counter_count++;
		}
		free(values);
	}
	/* the host's figures are not the board's: the suite's budgets, in its
	 * boards' units, do not apply */
	memset(&b->budgets, 0, sizeof(b->budgets));
	keep(k);
}

/* --board host: the suite's stub benches as a host program; entries for
 * unmodified firmware need a Cortex-M board and are not run. */
static br_status_t measure_host_benches(const br_run_settings_t *s, const br_suite_t *suite,
					br_board_run_t *run, br_error_t *err)
{
	/* each host figure is a difference of 64-bit readings: nothing wraps,
	 * and a counter state without a clock asks for no wrap check */
	br_counter_t clock = {.name = BOARD_RUN_HOST_COUNTER, .width_bits = 32U,
			      .unit = BOARD_RUN_HOST_UNIT};
	br_counter_state_t state;
	br_counter_state_init(&state, &clock);
	keeper_t k = {.s = s, .suite = suite, .run = run, .counter = &state};
	size_t room = suite != NULL ? suite->bench_count : 0U;
	const char **names = xcalloc(room + 1U, sizeof(char *));
	size_t count = 0;
	for (size_t i = 0; i < room; i++) {
		const br_suite_bench_t *sb = &suite->benches[i];
		if (sb->kind == BR_SUITE_ENTRY_STUB) {
			names[count++] = sb->name.value;
			continue;
		}
		br_bench_record_t *b = br_run_record_add_bench(&run->record);
		snprintf(b->name, sizeof(b->name), "%s", sb->name.value);
		snprintf(b->mode, sizeof(b->mode), "%s",
			 sb->kind == BR_SUITE_ENTRY_RANGE ? "range" : "function");
		b->status = BR_BENCH_NOT_RUN;
		snprintf(b->reason, sizeof(b->reason),
			 "unmodified firmware runs on a Cortex-M board, not on the host");
	}
	br_host_options_t o = {
		.program = s->host_program,
		.benches = names,
		.bench_count = count,
		.iterations = s->iterations_set ? s->iterations
			      : suite != NULL	 ? suite->iterations
						 : BR_SUITE_DEFAULT_ITERATIONS,
		.warmup = s->warmup_set ? s->warmup
			  : suite != NULL ? suite->warmup
					  : BR_SUITE_DEFAULT_WARMUP,
		.timeout_ms = (s->timeout_s > 0	 ? s->timeout_s
			       : suite != NULL ? (int)suite->timeout_seconds
					       : BR_SUITE_DEFAULT_BENCH_TIMEOUT_MS / BOARD_RUN_MS_PER_S) *
			      BOARD_RUN_MS_PER_S,
		.started = on_host_started,
		.progress = on_progress,
		.bench_done = on_host_bench_done,
		.ctx = &k,
	};
	k.warmup = o.warmup;
	if (suite == NULL) {
		o.benches = NULL; /* every bench the program has */
		o.bench_count = 0;
	}
	br_host_info_t info;
	br_status_t st = br_host_measure(&o, &info, err);
	progress_done(s);
	free(names);
	if (st == BR_OK && k.save_failed) {
		*err = k.save_error;
		st = k.save_error.status;
	}
	return st;
}

/* Benches of the record in the suite's order (the stub's benches are
 * measured first, the entries for unmodified firmware after them). */
static void order_like_suite(br_run_record_t *rec, const br_suite_t *suite)
{
	size_t placed = 0;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++) {
		for (size_t j = placed; j < rec->bench_count; j++) {
			if (strcmp(rec->benches[j].name, suite->benches[i].name.value) != 0)
				continue;
			br_bench_record_t tmp = rec->benches[j];
			memmove(&rec->benches[placed + 1], &rec->benches[placed],
				(j - placed) * sizeof(tmp));
			rec->benches[placed++] = tmp;
			break;
		}
	}
}

/* Entries that measure unmodified firmware, in suite order, each kept on
 * disk as soon as it is done. */
static br_status_t measure_elf_entries(const br_run_settings_t *s, const br_suite_t *suite,
				       br_board_run_t *run, br_error_t *err)
{
	size_t total = 0, done = 0;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++)
		total += suite->benches[i].kind != BR_SUITE_ENTRY_STUB;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++) {
		const br_suite_bench_t *sb = &suite->benches[i];
		if (sb->kind == BR_SUITE_ENTRY_STUB)
			continue;
		progress(s, (unsigned)done++, (unsigned)total, sb->name.value);
		br_bench_record_t *b = br_run_record_add_bench(&run->record);
		snprintf(b->name, sizeof(b->name), "%s", sb->name.value);
		snprintf(b->mode, sizeof(b->mode), "%s",
			 sb->kind == BR_SUITE_ENTRY_RANGE ? "range" : "function");
		snprintf(b->elf_path, sizeof(b->elf_path), "%s", sb->elf_path);
		br_suite_budgets_t budgets = br_suite_bench_budgets(suite, sb);
		b->budgets = budgets_of(&budgets);
		b->budgets.max_text_bytes.set = false;
		br_elf_entry_options_t o = {
			.settings = s,
			.board = &run->board,
			.suite = suite,
			.entry = sb,
			.iterations = s->iterations_set      ? s->iterations
				      : sb->iterations.set ? (uint32_t)sb->iterations.value
							   : suite->iterations,
			.warmup = s->warmup_set		? s->warmup
				  : sb->warmup_runs.set ? (uint32_t)sb->warmup_runs.value
							: suite->warmup,
			.timeout_ms = (s->timeout_s > 0 ? s->timeout_s : (int)suite->timeout_seconds) *
				      BOARD_RUN_MS_PER_S,
		};
		br_status_t st = br_elf_entry_measure(&o, b, err);
		if (st != BR_OK) {
			b->status = BR_BENCH_NOT_RUN;
			snprintf(b->reason, sizeof(b->reason), "%.200s", err->message);
			br_error_prefix(err, "bench %s", sb->name.value);
		}
		br_error_t save_err;
		br_error_clear(&save_err);
		br_status_t sst = br_run_json_save(&run->record, run->run_path, &save_err);
		if (st != BR_OK)
			return st;
		if (sst != BR_OK) {
			*err = save_err;
			return sst;
		}
	}
	progress_done(s);
	return BR_OK;
}

static void fill_run_header(br_board_run_t *run, const br_suite_t *suite)
{
	br_run_record_t *rec = &run->record;
	const br_board_t *board = &run->board;
	rec->kind = BR_RECORD_RUN;
	rec->status = BR_RECORD_RUNNING;
	snprintf(rec->board, sizeof(rec->board), "%s", board->name);
	if (run->host) {
		snprintf(rec->counter, sizeof(rec->counter), "%s", BOARD_RUN_HOST_COUNTER);
		snprintf(rec->unit, sizeof(rec->unit), "%s", BOARD_RUN_HOST_UNIT);
		rec->clock_hz = BOARD_RUN_NS_PER_S;
	} else {
		br_board_describe_server(board, rec->server, sizeof(rec->server));
		br_counter_t counter;
		br_board_counter(board, &counter);
		snprintf(rec->counter, sizeof(rec->counter), "%s", counter.name);
		snprintf(rec->unit, sizeof(rec->unit), "%s", counter.unit);
		rec->clock_hz = counter.clock_hz;
	}
	rec->regression_percent =
		suite != NULL ? suite->regression_percent : BR_SUITE_DEFAULT_REGRESSION_PERCENT;
	if (suite != NULL) {
		snprintf(rec->suite, sizeof(rec->suite), "%s", suite->name);
		snprintf(rec->suite_path, sizeof(rec->suite_path), "%s", suite->path);
		if (!run->host) /* in the suite's boards' units, not the host's */
			rec->budgets = budgets_of(&suite->file.budgets);
	}
}

/* Marks the run failed with err's message and keeps the record. */
static void run_failed(br_board_run_t *run, const br_error_t *err)
{
	run->status = err->status;
	run->failure = *err;
	run->record.status = BR_RECORD_FAILED;
	snprintf(run->record.error, sizeof(run->record.error), "%s", err->message);
}

/* The suite firmware's benches (stub batch mode), then the entries that
 * measure unmodified firmware (breakpoint mode), on any board. */
static br_status_t measure_board(const br_run_settings_t *s, const br_suite_t *suite,
				 br_board_run_t *run, br_error_t *err)
{
	if (run->host)
		return measure_host_benches(s, suite, run, err);
	bool any_stub = suite == NULL;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++)
		any_stub = any_stub || suite->benches[i].kind == BR_SUITE_ENTRY_STUB;
	br_status_t st = any_stub ? measure_stub_benches(s, suite, run, err) : BR_OK;
	if (st == BR_OK)
		st = measure_elf_entries(s, suite, run, err);
	return st;
}

/* Compare with the baseline (when there is one) and apply the gate. */
static br_status_t gate_board(const br_run_settings_t *s, br_board_run_t *run, br_error_t *err)
{
	br_status_t st = BR_OK;
	if (s->baseline_path != NULL)
		snprintf(run->baseline_path, sizeof(run->baseline_path), "%s", s->baseline_path);
	else
		st = br_results_baseline_path(s->results_dir, run->board.name, false,
					      run->baseline_path, sizeof(run->baseline_path), err);
	if (st != BR_OK)
		return st;
	bool exists = access(run->baseline_path, F_OK) == 0;
	if (!exists && s->baseline_path != NULL)
		return br_error_set(err, BR_ERR_INPUT, "baseline %s not found", s->baseline_path);
	if (exists) {
		br_run_record_t base;
		st = br_record_read(run->baseline_path, &base, err);
		if (st == BR_OK)
			st = br_diff_check_compatible(&base, run->baseline_path, &run->record, err);
		if (st == BR_OK) {
			br_diff_compute(&base, &run->record, &run->diff);
			run->compared = true;
		}
		br_run_record_free(&base);
		if (st != BR_OK)
			return st;
	}
	br_gate_evaluate(&run->record, run->compared ? &run->diff : NULL, &run->gate);
	run->gated = true;
	return BR_OK;
}

br_status_t br_board_run_gate(const br_run_settings_t *s, br_board_run_t *run, br_error_t *err)
{
	return gate_board(s, run, err);
}

static void write_baseline(const br_run_settings_t *s, br_board_run_t *run)
{
	if (run->record.status != BR_RECORD_COMPLETE) {
		notice(s, "%s: baseline not written: the run did not complete", run->board.name);
		return;
	}
	if (run->gated && (run->gate.failures > 0 || run->gate.not_run > 0)) {
		notice(s, "%s: baseline not written: check failed", run->board.name);
		return;
	}
	char path[BR_BOARD_RUN_PATH_BYTES];
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = br_results_baseline_path(s->results_dir, run->board.name, true, path,
						  sizeof(path), &err);
	br_run_record_t copy = run->record;
	copy.kind = BR_RECORD_BASELINE;
	if (st == BR_OK)
		st = br_run_json_save(&copy, path, &err);
	if (st != BR_OK) {
		run->status = st;
		run->failure = err;
		return;
	}
	notice(s, "%s: baseline written to %s", run->board.name, path);
}

/* The run ended with st (err saying why when not BR_OK): its record
 * complete or failed, and kept on disk. */
static void run_finish(br_board_run_t *run, br_status_t st, const br_error_t *err)
{
	if (st != BR_OK)
		run_failed(run, err);
	else
		run->record.status = BR_RECORD_COMPLETE;
	br_error_t save_err;
	br_error_clear(&save_err);
	if (br_run_json_save(&run->record, run->run_path, &save_err) != BR_OK && run->status == BR_OK) {
		run->status = save_err.status;
		run->failure = save_err;
	}
}

void br_board_run_execute(const br_run_settings_t *s, const br_suite_t *suite, const char *elf,
			  br_board_run_t *run)
{
	br_error_t err;
	br_error_clear(&err);
	run->status = BR_OK;
	br_status_t st = BR_OK;
	if (run->host)
		br_run_provenance_fill_program(&run->record, s->host_program, s->commit);
	else
		st = br_run_provenance_fill(&run->record, elf, s->commit, &err);
	if (st != BR_OK) {
		run->status = st;
		run->failure = err;
		return;
	}
	fill_run_header(run, suite);
	st = br_results_run_path(s->results_dir, run->board.name, run->run_path,
				 sizeof(run->run_path), &err);
	if (st == BR_OK)
		st = br_run_json_save(&run->record, run->run_path, &err);
	if (st != BR_OK) {
		run->status = st;
		run->failure = err;
		return;
	}
	run->has_run_path = true;
	st = measure_board(s, suite, run, &err);
	order_like_suite(&run->record, suite);
	run_finish(run, st, &err);
	br_error_t save_err;
	br_error_clear(&save_err);
	if (s->json_path != NULL &&
	    br_run_json_save(&run->record, s->json_path, &save_err) != BR_OK && run->status == BR_OK) {
		run->status = save_err.status;
		run->failure = save_err;
	}
	if (s->check) {
		br_error_clear(&err);
		st = gate_board(s, run, &err);
		if (st != BR_OK && run->status == BR_OK) {
			run->status = st;
			run->failure = err;
		}
	}
	if (s->write_baseline && run->status == BR_OK)
		write_baseline(s, run);
}

/* One side of an A/B run: provenance, header, its run file written first. */
static br_status_t ab_side_open(const br_run_settings_t *s, const br_suite_t *suite,
				const br_ab_sides_t *ab, bool base, br_board_run_t *run,
				br_error_t *err)
{
	br_status_t st = br_run_provenance_fill(&run->record, base ? ab->base_elf : ab->head_elf,
						base ? ab->base_commit : s->commit, err);
	if (st != BR_OK)
		return st;
	fill_run_header(run, suite);
	br_record_ab_t *rab = &run->record.ab;
	snprintf(rab->role, sizeof(rab->role), "%s", base ? "base" : "head");
	snprintf(rab->ref, sizeof(rab->ref), "%s", ab->ref);
	snprintf(rab->base_commit, sizeof(rab->base_commit), "%s", ab->base_commit);
	snprintf(rab->head_commit, sizeof(rab->head_commit), "%s", ab->head_commit);
	st = br_results_run_path(s->results_dir, run->board.name, run->run_path,
				 sizeof(run->run_path), err);
	if (st == BR_OK && base) {
		/* beside the head's, which has the same time and board */
		size_t n = strlen(run->run_path);
		if (n > 5U && n + 5U < sizeof(run->run_path))
			snprintf(run->run_path + n - 5U, sizeof(run->run_path) - (n - 5U),
				 "-base.json");
	}
	if (st == BR_OK)
		st = br_run_json_save(&run->record, run->run_path, err);
	run->has_run_path = st == BR_OK;
	return st;
}

void br_board_run_execute_ab(const br_run_settings_t *s, const br_suite_t *suite,
			     const br_ab_sides_t *ab, br_board_run_t *base, br_board_run_t *head)
{
	br_error_t err;
	br_error_clear(&err);
	br_board_run_t *sides[] = {head, base};
	br_status_t st = BR_OK;
	for (size_t i = 0; i < 2U && st == BR_OK; i++)
		st = ab_side_open(s, suite, ab, sides[i] == base, sides[i], &err);
	/* interleaved per bench: base, head, base, head ... on the same board,
	 * so that whatever drifts falls on both */
	for (size_t i = 0; st == BR_OK && i < suite->bench_count; i++) {
		if (suite->benches[i].kind != BR_SUITE_ENTRY_STUB)
			continue;
		br_suite_t one = *suite;
		one.benches = &suite->benches[i];
		one.bench_count = 1U;
		st = measure_stub_benches(s, &one, base, &err);
		if (st == BR_OK)
			st = measure_stub_benches(s, &one, head, &err);
	}
	for (size_t i = 0; i < 2U; i++) {
		if (sides[i]->has_run_path)
			run_finish(sides[i], st, &err);
	}
	base->status = BR_OK; /* what went wrong is said once, by the head */
	if (s->json_path != NULL && head->has_run_path)
		br_run_json_save(&head->record, s->json_path, &err);
	if (st != BR_OK || head->status != BR_OK)
		return;
	/* the base is the baseline: the gate applies the suite's regression
	 * limit to the difference (budgets limit figures, not differences:
	 * `check` without --against holds them) */
	br_diff_compute(&base->record, &head->record, &head->diff);
	head->compared = true;
	snprintf(head->baseline_path, sizeof(head->baseline_path), "base %.60s (%.12s): %.900s", ab->ref,
		 ab->base_commit, base->run_path);
	if (s->check) {
		br_run_record_t diff_only = head->record;
		diff_only.benches = xcalloc(head->record.bench_count + 1U, sizeof(br_bench_record_t));
		memset(&diff_only.budgets, 0, sizeof(diff_only.budgets));
		for (size_t i = 0; i < head->record.bench_count; i++) {
			diff_only.benches[i] = head->record.benches[i];
			memset(&diff_only.benches[i].budgets, 0, sizeof(br_budgets_t));
		}
		br_gate_evaluate(&diff_only, &head->diff, &head->gate);
		free(diff_only.benches);
		head->gated = true;
	}
}

void br_board_run_report(const br_board_run_t *run, br_report_t *report)
{
	memset(report, 0, sizeof(*report));
	report->run = &run->record;
	report->run_path = run->run_path;
	report->diff = run->compared ? &run->diff : NULL;
	report->baseline_path = run->compared ? run->baseline_path : NULL;
	report->gate = run->gated ? &run->gate : NULL;
	report->figures = true;
}

void br_board_run_free(br_board_run_t *run)
{
	br_board_free(&run->board);
	br_run_record_free(&run->record);
	br_diff_free(&run->diff);
	br_gate_free(&run->gate);
}
