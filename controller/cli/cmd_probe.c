/*
 * `benchrack probe`: connect to a board and report what is there — the
 * server and what it offers, the core (CPUID), whether DWT_CYCCNT exists and
 * advances, the FPB comparators, the memory map. A health check a rack can
 * run: exit 0 healthy, 3 not (no connection, no core, unreadable memory).
 * Also dumps memory (--dump) and runs the firmware showing what it prints
 * (--run, console and semihosting).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rack/board_lock.h"
#include "cli/cli.h"
#include "cli/option_number.h"
#include "cli/option_table.h"
#include "run/install_paths.h"
#include "config/board.h"
#include "debug/endpoint.h"
#include "debug/probe_report.h"
#include "rsp/transport.h"
#include "run/board_target.h"

#define PROBE_MAX_DUMPS 16
#define PROBE_MAX_DUMP_BYTES (16U * 1024U * 1024U)
#define PROBE_HOSTPORT_MAX 256
#define PROBE_BAD_BYTES 4096U

/* The usage's two listings: where the board is, and the options. */
enum { PROBE_GROUP_WHERE, PROBE_GROUP_OPTIONS };

typedef struct probe_dump {
	uint32_t address;
	uint32_t length;
} probe_dump_t;

typedef struct probe_options {
	br_endpoint_t ep;
	char host[PROBE_HOSTPORT_MAX];
	probe_dump_t dumps[PROBE_MAX_DUMPS];
	int dump_count;
	long run_ms; /* -1: do not run */
	bool quiet;  /* --dump only: no report */
	bool kind_given;
	/* --kernel, --qemu, --openocd, --serial: for the kind they belong to,
	 * whichever order the options come in (probe_apply_launch). */
	const char *kernel, *qemu_program, *openocd_program, *probe_serial;
	const char *board; /* --board: where the board is, from its file */
	br_board_t board_file;
} probe_options_t;

static const br_cli_opts_t probe_options;

static void probe_usage(FILE *out)
{
	fputs("usage: benchrack probe [where] [options]\n"
	      "\n"
	      "Connects to a board and reports the server, its features, the core (CPUID),\n"
	      "whether DWT_CYCCNT exists and counts, the FPB comparators and the memory map.\n"
	      "Exit 0: healthy; 3: not (no server, no core, unreadable memory).\n"
	      "\n"
	      "where (default: QEMU netduinoplus2, launched):\n",
	      out);
	br_cli_opts_usage(out, &probe_options, PROBE_GROUP_WHERE);
	fputs("options:\n", out);
	br_cli_opts_usage(out, &probe_options, PROBE_GROUP_OPTIONS);
}

static int probe_bad(const char *what, const char *arg)
{
	char message[PROBE_BAD_BYTES];
	snprintf(message, sizeof(message), "%s '%s'", what, arg);
	return br_cli_usage_error("probe", message);
}

