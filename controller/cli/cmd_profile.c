/*
 * `benchrack profile`: where the cycles go (controller/profile/). Arguments
 * in, the profile out in the format asked; exit 0 profiled, 2 usage or input
 * error, 3 target, server or counter error.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rack/board_lock.h"
#include "cli/cli.h"
#include "cli/option_table.h"
#include "cli/output.h"
#include "debug/server_kind.h"
#include "run/install_paths.h"
#include "run/board_target.h"
#include "measure/counter_spec.h"
#include "profile/format.h"
#include "profile/profile_run.h"

#define PROFILE_MAX_STEPS_LIMIT 1000000000000ULL
#define PROFILE_MAX_INTERVAL 1000000000ULL
#define PROFILE_MAX_WINDOW 1000000ULL
#define PROFILE_MAX_SECONDS 86400.0
#define PROFILE_MAX_RATE 1e6
#define PROFILE_MS_PER_S 1000.0

/* The usage's two listings: what to profile, and the options. */
enum { PROFILE_GROUP_WHAT, PROFILE_GROUP_OPTIONS };

static const br_cli_opts_t profile_options;

static void profile_usage(FILE *out)
{
	fputs("usage: benchrack profile ELF [WHAT] [options]\n"
	      "\n"
	      "Where the time goes in any firmware, with call chains, on QEMU's netduinoplus2\n"
	      "unless --remote names a running gdbserver. WHAT (default: everything, sampled\n"
	      "from reset for --duration):\n",
	      out);
	br_cli_opts_usage(out, &profile_options, PROFILE_GROUP_WHAT);
	fputs("\noptions:\n", out);
	br_cli_opts_usage(out, &profile_options, PROFILE_GROUP_OPTIONS);
	fputs("\n"
	      "exit codes: 0 profiled, 2 usage or input error (a region longer than\n"
	      "            --max-steps too), 3 target, server or counter error\n",
	      out);
}

static int profile_bad(const char *message)
{
	fprintf(stderr, "benchrack profile: %s; try 'benchrack profile --help'\n", message);
	return 2;
}

/* A number of seconds or hertz from 0 to max (fractions allowed). */
static int profile_number(const char *opt, const char *arg, double max, double *out)
{
	char *end = NULL;
	double v = strtod(arg, &end);
	if (arg[0] == '\0' || *end != '\0' || !(v >= 0) || v > max) {
		fprintf(stderr, "benchrack profile: %s takes a number from 0 to %.0f, not '%s'\n",
		        opt, max, arg);
		return 2;
	}
	*out = v;
	return 0;
}

typedef struct profile_cli {
	br_profile_options_t o;
	br_counter_t counter;
	bool counter_given;
	const char *board;
	const char *load;
	br_board_t board_file; /* loaded from --board: the endpoint points into it */
	br_endpoint_t endpoint;
	const char *format_name;
	br_profile_format_t format;
	const char *output;
} profile_cli_t;

static int profile_set_no_exec_log(void *opts, const char *arg)
{
	(void)arg;
	((profile_cli_t *)opts)->o.exec_log = false;
	return 0;
}

static int profile_set_duration(void *opts, const char *arg)
{
	return profile_number("--duration", arg, PROFILE_MAX_SECONDS,
	                      &((profile_cli_t *)opts)->o.duration_s);
}

static int profile_set_rate(void *opts, const char *arg)
{
	return profile_number("--rate", arg, PROFILE_MAX_RATE, &((profile_cli_t *)opts)->o.rate_hz);
}

static int profile_set_timeout(void *opts, const char *arg)
{
	double v = 0;
	if (profile_number("--timeout", arg, PROFILE_MAX_SECONDS, &v) != 0)
		return 2;
	((profile_cli_t *)opts)->o.timeout_ms = (int)(v * PROFILE_MS_PER_S);
	return 0;
}

