#include "run/board_run.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/interrupt.h"
#include "common/xalloc.h"
#include "debug/server_sched.h"
#include "measure/calibration.h"
#include "measure/host_batch.h"
#include "measure/suite_run.h"
#include "results/baseline.h"
#include "results/baseline_policy.h"
#include "results/paths.h"
#include "results/record_read.h"
#include "results/run_json.h"
#include "run/board_target.h"
#include "run/elf_entry.h"
#include "run/provenance.h"
#include "run/run_checks.h"
#include "run/runner.h"
#include "stats/shift.h"
#include "run/size_budgets.h"
#include "stats/summary.h"

#define BOARD_RUN_MS_PER_S 1000
#define BOARD_RUN_STARVED_BYTES 160U

/* What the per-bench callback needs to keep results as they come. */
typedef struct keeper {
	const br_run_settings_t *s;
	const br_suite_t *suite; /* NULL without a suite file */
	br_board_run_t *run;
	const br_counter_state_t *counter; /* as started on the board */
	const char *current;               /* the bench running now */
	uint32_t warmup;                   /* host benches: the warm-up they ran with */
	unsigned current_index;            /* of reqs, after a restart too */
	unsigned offset;                   /* benches done before the runner was last opened */
	unsigned total;                    /* benches of the whole run */
	const br_server_t *server;         /* the runner's launched server, if any */
	br_server_sched_t sched_start;     /* its scheduler figures when the bench started */
	bool counted;                      /* any sample of any bench was not zero */
	size_t sampled;                    /* samples of all benches */
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
	if (k->server != NULL)
		br_server_sched_read(k->server, &k->sched_start);
	k->current = name;
	k->current_index = k->offset + index;
	progress(k->s, k->offset + index, k->offset > 0 ? k->total : count, name);
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
	for (size_t i = 0; i < r->count; i++)
		b->samples[i] = r->samples[i];
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
 * board that answers (*answered), kept as the bench's record ("did not
 * finish", where the core was, or that the host was overloaded), the run
 * going on with the benches after it. */
static br_status_t classify_timeout(br_runner_t *runner, br_board_run_t *run, const keeper_t *k,
                                    int timeout_ms, bool *answered, br_error_t *err)
{
	const char *bench = k->current;
	char what[BR_CB_NAME_BYTES + 16U];
	snprintf(what, sizeof(what), "bench %s", bench);
	br_server_sched_t now;
	br_server_sched_read(&runner->session.server, &now);
	char starved[BOARD_RUN_STARVED_BYTES];
	bool host_starved = br_server_sched_starved(&runner->session.server, &k->sched_start, &now,
	                                            starved, sizeof(starved));
	br_status_t st =
	    br_run_classify_timeout(br_runner_target(runner), run->record.elf_path, what,
	                            timeout_ms, host_starved ? starved : NULL, err);
	if (st != BR_ERR_TIMEOUT && !(st == BR_ERR_INFRA && host_starved))
		return st;
	*answered = true;
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
		snprintf(why, sizeof(why), "not reached: the suite stopped at bench %.100s",
		         stopped);
		if (!recorded(&k->run->record, reqs[i].name))
			add_not_run(k->run, reqs[i].name, why);
	}
	keep(k);
}

/* The options of one pass of the stub benches on runner, reporting to k. */
static void stub_suite_options(const br_run_settings_t *s, const br_suite_t *suite,
                               const br_stub_layout_t *layout, br_runner_t *runner, keeper_t *k,
                               br_suite_options_t *opts)
{
	br_suite_options_default(opts);
	opts->elf_path = k->run->record.elf_path;
	opts->layout = layout;
	opts->counter = &runner->counter;
	if (s->iterations_set)
		opts->default_iterations = s->iterations;
	if (s->warmup_set)
		opts->default_warmup = s->warmup;
	if (suite != NULL)
		opts->bench_timeout_ms = (int)suite->timeout_seconds * BOARD_RUN_MS_PER_S;
	if (s->timeout_s > 0)
		opts->bench_timeout_ms = s->timeout_s * BOARD_RUN_MS_PER_S;
	opts->progress = on_progress;
	opts->progress_ctx = k;
	opts->bench_done = on_bench_done;
	opts->bench_done_ctx = k;
}

