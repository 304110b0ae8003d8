/*
 * run/ end to end against scripted fake targets (fake_script.h) on TCP: one
 * suite entry for unmodified firmware (fixture/region.S from fx_from to
 * fx_to) on a board whose server is a remote QEMU gdbstub at the fake's
 * port, through br_board_run_execute — the plan, the runner (attach, the
 * image checked, reset and halt, the counter started), the breakpoint
 * entry measured, the record written first and finished, the gate. Each
 * script in scripts/run/ is a real QEMU conversation of this very run
 * recorded through record_rsp.py, clean or through faultproxy.py in one of
 * its modes (the file names the mode and how it was recorded).
 *
 * Oracle: the region is FX_REGION_NOPS nops and QEMU's TIM2 counts one per
 * instruction: a good conversation must record the entry measured with
 * ITERATIONS samples, each exactly FX_REGION_NOPS, and a stack of 0 bytes
 * (the fixture writes no memory). A fault the run
 * survives must record the same; one that ends it must leave the run
 * failed with its status and exact error text, the entry not run (no
 * figure), and the record on disk saying so.
 *
 * usage: test_scripted_run SCRIPTS_DIR ELF [SCRIPT]  (SCRIPT: that case alone)
 *        test_scripted_run --live PORT ELF   (the run against a server at
 *        127.0.0.1:PORT, to record it; prints the outcome)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fake_script.h"
#include "fixture/region.h"
#include "scripted_cli.h"
#include "run/board_run.h"

/* Samples the entry takes. */
#define ITERATIONS 2U

/* The board: QEMU's gdbstub reached at a port, the image already there
 * (load: never), TIM2 read as an mmio counter at a slow stated clock so
 * that its guard halts (a quarter period) come only after 1,000 s: no host
 * stall can put a 0x03 into a conversation that has none. */
static const char board_yaml[] =
    "name: scripted\n"
    "core: cortex-m4\n"
    "server: {kind: remote, host: 127.0.0.1, port: %u, flavour: qemu}\n"
    "counter: {kind: mmio, name: tim2, address: 0x40000024}\n"
    "clock_hz: 1000000\n"
    "load: never\n"
    "memory:\n"
    "  - {name: flash, kind: flash, origin: 0x08000000, length: 1M}\n"
    "  - {name: sram, kind: ram, origin: 0x20000000, length: 128K}\n";

/* The suite: the one entry, with a 1 s timeout. */
static const char suite_yaml[] = "name: scripted\n"
                                 "boards: [scripted]\n"
                                 "default_iterations: %u\n"
                                 "timeout_seconds: 1\n"
                                 "benches:\n"
                                 "  - {name: region, elf: %s, from: " FX_FROM ", to: " FX_TO "}\n";

typedef struct outcome {
	br_status_t st;
	char error[BR_ERROR_MESSAGE_BYTES]; /* run->failure's text */
	br_record_status_t record_status;
	br_bench_status_t bench_status;
	char reason[BR_RECORD_TEXT];
	size_t n;     /* the entry's samples */
	size_t exact; /* of them, exactly FX_REGION_NOPS */
	bool stack_measured;
	uint32_t stack_bytes;
	bool on_disk; /* the run record was written */
	int fake_exit;
	char peer[64];
} outcome_t;

/* A fresh results directory under TMPDIR; exits 99 when none can be made. */
static const char *results_dir(void)
{
	static char dir[256];
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/benchrack-scripted-run-XXXXXX", tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL)
		exit(99);
	return dir;
}

/* The run on the board at 127.0.0.1:port. */
static void run_on(uint16_t port, const char *elf, outcome_t *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->peer, sizeof(o->peer), "127.0.0.1:%u", port);
	char text[2048];
	br_error_t err;
	br_error_clear(&err);
	br_board_run_t run;
	memset(&run, 0, sizeof(run));
	br_suite_t suite;
	memset(&suite, 0, sizeof(suite));
	int n = snprintf(text, sizeof(text), board_yaml, port);
	if (br_board_parse("scripted.yaml", (const unsigned char *)text, (size_t)n, &run.board,
	                   &err) != BR_OK ||
	    (n = snprintf(text, sizeof(text), suite_yaml, ITERATIONS, elf),
	     br_suite_parse("suite.yaml", (const unsigned char *)text, (size_t)n, &suite, &err)) !=
	        BR_OK) {
		fprintf(stderr, "the test's YAML: %s\n", err.message);
		exit(99);
	}
	br_run_settings_t s = {.results_dir = results_dir(), .suite_path = "suite.yaml"};
	br_board_run_execute(&s, &suite, elf, &run);
	o->st = run.status;
	snprintf(o->error, sizeof(o->error), "%s", run.status == BR_OK ? "" : run.failure.message);
	o->record_status = run.record.status;
	o->on_disk = run.has_run_path && access(run.run_path, R_OK) == 0;
	if (run.record.bench_count == 1) {
		const br_bench_record_t *b = &run.record.benches[0];
		o->bench_status = b->status;
		snprintf(o->reason, sizeof(o->reason), "%s", b->reason);
		o->n = b->n;
		o->stack_measured = b->stack_measured;
		o->stack_bytes = b->stack_bytes;
		for (size_t i = 0; i < b->n; i++)
			o->exact += b->samples[i] == FX_REGION_NOPS;
	}
	br_board_run_free(&run);
	br_suite_free(&suite);
}

static void print_outcome(const char *name, const outcome_t *o)
{
	printf("%s: status %d \"%s\"; record %d%s, entry %d \"%s\" n %zu exact %zu stack %s%u; "
	       "fake %d\n",
	       name, o->st, o->error, o->record_status, o->on_disk ? " on disk" : "",
	       o->bench_status, o->reason, o->n, o->exact, o->stack_measured ? "" : "not measured ",
	       o->stack_bytes, o->fake_exit);
}