static int profile_set_unwind(void *opts, const char *arg)
{
	if (!br_unwind_method_parse(arg, &((profile_cli_t *)opts)->o.unwind))
		return profile_bad("--unwind is auto, cfi or frame-records");
	return 0;
}

static int profile_set_counter(void *opts, const char *arg)
{
	profile_cli_t *c = opts;
	br_error_t err;
	br_error_clear(&err);
	if (br_counter_spec_parse(arg, 0, NULL, &c->counter, &err) != BR_OK)
		return br_cli_report(&err);
	c->o.counter = &c->counter;
	c->counter_given = true;
	return 0;
}

static int profile_set_load(void *opts, const char *arg)
{
	if (!br_board_load_parse(arg, &((profile_cli_t *)opts)->o.load))
		return profile_bad("--load is always, if-different or never");
	return 0;
}

#define C(field) offsetof(profile_cli_t, field)
#define O(field) offsetof(profile_cli_t, o.field)

static const br_cli_opt_t profile_rows[] = {
    {.name = "from",
     .arg = "X",
     .offset = O(from),
     .group = PROFILE_GROUP_WHAT,
     .help = "with --to Y: the time from reaching X to reaching Y (a function, 0x address "
             "or FILE:LINE each), as measure has it"},
    {.name = "to",
     .arg = "Y",
     .offset = O(to),
     .group = PROFILE_GROUP_WHAT,
     .help = "where the time from --from X ends"},
    {.name = "function",
     .arg = "NAME",
     .offset = O(function),
     .group = PROFILE_GROUP_WHAT,
     .help = "each call of NAME, from its entry to its return"},
    {.name = "exact",
     .kind = BR_CLI_OPT_FLAG,
     .offset = O(exact),
     .group = PROFILE_GROUP_OPTIONS,
     .help = "every instruction of the region's first pass: exact self and total counts per "
             "function and source line, with the call stack at each (from QEMU's execution "
             "log on the QEMU benchrack launches; single-stepped elsewhere)"},
    {.name = "max-steps",
     .arg = "N",
     .kind = BR_CLI_OPT_U64,
     .offset = O(max_steps),
     .max = PROFILE_MAX_STEPS_LIMIT,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "--exact refuses a region longer than N instructions (counted, or stepped: "
             "default 100000000 from QEMU's execution log, 1000000 stepped, one round trip "
             "each)"},
    {.name = "no-exec-log",
     .kind = BR_CLI_OPT_CALL,
     .set = profile_set_no_exec_log,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "on a QEMU benchrack launches, step (--exact) or halt (sampling) over the debug "
             "port as on any other server, instead of reading QEMU's execution log (the "
             "default there: exact at about 0.5 M instructions/s, samples at instruction "
             "counts, unbiased)"},
    {.name = "interval",
     .arg = "N",
     .kind = BR_CLI_OPT_U64,
     .offset = O(interval),
     .min = 1,
     .max = PROFILE_MAX_INTERVAL,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "sampling from QEMU's execution log: one sample per N instructions on average "
             "(default 1000)"},
    {.name = "pcsr",
     .kind = BR_CLI_OPT_FLAG,
     .offset = O(pcsr),
     .group = PROFILE_GROUP_OPTIONS,
     .help = "sample DWT_PCSR while the core runs, never halting it: a flat profile of "
             "everything (no call chains, no region); needs a real core with a DWT and a "
             "server that reads memory while it runs (OpenOCD); refused on QEMU"},
    {.name = "duration",
     .arg = "S",
     .kind = BR_CLI_OPT_CALL,
     .set = profile_set_duration,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "sampling: how long, in seconds (default 2); with a region, to the end of the "
             "pass under way (whole passes only)"},
    {.name = "rate",
     .arg = "HZ",
     .kind = BR_CLI_OPT_CALL,
     .set = profile_set_rate,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "halting samples per second (default: as fast as the server allows); not with "
             "QEMU's execution log"},
    {.name = "stack-window",
     .arg = "B",
     .kind = BR_CLI_OPT_U32,
     .offset = O(stack_window),
     .max = PROFILE_MAX_WINDOW,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "stack bytes read with each sample, below the stack's top (default 512): "
             "deeper frames end in [unknown]"},
    {.name = "unwind",
     .arg = "M",
     .kind = BR_CLI_OPT_CALL,
     .set = profile_set_unwind,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "auto (CFI, then frame records; default), cfi, frame-records"},
    {.name = "format",
     .letter = 'f',
     .arg = "F",
     .offset = C(format_name),
     .choices = br_profile_format_names,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "the output: the table (default), folded stacks (flamegraph.pl, inferno), "
             "speedscope's file format, or benchrack's own record"},
    {.name = "output",
     .letter = 'o',
     .arg = "FILE",
     .offset = C(output),
     .group = PROFILE_GROUP_OPTIONS,
     .help = "write the format there (the table still on stdout)"},
    {.name = "counter",
     .arg = "SPEC",
     .kind = BR_CLI_OPT_CALL,
     .set = profile_set_counter,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "--exact's cross-check counter (default tim2)"},
    {.name = "board",
     .letter = 'b',
     .arg = "B",
     .offset = C(board),
     .group = PROFILE_GROUP_OPTIONS,
     .help = "the board (a name in configs/boards or a board file), reached as measure "
             "reaches it; its counter for --exact"},
    {.name = "load",
     .arg = "POLICY",
     .offset = C(load),
     .set = profile_set_load,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "always, if-different, never (default: the board file's)"},
    {.name = "qemu",
     .arg = "PROGRAM",
     .offset = O(link.qemu_program),
     .group = PROFILE_GROUP_OPTIONS,
     .help = "the QEMU to launch (default " BR_QEMU_PROGRAM ")"},
    {.name = "machine",
     .arg = "NAME",
     .offset = O(link.machine),
     .group = PROFILE_GROUP_OPTIONS,
     .help = "its machine (default netduinoplus2)"},
    {.name = "remote",
     .arg = "HOST:PORT",
     .offset = O(link.remote),
     .group = PROFILE_GROUP_OPTIONS,
     .help = "a running gdbserver, as for measure"},
    {.name = "flavour",
     .arg = "NAME",
     .offset = O(link.flavour),
     .choices = br_flavour_names,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "that server's kind, by default " BR_FLAVOUR_GENERIC_NAME},
    {.name = "timeout",
     .arg = "SEC",
     .kind = BR_CLI_OPT_CALL,
     .set = profile_set_timeout,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "the longest wait for one stop, or for QEMU's execution log to go on "
             "(default 10)"},
    {.name = "help",
     .letter = 'h',
     .kind = BR_CLI_OPT_HELP,
     .group = PROFILE_GROUP_OPTIONS,
     .help = "this text"},
};