/* The stub benches of the suite in order (every bench of the firmware
 * without a suite), on one runner: the firmware loaded once, and started
 * again after a bench that did not finish, for the benches after it. */
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
	    .load_done = s->load_done,
	    .load_done_ctx = s->load_done_ctx,
	};
	keeper_t k = {.s = s, .suite = suite, .run = run, .total = (unsigned)count};
	br_error_t first_err;
	br_status_t first = BR_OK;
	/* A bench that does not finish costs only itself: the board is started
	 * again (the firmware reset) for the benches after it. */
	while (st == BR_OK) {
		br_runner_t runner;
		st = br_runner_open(&ro, &runner, err);
		for (size_t i = k.offset; st != BR_OK && suite != NULL && i < count; i++) {
			if (!recorded(&run->record, reqs[i].name))
				add_not_run(run, reqs[i].name, err->message);
		}
		if (st != BR_OK)
			break;
		k.counter = &runner.counter;
		k.server = &runner.session.server;
		br_suite_options_t opts;
		stub_suite_options(s, suite, &layout, &runner, &k, &opts);
		opts.benches = suite != NULL ? reqs + k.offset : NULL;
		opts.bench_count = count - k.offset;
		k.current = NULL;
		st = br_suite_measure(&opts, br_runner_target(&runner), err);
		bool answered = false;
		if (st == BR_ERR_TIMEOUT && k.current != NULL)
			st = classify_timeout(&runner, run, &k, opts.bench_timeout_ms, &answered,
			                      err);
		bool again = answered && suite != NULL && k.current_index + 1U < count;
		if (st != BR_OK && !again) {
			br_runner_explain(&runner, err);
			mark_unfinished(&k, reqs, suite != NULL ? count : 0, err);
		}
		br_runner_close(&runner);
		k.server = NULL;
		if (answered && first == BR_OK) {
			first = st;
			first_err = *err;
		}
		if (!again)
			break;
		keep(&k);
		k.offset = k.current_index + 1U;
		st = BR_OK;
	}
	if (st == BR_OK)
		st = br_run_check_counting(k.counter, k.counted, k.sampled, "any bench ran", err);
	if (st == BR_OK && k.save_failed) {
		*err = k.save_error;
		st = k.save_error.status;
	}
	if (st == BR_OK && first != BR_OK) {
		*err = first_err;
		st = first;
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
	         info->cpu, (unsigned long long)info->getres_ns, (unsigned long long)info->step_ns);
	if (!info->perf)
		snprintf(rec->counter_note, sizeof(rec->counter_note),
		         "cycles and instructions not counted: %.200s", info->perf_note);
	keep(k);
}

/* A host bench: the stub's figures as for a board, then its other counters. */
static void on_host_bench_done(void *ctx, const char *name, const br_host_result_t *r)
{
	keeper_t *k = ctx;
	br_suite_bench_request_t req = {
	    .name = name, .iterations = r->stub.count, .warmup = k->warmup};
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
			bc->samples = xcalloc(r->stub.count, sizeof(bc->samples[0]));
			for (uint32_t i = 0; i < r->stub.count; i++)
				bc->samples[i] = rows[c][i];
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
	br_counter_t clock = {
	    .name = BOARD_RUN_HOST_COUNTER, .width_bits = 32U, .unit = BOARD_RUN_HOST_UNIT};
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
	                  : suite != NULL   ? suite->iterations
	                                    : BR_SUITE_DEFAULT_ITERATIONS,
	    .warmup = s->warmup_set   ? s->warmup
	              : suite != NULL ? suite->warmup
	                              : BR_SUITE_DEFAULT_WARMUP,
	    .timeout_ms =
	        (s->timeout_s > 0 ? s->timeout_s
	         : suite != NULL  ? (int)suite->timeout_seconds
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

/* One entry for unmodified firmware, measured on the ELF at elf (the entry's
 * own, or its counterpart at another commit), whose provenance (build-id or
 * content hash, sizes, commit: commit, else git's) goes into the bench's
 * record; the record is kept on disk after it. An entry that fails is
 * recorded not run with why, and that costs it alone: *entry is its status
 * and *why its reason (prefixed with its name). Returns whether the record
 * was kept (err says why not): a run that cannot keep it ends. */
static br_status_t measure_elf_entry(const br_run_settings_t *s, const br_suite_t *suite,
                                     const br_suite_bench_t *sb, const char *elf,
                                     const char *commit, br_board_run_t *run, br_status_t *entry,
                                     br_error_t *why, br_error_t *err)
{
	br_bench_record_t *b = br_run_record_add_bench(&run->record);
	snprintf(b->name, sizeof(b->name), "%s", sb->name.value);
	snprintf(b->mode, sizeof(b->mode), "%s",
	         sb->kind == BR_SUITE_ENTRY_RANGE ? "range" : "function");
	snprintf(b->elf_path, sizeof(b->elf_path), "%s", elf);
	br_suite_budgets_t budgets = br_suite_bench_budgets(suite, sb);
	b->budgets = budgets_of(&budgets);
	br_elf_entry_options_t o = {
	    .settings = s,
	    .board = &run->board,
	    .suite = suite,
	    .entry = sb,
	    .elf_path = elf,
	    .iterations = s->iterations_set    ? s->iterations
	                  : sb->iterations.set ? (uint32_t)sb->iterations.value
	                                       : suite->iterations,
	    .warmup = s->warmup_set         ? s->warmup
	              : sb->warmup_runs.set ? (uint32_t)sb->warmup_runs.value
	                                    : suite->warmup,
	    .timeout_ms = (s->timeout_s > 0 ? s->timeout_s : (int)suite->timeout_seconds) *
	                  BOARD_RUN_MS_PER_S,
	};
	br_error_clear(why);
	br_status_t st = br_run_provenance_firmware(elf, commit, &b->firmware, why);
	b->has_firmware = st == BR_OK;
	if (st == BR_OK)
		st = br_elf_entry_measure(&o, b, why);
	if (st != BR_OK) {
		b->status = BR_BENCH_NOT_RUN;
		snprintf(b->reason, sizeof(b->reason), "%.*s", (int)sizeof(b->reason) - 1,
		         why->message);
		br_error_prefix(why, "bench %s", sb->name.value);
	}
	*entry = st;
	return br_run_json_save(&run->record, run->run_path, err);
}

/* Entries that measure unmodified firmware, in suite order, each kept on
 * disk as soon as it is done; one that fails is recorded not run with why,
 * and the next one is measured all the same (the first failure returned). */
static br_status_t measure_elf_entries(const br_run_settings_t *s, const br_suite_t *suite,
                                       br_board_run_t *run, br_error_t *err)
{
	size_t total = 0, done = 0;
	br_status_t first = BR_OK;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++)
		total += suite->benches[i].kind != BR_SUITE_ENTRY_STUB;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++) {
		const br_suite_bench_t *sb = &suite->benches[i];
		if (sb->kind == BR_SUITE_ENTRY_STUB)
			continue;
		progress(s, (unsigned)done++, (unsigned)total, sb->name.value);
		br_status_t entry = BR_OK;
		br_error_t why;
		br_status_t st = measure_elf_entry(s, suite, sb, sb->elf_path, s->commit, run,
		                                   &entry, &why, err);
		if (st != BR_OK)
			return st; /* the record could not be kept */
		if (entry != BR_OK && first == BR_OK) {
			/* this entry alone: the others are measured all the same */
			first = entry;
			*err = why;
		}
		/* a usage or input error is the same for every entry: said once */
		if (entry == BR_ERR_USAGE)
			return first;
	}
	progress_done(s);
	return first;
}