/* One script's case: what must come of it. */
typedef struct script_case {
	const char *script; /* in SCRIPTS_DIR */
	br_status_t st;
	const char *error;  /* the run's exact error text ("" for none), PEER the server */
	const char *reason; /* the entry's: why not run ("" when measured) */
} script_case_t;

static void run_case(const char *dir, const char *elf, const script_case_t *c)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, c->script);
	pid_t pid;
	uint16_t port = fake_script_listen(path, &pid);
	outcome_t o;
	run_on(port, elf, &o);
	o.fake_exit = fake_script_wait(pid);
	print_outcome(c->script, &o);
	char error[512], reason[512];
	scripted_expand_peer(c->error, o.peer, error, sizeof(error));
	scripted_expand_peer(c->reason, o.peer, reason, sizeof(reason));
	CHECK_MSG(o.st == c->st && strcmp(o.error, error) == 0, "%s: status %d \"%s\"", c->script,
	          o.st, o.error);
	CHECK_MSG(o.on_disk, "%s: no run record on disk", c->script);
	if (c->st == BR_OK) {
		CHECK_MSG(o.record_status == BR_RECORD_COMPLETE &&
		              o.bench_status == BR_BENCH_MEASURED && o.n == ITERATIONS &&
		              o.exact == ITERATIONS && o.stack_measured && o.stack_bytes == 0,
		          "%s: record %d, entry %d, n %zu, exact %zu, stack %u", c->script,
		          o.record_status, o.bench_status, o.n, o.exact, o.stack_bytes);
	} else {
		CHECK_MSG(o.record_status == BR_RECORD_FAILED &&
		              o.bench_status == BR_BENCH_NOT_RUN && o.n == 0 &&
		              strcmp(o.reason, reason) == 0,
		          "%s: record %d, entry %d \"%s\", n %zu", c->script, o.record_status,
		          o.bench_status, o.reason, o.n);
	}
	CHECK_MSG(o.fake_exit == 0, "%s: the client left the script (fake %d)", c->script,
	          o.fake_exit);
}

/* The error texts of the faults that end the run (the entry's reason is
 * the same without BENCH). */
#define BENCH "bench region: "
#define GAVE_UP                                                                                    \
	"4 halts failed (replies out of step, or refused) and were put back in step; the last: "
#define E0E                                                                                        \
	"reading 4 bytes at 0x40000024 failed: the server answered \"E0E\" (no memory there, or "  \
	"the bus faulted)"
#define CLOSED "PEER: the server closed the connection"
#define SILENT                                                                                     \
	"the server stopped answering while the target ran: no stop came, and no answer to an "    \
	"interrupt either (PEER: the session broke); check the server and the connection to it"
#define ENDED(how)                                                                                 \
	"the server said the program ended (" how ") instead of stopping; was the server shut "    \
	"down?"
#define ENDS(text) BENCH text, text

/* Every kind of fault faultproxy.py injects ("pass" injects none: the
 * normal conversation), each as its recorded conversation. */
static const script_case_t cases[] = {
    {"normal.rsp", BR_OK, "", ""},
    {"delay.rsp", BR_OK, "", ""},
    {"split.rsp", BR_OK, "", ""},
    {"dropack.rsp", BR_OK, "", ""},
    {"garbage.rsp", BR_OK, "", ""},
    /* shorter than the reply timeout */
    {"stall.rsp", BR_OK, "", ""},
    /* the first M is the first stack paint's, of the warm-up sample: no
     * figure kept depends on it */
    {"flipwrite.rsp", BR_OK, "", ""},
    /* one extra reply, one counter reply wrong, one read refused, a reset
     * while held halted: the sample in progress taken again */
    {"inject.rsp", BR_OK, "", ""},
    {"fixcorrupt.rsp", BR_OK, "", ""},
    {"refuse.rsp", BR_OK, "", ""},
    {"reset.rsp", BR_OK, "", ""},
    /* every 4th packet's checksum broken: a NAK inside a pipelined halt
     * cannot be repaired (QEMU resends only its last reply) */
    {"corrupt.rsp", BR_ERR_PROTOCOL,
     ENDS(GAVE_UP "PEER: the server refused a packet (NAK) inside a pipeline of reads")},
    {"refuseall.rsp", BR_ERR_TARGET, ENDS(GAVE_UP E0E)},
    {"close.rsp", BR_ERR_INFRA,
     ENDS("resetting QEMU gdbstub at PEER: reading the vector table at 0x08000000: "
          "request 'm8000000,8': " CLOSED)},
    {"eof.rsp", BR_ERR_INFRA, ENDS(CLOSED)},
    {"rst.rsp", BR_ERR_INFRA, ENDS(CLOSED " (reset by peer)")},
    {"exited.rsp", BR_ERR_TARGET, ENDS(ENDED("exit code 0, reply \"W00\""))},
    {"killed.rsp", BR_ERR_TARGET, ENDS(ENDED("signal 15, reply \"X0f\""))},
    {"mute.rsp", BR_ERR_INFRA, ENDS(SILENT)},
};

static bool live(uint16_t port, const char *elf)
{
	outcome_t o;
	run_on(port, elf, &o);
	print_outcome("live", &o);
	return o.st == BR_OK;
}

static void run_cases(const char *dir, const char *elf, const char *only)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (only == NULL || strcmp(only, cases[i].script) == 0)
			run_case(dir, elf, &cases[i]);
}

int main(int argc, char **argv)
{
	int status = scripted_cli_dispatch(argc, argv, live, run_cases);
	return status >= 0 ? status : check_finish();
}