static const br_cli_opts_t profile_options = {
    .command = "profile",
    .rows = profile_rows,
    .count = BR_CLI_OPTS_COUNT(profile_rows),
    .column = 23,
    .usage = profile_usage,
};

/* Parses argv into c; returns -1 to go on, or an exit code. */
static int profile_parse(int argc, char **argv, profile_cli_t *c)
{
	br_profile_options_t *o = &c->o;
	int code = br_cli_opts_parse(&profile_options, argc, argv, c);
	if (code != -1)
		return code;
	if (argc - optind != 1)
		return profile_bad("give exactly one firmware ELF");
	if (c->board != NULL && (o->link.remote != NULL || o->link.machine != NULL))
		return profile_bad(
		    "--board says where the board is: leave out --remote and --machine");
	o->elf_path = argv[optind];
	if (c->format_name != NULL && !br_profile_format_find(c->format_name, &c->format)) {
		fprintf(stderr,
		        "benchrack profile: --format takes one of %s, not '%s'; try 'benchrack "
		        "profile --help'\n",
		        br_profile_format_names(), c->format_name);
		return 2;
	}
	return -1;
}

static void show_output(void *ctx, int fd, const char *text, size_t len)
{
	(void)ctx;
	(void)fd;
	fprintf(stderr, "firmware: %.*s", (int)len, text);
}