/* Whether a run of suite (NULL: every bench of one firmware) has stub benches. */
static bool has_stub_benches(const br_suite_t *suite)
{
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++) {
		if (suite->benches[i].kind == BR_SUITE_ENTRY_STUB)
			return true;
	}
	return suite == NULL || suite->bench_count == 0;
}

/* The one ELF every entry of suite names, or NULL when they name several. */
static const char *entries_one_elf(const br_suite_t *suite)
{
	const char *one = NULL;
	for (size_t i = 0; suite != NULL && i < suite->bench_count; i++) {
		const char *elf = suite->benches[i].elf_path;
		if (suite->benches[i].kind == BR_SUITE_ENTRY_STUB || elf == NULL)
			continue;
		if (one != NULL && strcmp(one, elf) != 0)
			return NULL;
		one = elf;
	}
	return one;
}

/* The run's firmware and provenance: the stub image elf when the run has stub
 * benches; else the one ELF its entries name (one_elf: the entries' ELF at
 * this side's commit, NULL for theirs); else none of its own. */
static br_status_t fill_run_firmware(const br_suite_t *suite, const char *elf, const char *one_elf,
                                     const char *commit, br_run_record_t *rec, br_error_t *err)
{
	if (has_stub_benches(suite))
		return br_run_provenance_fill(rec, elf, commit, err);
	const char *one = entries_one_elf(suite);
	if (one != NULL)
		return br_run_provenance_fill(rec, one_elf != NULL ? one_elf : one, commit, err);
	br_run_provenance_fill_none(rec);
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
	if (suite != NULL)
		rec->regression = suite->regression;
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

/* A bench of the record that was not measured (its samples could hide a
 * wrap, it had none, ...) is an infrastructure error for the run as a whole
 * (README's exit codes: "not measured" is 3), naming the first one. */
static br_status_t unmeasured(const br_board_run_t *run, br_error_t *err)
{
	const br_run_record_t *rec = &run->record;
	for (size_t i = 0; i < rec->bench_count; i++) {
		const br_bench_record_t *b = &rec->benches[i];
		if (b->status == BR_BENCH_NOT_RUN)
			return br_error_set(err, BR_ERR_INFRA, "bench %s not measured: %s", b->name,
			                    b->reason);
	}
	return BR_OK;
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
	/* a stub bench that did not finish costs only itself */
	if (st == BR_OK || run->bench_timed_out) {
		br_error_t why;
		br_error_clear(&why);
		br_status_t est = measure_elf_entries(s, suite, run, &why);
		if (st == BR_OK && est != BR_OK) {
			st = est;
			*err = why;
		}
	}
	return st != BR_OK ? st : unmeasured(run, err);
}

/* The baseline's path for run (its record's suite and board filled in):
 * --baseline, which must exist, else RESULTS/baselines/<suite>/<board>.json
 * (results/baseline.h); *exists says whether a file is there. */
static br_status_t baseline_path_of(const br_run_settings_t *s, br_board_run_t *run, bool *exists,
                                    br_error_t *err)
{
	if (s->baseline_path != NULL) {
		snprintf(run->baseline_path, sizeof(run->baseline_path), "%s", s->baseline_path);
		*exists = access(run->baseline_path, F_OK) == 0;
		if (!*exists)
			return br_error_set(err, BR_ERR_INPUT, "baseline %s not found",
			                    s->baseline_path);
		return BR_OK;
	}
	return br_baseline_locate(s->results_dir, &run->record, run->baseline_path,
	                          sizeof(run->baseline_path), exists, err);
}

/* Compare with the baseline of the run's suite and board (when there is one)
 * and apply the gate; a baseline that does not fit is refused. */
static br_status_t gate_board(const br_run_settings_t *s, br_board_run_t *run, br_error_t *err)
{
	bool exists = false;
	br_status_t st = baseline_path_of(s, run, &exists, err);
	if (st != BR_OK)
		return st;
	if (exists) {
		br_run_record_t base;
		st = br_record_read(run->baseline_path, &base, err);
		if (st == BR_OK)
			st = br_baseline_check_fits(&base, run->baseline_path, &run->record, err);
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
	char path[BR_BOARD_RUN_PATH_BYTES], replaced[sizeof(run->record.timestamp)];
	br_error_t err;
	br_error_clear(&err);
	/* A bench this run did not measure keeps its old entry (baseline_policy.h):
	 * the old entries are read from the baseline of the suite on the board
	 * where there is one; br_baseline_write checks that one fits. */
	bool exists = false;
	br_error_t ignored;
	br_error_clear(&ignored);
	br_run_record_t old;
	memset(&old, 0, sizeof(old));
	bool has_old = br_baseline_locate(s->results_dir, &run->record, path, sizeof(path), &exists,
	                                  &ignored) == BR_OK &&
	               exists && br_record_read(path, &old, NULL) == BR_OK;
	br_run_record_t copy;
	char kept[BR_RECORD_TEXT];
	size_t missing = 0;
	size_t n_kept = br_baseline_policy_apply(&run->record, has_old ? &old : NULL, &copy, kept,
	                                         sizeof(kept), &missing);
	br_status_t st = br_baseline_write(s->results_dir, &copy, path, sizeof(path), replaced,
	                                   sizeof(replaced), &err);
	br_baseline_policy_free(&copy);
	if (has_old)
		br_run_record_free(&old);
	if (st != BR_OK) {
		run->status = st;
		run->failure = err;
		return;
	}
	if (replaced[0] != '\0')
		notice(s, "%s: baseline written to %s (replacing the one recorded %s)",
		       run->board.name, path, replaced);
	else
		notice(s, "%s: baseline written to %s", run->board.name, path);
	if (n_kept > 0)
		notice(s, "%s: kept the old baseline entr%s of %s (not measured in this run)",
		       run->board.name, n_kept == 1 ? "y" : "ies", kept);
	if (missing > 0)
		notice(s,
		       "%s: %zu bench%s not measured and with no old entry: the baseline has no "
		       "figure for %s",
		       run->board.name, missing, missing == 1 ? "" : "es",
		       missing == 1 ? "it" : "them");
}

/* The run ended with st (err saying why when not BR_OK): its record
 * complete or failed, and kept on disk. */
static void run_finish(br_board_run_t *run, br_status_t st, const br_error_t *err)
{
	br_error_t stop;
	if (br_interrupt_signal() != 0) { /* SIGINT/SIGTERM: whatever the benches said */
		br_interrupt_error(&stop);
		run_failed(run, &stop);
		run->record.status = BR_RECORD_INTERRUPTED;
	} else if (st != BR_OK)
		run_failed(run, err);
	else
		run->record.status = BR_RECORD_COMPLETE;
	br_error_t save_err;
	br_error_clear(&save_err);
	if (br_run_json_save(&run->record, run->run_path, &save_err) != BR_OK &&
	    run->status == BR_OK) {
		run->status = save_err.status;
		run->failure = save_err;
	}
}

/*
 * --min-detectable: the iterations per bench that bring the shift test's
 * interval down to the asked percentage of each noisy figure, from the
 * spread of the baseline's benches (stats/shift.h,
 * br_stats_samples_for_delta): the most any bench needs, at most
 * BR_SUITE_MAX_ITERATIONS, written into *sized. Exact figures need one
 * iteration to tell any change: the iterations are then left as they are.
 */
static br_status_t size_for_detectable(const br_run_settings_t *s, br_board_run_t *run,
                                       br_run_settings_t *sized, br_error_t *err)
{
	bool exists = false;
	br_status_t st = baseline_path_of(s, run, &exists, err);
	if (st != BR_OK)
		return st;
	br_run_record_t base;
	if (!exists)
		return br_error_set(
		    err, BR_ERR_USAGE,
		    "--min-detectable sizes the run from the baseline's spread, and "
		    "%s does not exist: record one first (--write-baseline) or give -n",
		    run->baseline_path);
	st = br_record_read(run->baseline_path, &base, err);
	if (st != BR_OK)
		return st;
	size_t most = 0;
	const char *widest = NULL;
	for (size_t i = 0; i < base.bench_count; i++) {
		const br_bench_record_t *b = &base.benches[i];
		if (b->status != BR_BENCH_MEASURED ||
		    br_metric_class_of(&base, BR_METRIC_COUNT) != BR_METRIC_NOISY)
			continue;
		double delta = s->min_detectable_percent / 100.0 * fabs(b->summary.median);
		if (delta <= base.resolution) {
			notice(
			    s,
			    "%s: %s: %g%% of %g is within the clock's resolution (%g): no number "
			    "of iterations resolves it",
			    run->board.name, b->name, s->min_detectable_percent, b->summary.median,
			    base.resolution);
			continue;
		}
		size_t n = br_stats_samples_for_delta(&b->summary, delta, BR_STATS_CONFIDENCE);
		if (n > most) {
			most = n;
			widest = b->name;
		}
	}
	if (widest == NULL) {
		notice(s,
		       "%s: --min-detectable: %s has no noisy figure it can be resolved on (exact "
		       "figures tell any change with one iteration): iterations left as they are",
		       run->board.name, run->baseline_path);
	} else {
		sized->iterations_set = true;
		sized->iterations =
		    most > BR_SUITE_MAX_ITERATIONS ? BR_SUITE_MAX_ITERATIONS : (uint32_t)most;
		notice(
		    s,
		    "%s: --min-detectable %g%%: %u iterations per bench (%s needs the most: %zu, "
		    "from the baseline's spread)",
		    run->board.name, s->min_detectable_percent, sized->iterations, widest, most);
	}
	br_run_record_free(&base);
	return BR_OK;
}

/* The run's file in RESULTS/runs, reserved and written with the record as it
 * stands; a reserved name whose first write failed is removed, so that no
 * empty record is left behind. */
static br_status_t open_run_file(const br_run_settings_t *s, br_board_run_t *run, br_error_t *err)
{
	br_status_t st = br_results_run_path(s->results_dir, run->board.name, run->run_path,
	                                     sizeof(run->run_path), err);
	if (st != BR_OK)
		return st;
	st = br_run_json_save(&run->record, run->run_path, err);
	if (st != BR_OK)
		unlink(run->run_path);
	run->has_run_path = st == BR_OK;
	return st;
}

/* Frees the last bench record of rec and drops it. */
static void bench_drop_last(br_run_record_t *rec)
{
	br_bench_record_t *b = &rec->benches[rec->bench_count - 1U];
	free(b->samples);
	free(b->runs);
	for (size_t c = 0; c < b->counter_count; c++)
		free(b->counters[c].samples);
	rec->bench_count--;
}

/* Adds a run (launch) of median m to b's runs, named by the run's build. */
static void check_run_add(const br_run_record_t *rec, br_bench_record_t *b, double m)
{
	b->runs = xrealloc(b->runs, (b->run_count + 1U) * sizeof(b->runs[0]));
	br_baseline_run_t *r = &b->runs[b->run_count++];
	memset(r, 0, sizeof(*r));
	r->median = m;
	br_run_record_bench_build(rec, b, r->build, sizeof(r->build));
}

/*
 * check on the host against a stored baseline: each noisy bench whose
 * baseline entry holds two or more runs (so that the drift between runs can
 * be known) is run again, s->check_runs launches in all (BR_RUN_CHECK_RUNS
 * when 0), one after another, and each launch's median kept in its runs:
 * the diff judges their median against the baseline's runs
 * (stats/run_shift.h, the interval for a median of k). The bench's samples
 * and figures stay the first launch's. One launch's figure moves with the
 * host by as much as a baseline's runs show (3-14 % here), which leaves one
 * run too little room against a 5 % limit; the median of five has about a
 * third of that variance. A launch that fails fails the run, as the first
 * would have.
 */
static br_status_t check_further_runs(const br_run_settings_t *s, const br_suite_t *suite,
                                      br_board_run_t *run, br_error_t *err)
{
	uint32_t want = s->check_runs > 0 ? s->check_runs : BR_RUN_CHECK_RUNS;
	if (!s->check || !run->host || suite == NULL || want < 2U ||
	    br_metric_class_of(&run->record, BR_METRIC_COUNT) != BR_METRIC_NOISY)
		return BR_OK;
	bool exists = false;
	br_error_t ignored;
	br_run_record_t base;
	/* a baseline that is not there or cannot be read is the gate's to say */
	if (baseline_path_of(s, run, &exists, &ignored) != BR_OK || !exists ||
	    br_record_read(run->baseline_path, &base, &ignored) != BR_OK)
		return BR_OK;
	br_run_settings_t quiet = *s;
	quiet.progress = NULL;
	quiet.progress_done = NULL;
	br_status_t st = BR_OK;
	for (size_t i = 0; st == BR_OK && i < run->record.bench_count; i++) {
		br_bench_record_t *b = &run->record.benches[i];
		const br_bench_record_t *o = br_run_record_find(&base, b->name);
		const br_suite_bench_t *sb = suite_bench(suite, b->name);
		if (b->status != BR_BENCH_MEASURED || o == NULL || o->run_count < 2U ||
		    sb == NULL || sb->kind != BR_SUITE_ENTRY_STUB)
			continue;
		br_suite_t one = *suite;
		one.benches = &suite->benches[sb - suite->benches];
		one.bench_count = 1U;
		check_run_add(&run->record, b, b->summary.median);
		for (uint32_t k = 1; st == BR_OK && k < want; k++) {
			size_t before = run->record.bench_count;
			st = measure_host_benches(&quiet, &one, run, err);
			if (run->record.bench_count == before)
				continue;
			b = &run->record.benches[i]; /* the array may have moved */
			const br_bench_record_t *l =
			    &run->record.benches[run->record.bench_count - 1U];
			if (st == BR_OK && l->status == BR_BENCH_MEASURED) {
				check_run_add(&run->record, b, l->summary.median);
				b->wall_seconds += l->wall_seconds;
			} else if (st == BR_OK) {
				st = br_error_set(err, BR_ERR_INFRA, "%s: run %u of %u: %s",
				                  l->name, k + 1U, want, l->reason);
			}
			bench_drop_last(&run->record);
		}
	}
	br_run_record_free(&base);
	return st;
}

void br_board_run_execute(const br_run_settings_t *given, const br_suite_t *suite, const char *elf,
                          br_board_run_t *run)
{
	br_error_t err;
	br_error_clear(&err);
	run->status = BR_OK;
	br_status_t st = BR_OK;
	br_run_settings_t sized = *given;
	const br_run_settings_t *s = &sized;
	if (run->host)
		br_run_provenance_fill_program(&run->record, s->host_program, s->commit);
	else
		st = fill_run_firmware(suite, elf, NULL, s->commit, &run->record, &err);
	if (st != BR_OK) {
		run->status = st;
		run->failure = err;
		return;
	}
	fill_run_header(run, suite);
	if (given->min_detectable_percent > 0.0) {
		/* from the baseline of the run's suite and board (the header's) */
		st = size_for_detectable(given, run, &sized, &err);
		if (st != BR_OK) {
			run->status = st;
			run->failure = err;
			return;
		}
	}
	st = open_run_file(s, run, &err);
	if (st != BR_OK) {
		run->status = st;
		run->failure = err;
		return;
	}
	st = measure_board(s, suite, run, &err);
	if (st == BR_OK)
		st = check_further_runs(s, suite, run, &err);
	order_like_suite(&run->record, suite);
	run_finish(run, st, &err);
	br_error_t save_err;
	br_error_clear(&save_err);
	if (s->json_path != NULL &&
	    br_run_json_save(&run->record, s->json_path, &save_err) != BR_OK &&
	    run->status == BR_OK) {
		run->status = save_err.status;
		run->failure = save_err;
	}
	if (s->check) {
		br_error_clear(&err);
		st = gate_board(s, run, &err);
		if (st == BR_OK && !run->host)
			st = br_size_budgets_apply(suite, elf, &run->gate, &err);
		if (st != BR_OK && run->status == BR_OK) {
			run->status = st;
			run->failure = err;
		}
	}
	if (s->write_baseline && run->status == BR_OK)
		write_baseline(s, run);
}

/* Host A/B rounds: each side's iterations in BOARD_RUN_HOST_ROUNDS launches
 * of its program, in the order base head head base, four times over, so
 * that what changes on the host from one moment (or one launch) to the next
 * falls on both sides alike, a drift across the bench on both equally. */
#define BOARD_RUN_HOST_ROUNDS 8U

/* Merges the bench record after first (the same bench's next round) into
 * first: samples appended, figures summarized again; the later one freed. */
static void host_round_merge(br_run_record_t *rec, size_t first)
{
	br_bench_record_t *a = &rec->benches[first];
	br_bench_record_t *b = &rec->benches[rec->bench_count - 1U];
	if (b->status == BR_BENCH_MEASURED && a->status == BR_BENCH_MEASURED) {
		size_t n = a->n + b->n;
		a->samples = xrealloc(a->samples, n * sizeof(a->samples[0]));
		memcpy(a->samples + a->n, b->samples, b->n * sizeof(b->samples[0]));
		double *v = xcalloc(n, sizeof(double));
		for (size_t i = 0; i < n; i++)
			v[i] = (double)a->samples[i];
		br_error_t ignored;
		if (br_stats_summarize(v, n, &a->summary, &ignored) == BR_OK)
			a->n = n;
		free(v);
		a->wall_seconds += b->wall_seconds;
		a->halts += b->halts;
		/* the other counters are kept from the first round only when the
		 * rounds agree on them (their figures would no longer match n) */
		for (size_t c = 0; c < a->counter_count; c++) {
			free(a->counters[c].samples);
			a->counters[c].samples = NULL;
		}
		a->counter_count = 0;
	} else if (b->status != BR_BENCH_MEASURED) {
		br_bench_record_t keep = *a;
		*a = *b;
		*b = keep; /* the round that failed says why; the other is freed */
	}
	bench_drop_last(rec);
}

/* The launch just measured (the last bench of rec) adds its median to the
 * runs of the side's bench (at first): the launches, in order, are what the
 * paired test of an interleaved run pairs (stats/paired_shift.h). */
static void host_round_launch(br_run_record_t *rec, size_t first)
{
	br_bench_record_t *a = &rec->benches[first];
	const br_bench_record_t *b = &rec->benches[rec->bench_count - 1U];
	if (b->status != BR_BENCH_MEASURED || a->status != BR_BENCH_MEASURED)
		return;
	a->runs = xrealloc(a->runs, (a->run_count + 1U) * sizeof(a->runs[0]));
	memset(&a->runs[a->run_count], 0, sizeof(a->runs[0]));
	a->runs[a->run_count++].median = b->summary.median;
}

/* One bench of a host A/B run, in rounds (BOARD_RUN_HOST_ROUNDS a side). */
static br_status_t host_ab_bench(const br_run_settings_t *s, const br_suite_t *one,
                                 const br_ab_sides_t *ab, br_board_run_t *base,
                                 br_board_run_t *head, br_error_t *err)
{
	static const bool base_first[2U * BOARD_RUN_HOST_ROUNDS] = {
	    true, false, false, true, true, false, false, true,
	    true, false, false, true, true, false, false, true};
	br_run_settings_t side = *s;
	uint32_t total = s->iterations_set ? s->iterations : one->iterations;
	side.iterations_set = true;
	side.iterations = (total + BOARD_RUN_HOST_ROUNDS - 1U) / BOARD_RUN_HOST_ROUNDS;
	if (side.iterations < 1U)
		side.iterations = 1U;
	size_t first_base = base->record.bench_count, first_head = head->record.bench_count;
	for (size_t r = 0; r < 2U * BOARD_RUN_HOST_ROUNDS; r++) {
		br_board_run_t *run = base_first[r] ? base : head;
		side.host_program = base_first[r] ? ab->base_elf : ab->head_elf;
		br_status_t st = measure_host_benches(&side, one, run, err);
		size_t first = base_first[r] ? first_base : first_head;
		if (run->record.bench_count > first)
			host_round_launch(&run->record, first);
		if (run->record.bench_count > first + 1U)
			host_round_merge(&run->record, first);
		if (st != BR_OK)
			return st;
	}
	return BR_OK;
}

/* Where the entry's ELF is at the base commit: the same path relative to the
 * repository, inside the worktree the suite's build: ran in. False, with why
 * in why, when the ELF is outside the repository or the build at the base
 * did not leave it there (benchrack cannot rebuild it). */
static bool ab_entry_elf(const br_ab_sides_t *ab, const char *elf, char *out, size_t cap, char *why,
                         size_t why_cap)
{
	char abs_elf[PATH_MAX], abs_repo[PATH_MAX]; /* realpath writes up to PATH_MAX */
	if (ab->repo == NULL || ab->worktree == NULL || realpath(ab->repo, abs_repo) == NULL) {
		snprintf(why, why_cap, "no worktree of the base to find it in");
		return false;
	}
	if (realpath(elf, abs_elf) == NULL) {
		snprintf(why, why_cap, "%.400s: %s", elf, strerror(errno));
		return false;
	}
	size_t n = strlen(abs_repo);
	if (strncmp(abs_elf, abs_repo, n) != 0 || abs_elf[n] != '/') {
		snprintf(why, why_cap, "%.400s is outside the repository %.400s", elf, abs_repo);
		return false;
	}
	int w = snprintf(out, cap, "%s%s", ab->worktree, abs_elf + n);
	if (w < 0 || (size_t)w >= cap) {
		snprintf(why, why_cap, "path too long");
		return false;
	}
	if (access(out, R_OK) != 0) {
		snprintf(why, why_cap,
		         "the suite's build: at %.12s did not make %.400s (only what it builds, or "
		         "what is committed, exists at the base)",
		         ab->base_commit, abs_elf + n + 1);
		return false;
	}
	return true;
}

/* One side of an A/B run: provenance, header, its run file written first;
 * the base's run file sits beside the head's (which must be open already),
 * named after it. */
static br_status_t ab_side_open(const br_run_settings_t *s, const br_suite_t *suite,
                                const br_ab_sides_t *ab, bool base, const br_board_run_t *head,
                                br_board_run_t *run, br_error_t *err)
{
	const char *one = entries_one_elf(suite);
	char base_one[BR_BOARD_RUN_PATH_BYTES], why[BR_ERROR_MESSAGE_BYTES];
	const char *side_one = NULL;
	if (base && one != NULL)
		side_one = ab_entry_elf(ab, one, base_one, sizeof(base_one), why, sizeof(why))
		               ? base_one
		               : NULL;
	br_status_t st;
	if (run->host) { /* a host bench program, not an ELF for a board */
		br_run_provenance_fill_program(&run->record, base ? ab->base_elf : ab->head_elf,
		                               base ? ab->base_commit : s->commit);
		st = BR_OK;
	} else if (base && one != NULL && side_one == NULL && !has_stub_benches(suite)) {
		br_run_provenance_fill_none(&run->record); /* nothing of the base to name */
		st = BR_OK;
	} else {
		st = fill_run_firmware(suite, base ? ab->base_elf : ab->head_elf, side_one,
		                       base ? ab->base_commit : s->commit, &run->record, err);
	}
	if (st != BR_OK)
		return st;
	fill_run_header(run, suite);
	br_record_ab_t *rab = &run->record.ab;
	snprintf(rab->role, sizeof(rab->role), "%s", base ? "base" : "head");
	snprintf(rab->ref, sizeof(rab->ref), "%s", ab->ref);
	snprintf(rab->base_commit, sizeof(rab->base_commit), "%s", ab->base_commit);
	snprintf(rab->head_commit, sizeof(rab->head_commit), "%s", ab->head_commit);
	if (base) {
		/* <head's name>-base.json: unique as the head's is, and no empty file
		 * reserved under another name is left behind */
		size_t n = strlen(head->run_path);
		if (n <= 5U || n + 5U >= sizeof(run->run_path))
			return br_error_set(err, BR_ERR_USAGE, "%s: path too long", head->run_path);
		snprintf(run->run_path, sizeof(run->run_path), "%.*s-base.json", (int)(n - 5U),
		         head->run_path);
	} else {
		return open_run_file(s, run, err);
	}
	st = br_run_json_save(&run->record, run->run_path, err);
	run->has_run_path = st == BR_OK;
	return st;
}

/* The entry sb on both sides, base first: the base on the entry's ELF as the
 * base commit built it, the head on the entry's own; where the base cannot
 * be rebuilt, the head alone, and a notice says why. */
static br_status_t ab_measure_entry(const br_run_settings_t *s, const br_suite_t *suite,
                                    const br_ab_sides_t *ab, const br_suite_bench_t *sb,
                                    br_board_run_t *base, br_board_run_t *head, br_error_t *err)
{
	char base_elf[BR_BOARD_RUN_PATH_BYTES], why[BR_ERROR_MESSAGE_BYTES];
	br_status_t st = BR_OK;
	br_status_t entry = BR_OK;
	br_error_t entry_why;
	if (ab_entry_elf(ab, sb->elf_path, base_elf, sizeof(base_elf), why, sizeof(why)))
		st = measure_elf_entry(s, suite, sb, base_elf, ab->base_commit, base, &entry,
		                       &entry_why, err);
	else
		notice(s, "bench %s: not compared with %s: %s; measured on this side only",
		       sb->name.value, ab->ref, why);
	if (st == BR_OK && entry == BR_OK)
		st = measure_elf_entry(s, suite, sb, sb->elf_path, s->commit, head, &entry,
		                       &entry_why, err);
	if (st == BR_OK && entry != BR_OK) {
		*err = entry_why;
		st = entry;
	}
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
		st = ab_side_open(s, suite, ab, sides[i] == base, head, sides[i], &err);
	/* interleaved per bench: base, head, base, head ... on the same board,
	 * so that whatever drifts falls on both; stub benches on the suite
	 * firmware of each commit, entries on each commit's build of their ELF */
	size_t total = suite->bench_count, done = 0;
	for (size_t i = 0; st == BR_OK && i < suite->bench_count; i++) {
		const br_suite_bench_t *sb = &suite->benches[i];
		if (sb->kind != BR_SUITE_ENTRY_STUB) {
			progress(s, (unsigned)done++, (unsigned)total, sb->name.value);
			st = ab_measure_entry(s, suite, ab, sb, base, head, &err);
			continue;
		}
		done++;
		br_suite_t one = *suite;
		one.benches = &suite->benches[i];
		one.bench_count = 1U;
		if (head->host) {
			st = host_ab_bench(s, &one, ab, base, head, &err);
			continue;
		}
		st = measure_stub_benches(s, &one, base, &err);
		if (st == BR_OK)
			st = measure_stub_benches(s, &one, head, &err);
	}
	progress_done(s);
	for (size_t i = 0; i < 2U; i++) {
		if (sides[i]->has_run_path)
			run_finish(sides[i], st, &err);
	}
	base->status = BR_OK; /* what went wrong is said once, by the head */
	if (st != BR_OK && head->status == BR_OK) {
		head->status = st;
		head->failure = err;
	}
	if (s->json_path != NULL && head->has_run_path)
		br_run_json_save(&head->record, s->json_path, &err);
	if (st != BR_OK || head->status != BR_OK)
		return;
	/* the base is the baseline: the gate applies the suite's regression
	 * limit to the difference (budgets limit figures, not differences:
	 * `check` without --against holds them) */
	br_diff_compute(&base->record, &head->record, &head->diff);
	head->compared = true;
	snprintf(head->baseline_path, sizeof(head->baseline_path), "base %.60s (%.12s): %.900s",
	         ab->ref, ab->base_commit, base->run_path);
	if (s->check) {
		br_run_record_t diff_only = head->record;
		diff_only.benches =
		    xcalloc(head->record.bench_count + 1U, sizeof(br_bench_record_t));
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