static bool parse_u32(const char *text, uint32_t *out)
{
	unsigned long long v = 0;
	if (!br_cli_whole_parse(text, 0, 0xFFFFFFFFULL, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}

static int parse_dump(probe_options_t *o, const char *arg)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", arg);
	char *colon = strchr(buf, ':');
	if (colon == NULL || o->dump_count == PROBE_MAX_DUMPS)
		return probe_bad("--dump takes ADDR:LEN, not", arg);
	*colon = '\0';
	probe_dump_t *d = &o->dumps[o->dump_count];
	if (!parse_u32(buf, &d->address) || !parse_u32(colon + 1, &d->length) || d->length == 0 ||
	    d->length > PROBE_MAX_DUMP_BYTES || (uint64_t)d->address + d->length > 0x100000000ULL)
		return probe_bad("--dump takes ADDR:LEN (LEN 1..16 MiB, within 4 GiB), not", arg);
	o->dump_count++;
	return 0;
}

static void set_kind(probe_options_t *o, br_server_kind_id_t kind)
{
	br_endpoint_set_kind(&o->ep, kind);
	o->kind_given = true;
}

/* The launch options given for ep's kind: QEMU's program and kernel,
 * OpenOCD's program and probe serial (a board's own unless given). */
static void probe_apply_launch(const probe_options_t *o, br_endpoint_t *ep)
{
	if (ep->kind == BR_SERVER_KIND_QEMU && o->qemu_program != NULL)
		ep->launch.program = o->qemu_program;
	if (ep->kind == BR_SERVER_KIND_QEMU && o->kernel != NULL)
		ep->launch.kernel = o->kernel;
	if (ep->kind == BR_SERVER_KIND_OPENOCD && o->openocd_program != NULL)
		ep->launch.program = o->openocd_program;
	if (ep->kind == BR_SERVER_KIND_OPENOCD && o->probe_serial != NULL)
		ep->launch.params[BR_OPENOCD_KEY_SERIAL] = o->probe_serial;
}

static int probe_set_machine(void *opts, const char *arg)
{
	probe_options_t *o = opts;
	set_kind(o, BR_SERVER_KIND_QEMU);
	o->ep.launch.params[BR_QEMU_KEY_MACHINE] = arg;
	return 0;
}

static int probe_set_interface(void *opts, const char *arg)
{
	probe_options_t *o = opts;
	set_kind(o, BR_SERVER_KIND_OPENOCD);
	o->ep.launch.params[BR_OPENOCD_KEY_INTERFACE] = arg;
	return 0;
}

static int probe_set_target(void *opts, const char *arg)
{
	probe_options_t *o = opts;
	set_kind(o, BR_SERVER_KIND_OPENOCD);
	o->ep.launch.params[BR_OPENOCD_KEY_TARGET] = arg;
	return 0;
}

static int probe_set_remote(void *opts, const char *arg)
{
	probe_options_t *o = opts;
	br_error_t err;
	set_kind(o, BR_SERVER_KIND_REMOTE);
	if (rsp_transport_parse_hostport(arg, o->host, sizeof(o->host), &o->ep.port, &err) != BR_OK)
		return probe_bad("--remote takes HOST:PORT, not", arg);
	o->ep.host = o->host;
	return 0;
}

static int probe_set_device(void *opts, const char *arg)
{
	probe_options_t *o = opts;
	set_kind(o, BR_SERVER_KIND_SERIAL);
	o->ep.device = arg;
	return 0;
}

static int probe_set_baud(void *opts, const char *arg)
{
	uint32_t v = 0;
	if (!parse_u32(arg, &v))
		return probe_bad("--baud takes a number, not", arg);
	((probe_options_t *)opts)->ep.baud = v;
	return 0;
}

static int probe_set_flavour(void *opts, const char *arg)
{
	if (br_flavour_find(arg) == NULL) {
		fprintf(stderr, "benchrack probe: unknown flavour '%s' (one of: %s)\n", arg,
		        br_flavour_names());
		return 2;
	}
	((probe_options_t *)opts)->ep.flavour = arg;
	return 0;
}

static int probe_set_breakpoints(void *opts, const char *arg)
{
	uint32_t v = 0;
	if (!parse_u32(arg, &v) || v > 127U)
		return probe_bad("--hw-breakpoints takes 0..127, not", arg);
	((probe_options_t *)opts)->ep.hw_breakpoints = v;
	return 0;
}

static int probe_set_dump(void *opts, const char *arg)
{
	return parse_dump(opts, arg) != 0 ? 2 : 0;
}

static int probe_set_run(void *opts, const char *arg)
{
	uint32_t v = 0;
	if (!parse_u32(arg, &v) || v == 0U || v > 86400000U)
		return probe_bad("--run takes milliseconds (1..86400000), not", arg);
	((probe_options_t *)opts)->run_ms = (long)v;
	return 0;
}

static int probe_set_timeout(void *opts, const char *arg)
{
	uint32_t v = 0;
	if (!parse_u32(arg, &v) || v == 0U || v > 3600U)
		return probe_bad("--timeout takes seconds (1..3600), not", arg);
	((probe_options_t *)opts)->ep.timeout_ms = (int)v * 1000;
	return 0;
}

#define P(field) offsetof(probe_options_t, field)

static const br_cli_opt_t probe_rows[] = {
    {.name = "board",
     .letter = 'B',
     .arg = "B",
     .offset = P(board),
     .group = PROBE_GROUP_WHERE,
     .help = "a board file (a name in configs/boards or a path): its server, memory map and "
             "comparator count"},
    {.name = "qemu-machine",
     .arg = "M",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_machine,
     .group = PROBE_GROUP_WHERE,
     .help = "launch QEMU -M M"},
    {.name = "kernel",
     .arg = "ELF",
     .offset = P(kernel),
     .group = PROBE_GROUP_WHERE,
     .help = "the ELF QEMU loads"},
    {.name = "qemu",
     .arg = "PROG",
     .offset = P(qemu_program),
     .group = PROBE_GROUP_WHERE,
     .help = "the QEMU to launch (default " BR_QEMU_PROGRAM ")"},
    {.name = "semihosting",
     .kind = BR_CLI_OPT_FLAG,
     .offset = P(ep.launch.semihosting),
     .group = PROBE_GROUP_WHERE,
     .help = "QEMU with semihosting"},
    {.name = "openocd-interface",
     .arg = "CFG",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_interface,
     .group = PROBE_GROUP_WHERE,
     .help = "launch OpenOCD with -f CFG"},
    {.name = "openocd-target",
     .arg = "CFG",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_target,
     .group = PROBE_GROUP_WHERE,
     .help = "and -f CFG for the target"},
    {.name = "serial",
     .arg = "SN",
     .offset = P(probe_serial),
     .group = PROBE_GROUP_WHERE,
     .help = "the probe's serial number (OpenOCD's adapter serial)"},
    {.name = "openocd",
     .arg = "PROG",
     .offset = P(openocd_program),
     .group = PROBE_GROUP_WHERE,
     .help = "the OpenOCD to launch (default " BR_OPENOCD_PROGRAM ")"},
    {.name = "remote",
     .arg = "HOST:PORT",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_remote,
     .group = PROBE_GROUP_WHERE,
     .help = "a gdbserver already running there"},
    {.name = "device",
     .arg = "PATH",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_device,
     .group = PROBE_GROUP_WHERE,
     .help = "a probe speaking RSP on a serial port (Black Magic Probe)"},
    {.name = "baud",
     .arg = "N",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_baud,
     .group = PROBE_GROUP_WHERE,
     .help = "the serial port's speed"},
    {.name = "flavour",
     .arg = "NAME",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_flavour,
     .group = PROBE_GROUP_WHERE,
     .choices = br_flavour_names,
     .help = "which server answers"},
    {.name = "hw-breakpoints",
     .arg = "N",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_breakpoints,
     .group = PROBE_GROUP_OPTIONS,
     .help = "the board's FPB comparator count"},
    {.name = "dump",
     .arg = "ADDR:LEN",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_dump,
     .group = PROBE_GROUP_OPTIONS,
     .help = "print LEN bytes of memory at ADDR (hex; repeatable)"},
    {.name = "run",
     .arg = "MS",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_run,
     .group = PROBE_GROUP_OPTIONS,
     .help = "then resume for up to MS milliseconds, showing what the firmware prints "
             "(console, semihosting)"},
    {.name = "quiet",
     .kind = BR_CLI_OPT_FLAG,
     .offset = P(quiet),
     .group = PROBE_GROUP_OPTIONS,
     .help = "no report (with --dump or --run)"},
    {.name = "timeout",
     .arg = "SEC",
     .kind = BR_CLI_OPT_CALL,
     .set = probe_set_timeout,
     .group = PROBE_GROUP_OPTIONS,
     .help = "per-request timeout (default 5)"},
    {.name = "help",
     .letter = 'h',
     .kind = BR_CLI_OPT_HELP,
     .group = PROBE_GROUP_OPTIONS,
     .help = "this text"},
};

static const br_cli_opts_t probe_options = {
    .command = "probe",
    .rows = probe_rows,
    .count = BR_CLI_OPTS_COUNT(probe_rows),
    .column = 31,
    .usage = probe_usage,
};

/* Parses argv into o: 0 to go on, -1 after --help, else the exit code. */
static int probe_parse(int argc, char **argv, probe_options_t *o)
{
	int code = br_cli_opts_parse(&probe_options, argc, argv, o);
	if (code != -1)
		return code == 0 ? -1 : code;
	if (optind < argc)
		return probe_bad("unexpected argument", argv[optind]);
	if (o->board != NULL && o->kind_given)
		return probe_bad("--board says where the board is; leave out the other 'where' "
		                 "options with",
		                 o->board);
	if (o->ep.kind == BR_SERVER_KIND_OPENOCD &&
	    o->ep.launch.params[BR_OPENOCD_KEY_INTERFACE] == NULL)
		return probe_bad("OpenOCD needs --openocd-interface CFG; got only",
		                 o->ep.launch.params[BR_OPENOCD_KEY_TARGET]);
	probe_apply_launch(o, &o->ep);
	return 0;
}

static void show_output(void *ctx, int fd, const char *text, size_t len)
{
	(void)ctx;
	FILE *out = fd == 2 ? stderr : stdout;
	fwrite(text, 1, len, out);
	fflush(out);
}

/*
 * Whether an exit reported while the firmware ran was the firmware's own: a
 * QEMU benchrack launched ends only by semihosting's SYS_EXIT (with
 * --semihosting), and then silently; one that ended saying something (QEMU:
 * "terminating on signal 15") or with no way for the firmware to end it was
 * shut down (issue 12: 'health: ok' after QEMU was killed). A server not
 * launched here is taken at its word.
 */
static br_status_t probe_exit_check(br_session_t *s, const probe_options_t *o,
                                    const br_probe_run_result_t *r, br_error_t *err)
{
	if (s->server.pid == 0)
		return BR_OK;
	br_error_set(err, BR_ERR_INFRA,
	             "the server ended the session while the firmware ran "
	             "(it reported exit code %d)",
	             r->exit_code);
	br_session_explain(s, err); /* waits for it to end; its last words, if any */
	char tail[BR_SERVER_STDERR_TAIL];
	br_server_log_tail(&s->server, tail, sizeof(tail));
	bool said = !br_server_alive(&s->server) && tail[0] != '\0';
	if (o->ep.launch.semihosting && !said)
		return BR_OK;
	if (!said)
		br_error_prefix(err,
		                "without --semihosting the firmware cannot end QEMU: it was shut "
		                "down");
	return BR_ERR_INFRA;
}

/* Runs the firmware for run_ms, showing what it prints, and says how it ended. */
static br_status_t probe_run(br_session_t *s, const probe_options_t *o, br_error_t *err)
{
	br_target_t *t = &s->target;
	br_probe_run_result_t r;
	br_status_t st = br_probe_run(t, o->run_ms, show_output, NULL, &r, err);
	if (st == BR_OK && r.end == BR_PROBE_RUN_EXITED)
		st = probe_exit_check(s, o, &r, err);
	if (st == BR_OK && r.end == BR_PROBE_RUN_EXITED)
		fprintf(stderr, "benchrack probe: the firmware exited with code %d\n", r.exit_code);
	else if (st == BR_OK && r.end == BR_PROBE_RUN_STOPPED)
		fprintf(stderr, "benchrack probe: the firmware stopped at 0x%08x\n", r.pc);
	return st;
}

/* The endpoint --board names (the --kernel, --qemu and --timeout given
 * still apply); the board file stays loaded in o for as long as ep is used. */
static br_status_t probe_board_endpoint(probe_options_t *o, br_error_t *err)
{
	br_endpoint_t given = o->ep;
	br_status_t st =
	    br_board_open(o->board, br_configs_dir(), o->kernel, &o->board_file, &o->ep, err);
	if (o->ep.kind == BR_SERVER_KIND_QEMU && o->qemu_program != NULL)
		o->ep.launch.program = o->qemu_program;
	o->ep.timeout_ms = given.timeout_ms;
	return st;
}

int br_cli_probe(int argc, char **argv)
{
	probe_options_t o;
	memset(&o, 0, sizeof(o));
	br_endpoint_init(&o.ep);
	o.run_ms = -1;
	int rc = probe_parse(argc, argv, &o);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = o.board != NULL ? probe_board_endpoint(&o, &err) : BR_OK;
	if (st != BR_OK)
		return br_cli_report(&err);
	br_board_lock_t lock;
	st = br_board_lock_take(&o.ep, stderr, &lock, &err);
	if (st != BR_OK) {
		br_board_free(&o.board_file);
		return br_cli_report(&err);
	}
	br_session_t s;
	st = br_session_open(&o.ep, &s, &err);
	if (st != BR_OK) {
		br_board_lock_give(&lock);
		br_board_free(&o.board_file);
		return br_cli_report(&err);
	}
	bool quiet = o.quiet && (o.dump_count > 0 || o.run_ms > 0);
	if (!quiet)
		st = br_probe_report_write(&s, o.ep.hw_breakpoints, stdout, &err);
	for (int i = 0; st == BR_OK && i < o.dump_count; i++)
		st = br_probe_dump_write(&s.target, o.dumps[i].address, o.dumps[i].length, stdout,
		                         &err);
	if (st == BR_OK && o.run_ms > 0)
		st = probe_run(&s, &o, &err);
	if (st != BR_OK && !s.target.exited)
		br_session_explain(&s, &err); /* an exit was explained by probe_run */
	bool exited = s.target.exited;
	br_session_close(&s, st == BR_OK && !exited);
	br_board_lock_give(&lock);
	br_board_free(&o.board_file);
	if (st != BR_OK) {
		if (!quiet)
			printf("health:     NOT HEALTHY\n");
		return br_cli_report(&err);
	}
	if (!quiet)
		printf("health:     ok\n");
	return 0;
}