/* "profiling: N instructions counted" on stderr, rewritten in place; only
 * on a terminal. */
static void show_progress(void *ctx, uint64_t counted, uint64_t instructions)
{
	bool *showing = ctx;
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr,
	        "\r\033[Kprofiling: %" PRIu64 " in the region counted, %" PRIu64
	        " instructions run",
	        counted, instructions);
	fflush(stderr);
	*showing = true;
}

/* The board --board names: its endpoint, its counter unless --counter, its
 * load policy unless --load. */
static br_status_t board_endpoint(profile_cli_t *c, br_error_t *err)
{
	br_status_t st =
	    br_board_reach(c->board, br_configs_dir(), c->o.elf_path, c->o.link.qemu_program,
	                   &c->board_file, &c->endpoint, c->counter_given ? NULL : &c->counter,
	                   c->load == NULL ? &c->o.load : NULL, err);
	if (st != BR_OK)
		return st;
	if (!c->counter_given)
		c->o.counter = &c->counter;
	c->o.endpoint = &c->endpoint;
	return BR_OK;
}

/* The profile with the board's lock held (none for QEMU). */
static br_status_t profile_locked(profile_cli_t *c, br_profile_t *p, br_error_t *err)
{
	br_profile_options_t *o = &c->o;
	br_profile_data_init(p, o->exact ? BR_PROFILE_EXACT : BR_PROFILE_SAMPLED);
	br_status_t st = c->board != NULL ? board_endpoint(c, err) : BR_OK;
	br_measure_options_t mo;
	br_measure_options_default(&mo);
	mo.elf_path = o->elf_path;
	mo.link = o->link;
	mo.endpoint = o->endpoint;
	br_endpoint_t ep;
	char host[BR_MEASURE_HOST_BYTES];
	if (st == BR_OK)
		st = br_measure_endpoint(&mo, &ep, host, sizeof(host), err);
	br_board_lock_t lock;
	if (st == BR_OK)
		st = br_board_lock_take(&ep, stderr, &lock, err);
	if (st != BR_OK)
		return st;
	st = br_profile_run(o, p, err);
	br_cli_progress_done(NULL);
	br_board_lock_give(&lock);
	return st;
}

int br_cli_profile(int argc, char **argv)
{
	profile_cli_t c;
	memset(&c, 0, sizeof(c));
	br_profile_options_default(&c.o);
	c.o.link.output = show_output;
	c.o.link.load_progress = br_cli_load_progress; /* on a terminal only */
	bool showing = false;
	c.o.progress = show_progress;
	c.o.progress_ctx = &showing;
	c.format = BR_PROFILE_FORMAT_TABLE;
	int code = profile_parse(argc, argv, &c);
	if (code >= 0)
		return code;
	br_error_t err;
	br_error_clear(&err);
	br_profile_t p;
	br_status_t st = profile_locked(&c, &p, &err);
	if (showing)
		fputs("\r\033[K", stderr);
	if (st == BR_OK) {
		FILE *out = stdout;
		if (c.output != NULL) {
			out = fopen(c.output, "w");
			if (out == NULL)
				st = br_error_set(&err, BR_ERR_USAGE, "%s: cannot write it",
				                  c.output);
		}
		if (st == BR_OK) {
			br_profile_write(out, c.format, &p, BENCHRACK_VERSION);
			if (out != stdout && fclose(out) != 0)
				st = br_error_set(&err, BR_ERR_INFRA, "%s: writing it failed",
				                  c.output);
			if (out != stdout && c.format != BR_PROFILE_FORMAT_TABLE)
				br_profile_write_table(stdout, &p);
		}
	}
	br_profile_data_free(&p);
	if (c.board != NULL)
		br_board_free(&c.board_file);
	if (st != BR_OK)
		return br_cli_report(&err);
	return 0;
}
