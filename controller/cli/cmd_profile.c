/*
 * `benchrack profile`: where the cycles go (controller/profile/). Arguments
 * in, the profile out in the format asked; exit 0 profiled, 2 usage or input
 * error, 3 target, server or counter error.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rack/board_lock.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "run/install_paths.h"
#include "run/board_target.h"
#include "measure/counter_spec.h"
#include "profile/format.h"
#include "profile/profile_run.h"

#define PROFILE_MAX_STEPS_LIMIT 1000000000000ULL
#define PROFILE_MS_PER_S 1000.0

static void profile_usage(FILE *out)
{
	fputs("usage: benchrack profile ELF [WHAT] [options]\n"
	      "\n"
	      "Where the time goes in any firmware, with call chains, on QEMU's netduinoplus2\n"
	      "unless --remote names a running gdbserver. WHAT (default: everything, sampled\n"
	      "from reset for --duration):\n"
	      "  --from X --to Y      the time from reaching X to reaching Y (a function, 0x\n"
	      "                       address or FILE:LINE each), as measure has it\n"
	      "  --function NAME      each call of NAME, from its entry to its return\n"
	      "\n"
	      "options:\n"
	      "      --exact          every instruction of the region's first pass: exact self\n"
	      "                       and total counts per function and source line, with the\n"
	      "                       call stack at each (from QEMU's execution log on the QEMU\n"
	      "                       benchrack launches; single-stepped elsewhere)\n"
	      "      --max-steps N    --exact refuses a region longer than N instructions\n"
	      "                       (counted, or stepped: default 100000000 from QEMU's\n"
	      "                       execution log, 1000000 stepped, one round trip each)\n"
	      "      --no-exec-log    on a QEMU benchrack launches, step (--exact) or halt\n"
	      "                       (sampling) over the debug port as on any other server,\n"
	      "                       instead of reading QEMU's execution log (the default\n"
	      "                       there: exact at about 0.5 M instructions/s, samples at\n"
	      "                       instruction counts, unbiased)\n"
	      "      --interval N     sampling from QEMU's execution log: one sample per N\n"
	      "                       instructions on average (default 1000)\n"
	      "      --pcsr           sample DWT_PCSR while the core runs, never halting it: a\n"
	      "                       flat profile of everything (no call chains, no region);\n"
	      "                       needs a real core with a DWT and a server that reads\n"
	      "                       memory while it runs (OpenOCD); refused on QEMU\n"
	      "      --duration S     sampling: how long, in seconds (default 2)\n"
	      "      --rate HZ        halting samples per second (default: as fast as the\n"
	      "                       server allows); not with QEMU's execution log\n"
	      "      --stack-window B stack bytes read with each sample, below the stack's top\n"
	      "                       (default 512): deeper frames end in [unknown]\n"
	      "      --unwind M       auto (CFI, then frame records; default), cfi,\n"
	      "                       frame-records\n"
	      "  -f, --format F       table (default), folded (flamegraph.pl, inferno),\n"
	      "                       speedscope, json\n"
	      "  -o, --output FILE    write the format there (the table still on stdout)\n"
	      "      --counter SPEC   --exact's cross-check counter (default tim2)\n"
	      "  -b, --board B        the board (a name in configs/boards or a board file),\n"
	      "                       reached as measure reaches it; its counter for --exact\n"
	      "      --load POLICY    always, if-different, never (default: the board file's)\n"
	      "      --qemu PROGRAM, --machine NAME, --remote HOST:PORT, --flavour NAME\n"
	      "                       where the board is without a board file, as for measure\n"
	      "      --timeout SEC    the longest wait for one stop (default 10)\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "exit codes: 0 profiled, 2 usage or input error (a region longer than\n"
	      "            --max-steps too), 3 target, server or counter error\n",
	      out);
}

static int profile_bad(const char *message)
{
	fprintf(stderr, "benchrack profile: %s; try 'benchrack profile --help'\n", message);
	return 2;
}

static int parse_number(const char *opt, const char *arg, double max, double *out)
{
	char *end = NULL;
	double v = strtod(arg, &end);
	if (arg[0] == '\0' || *end != '\0' || !(v >= 0) || v > max) {
		fprintf(stderr, "benchrack profile: %s takes a number from 0 to %.0f, not '%s'\n",
		        opt, max, arg);
		return -1;
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
	const char *format;
	const char *output;
} profile_cli_t;

/* Parses argv into c; returns -1 to go on, or an exit code. */
static int profile_parse(int argc, char **argv, profile_cli_t *c)
{
	enum {
		OPT_FROM = 256,
		OPT_TO,
		OPT_FUNCTION,
		OPT_EXACT,
		OPT_MAX_STEPS,
		OPT_DURATION,
		OPT_RATE,
		OPT_WINDOW,
		OPT_UNWIND,
		OPT_COUNTER,
		OPT_QEMU,
		OPT_MACHINE,
		OPT_REMOTE,
		OPT_FLAVOUR,
		OPT_TIMEOUT,
		OPT_LOAD,
		OPT_PCSR,
		OPT_NO_EXEC_LOG,
		OPT_INTERVAL,
	};
	static const struct option longopts[] = {
	    {"from", required_argument, NULL, OPT_FROM},
	    {"to", required_argument, NULL, OPT_TO},
	    {"function", required_argument, NULL, OPT_FUNCTION},
	    {"exact", no_argument, NULL, OPT_EXACT},
	    {"pcsr", no_argument, NULL, OPT_PCSR},
	    {"no-exec-log", no_argument, NULL, OPT_NO_EXEC_LOG},
	    {"interval", required_argument, NULL, OPT_INTERVAL},
	    {"max-steps", required_argument, NULL, OPT_MAX_STEPS},
	    {"duration", required_argument, NULL, OPT_DURATION},
	    {"rate", required_argument, NULL, OPT_RATE},
	    {"stack-window", required_argument, NULL, OPT_WINDOW},
	    {"unwind", required_argument, NULL, OPT_UNWIND},
	    {"format", required_argument, NULL, 'f'},
	    {"output", required_argument, NULL, 'o'},
	    {"counter", required_argument, NULL, OPT_COUNTER},
	    {"qemu", required_argument, NULL, OPT_QEMU},
	    {"machine", required_argument, NULL, OPT_MACHINE},
	    {"remote", required_argument, NULL, OPT_REMOTE},
	    {"flavour", required_argument, NULL, OPT_FLAVOUR},
	    {"timeout", required_argument, NULL, OPT_TIMEOUT},
	    {"board", required_argument, NULL, 'b'},
	    {"load", required_argument, NULL, OPT_LOAD},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	br_profile_options_t *o = &c->o;
	double v = 0;
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "b:f:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_FROM:
			o->from = optarg;
			break;
		case OPT_TO:
			o->to = optarg;
			break;
		case OPT_FUNCTION:
			o->function = optarg;
			break;
		case OPT_EXACT:
			o->exact = true;
			break;
		case OPT_PCSR:
			o->pcsr = true;
			break;
		case OPT_NO_EXEC_LOG:
			o->exec_log = false;
			break;
		case OPT_INTERVAL:
			if (parse_number("--interval", optarg, 1e9, &v) != 0)
				return 2;
			if (v < 1)
				return profile_bad("--interval is at least 1 instruction");
			o->interval = (uint64_t)v;
			break;
		case OPT_MAX_STEPS:
			if (parse_number("--max-steps", optarg, (double)PROFILE_MAX_STEPS_LIMIT,
			                 &v) != 0)
				return 2;
			o->max_steps = (uint64_t)v;
			break;
		case OPT_DURATION:
			if (parse_number("--duration", optarg, 86400.0, &v) != 0)
				return 2;
			o->duration_s = v;
			break;
		case OPT_RATE:
			if (parse_number("--rate", optarg, 1e6, &v) != 0)
				return 2;
			o->rate_hz = v;
			break;
		case OPT_WINDOW:
			if (parse_number("--stack-window", optarg, 1e6, &v) != 0)
				return 2;
			o->stack_window = (uint32_t)v;
			break;
		case OPT_UNWIND:
			if (!br_unwind_method_parse(optarg, &o->unwind))
				return profile_bad("--unwind is auto, cfi or frame-records");
			break;
		case 'f':
			c->format = optarg;
			break;
		case 'o':
			c->output = optarg;
			break;
		case OPT_COUNTER: {
			br_error_t err;
			br_error_clear(&err);
			if (br_counter_spec_parse(optarg, 0, NULL, &c->counter, &err) != BR_OK)
				return br_cli_report(&err);
			o->counter = &c->counter;
			c->counter_given = true;
			break;
		}
		case 'b':
			c->board = optarg;
			break;
		case OPT_LOAD:
			if (!br_board_load_parse(optarg, &o->load))
				return profile_bad("--load is always, if-different or never");
			c->load = optarg;
			break;
		case OPT_QEMU:
			o->link.qemu_program = optarg;
			break;
		case OPT_MACHINE:
			o->link.machine = optarg;
			break;
		case OPT_REMOTE:
			o->link.remote = optarg;
			break;
		case OPT_FLAVOUR:
			o->link.flavour = optarg;
			break;
		case OPT_TIMEOUT:
			if (parse_number("--timeout", optarg, 86400.0, &v) != 0)
				return 2;
			o->timeout_ms = (int)(v * PROFILE_MS_PER_S);
			break;
		case 'h':
			profile_usage(stdout);
			return 0;
		default:
			profile_usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 1)
		return profile_bad("give exactly one firmware ELF");
	if (c->board != NULL && (o->link.remote != NULL || o->link.machine != NULL))
		return profile_bad(
		    "--board says where the board is: leave out --remote and --machine");
	o->elf_path = argv[optind];
	static const char *const formats[] = {"table", "folded", "speedscope", "json"};
	bool known = false;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		known = known || strcmp(c->format, formats[i]) == 0;
	if (!known)
		return profile_bad("--format is table, folded, speedscope or json");
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

static void write_format(FILE *out, const char *format, const br_profile_t *p)
{
	if (strcmp(format, "folded") == 0)
		br_profile_write_folded(out, p);
	else if (strcmp(format, "speedscope") == 0)
		br_profile_write_speedscope(out, p, BENCHRACK_VERSION);
	else if (strcmp(format, "json") == 0)
		br_profile_write_json(out, p, BENCHRACK_VERSION);
	else
		br_profile_write_table(out, p);
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
	c.format = "table";
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
			write_format(out, c.format, &p);
			if (out != stdout && fclose(out) != 0)
				st = br_error_set(&err, BR_ERR_INFRA, "%s: writing it failed",
				                  c.output);
			if (out != stdout && strcmp(c.format, "table") != 0)
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
