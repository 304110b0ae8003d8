/*
 * A breakpoint session (measure/breakpoint_session.h, br_bp_session_run)
 * end to end against scripted fake targets (fake_script.h) on TCP: attach
 * over the real rsp/ client and debug/target (QEMU's flavour), TIM2 started,
 * the halt proof armed from the image, the session from fx_from to fx_to of
 * fixture/region.S — its breakpoint inserts and removes, continues, stop
 * replies, pipelined proven counter reads, the calibration's steps and the
 * reset trap — and the detach. Each script in scripts/session/ is a real
 * QEMU conversation of this very session recorded through record_rsp.py,
 * clean or through faultproxy.py in one of its modes (the file names the
 * mode and how it was recorded).
 *
 * Oracle: the fixture's region is FX_REGION_NOPS nops and QEMU's TIM2 counts
 * one per instruction, so a good conversation must give SAMPLES samples of
 * exactly FX_REGION_NOPS. A fault the client survives must give the same;
 * a fault that ends the session must give its status and exact error text,
 * and no figure (no sample measured). Every case also asks the fake's
 * verdict: the client kept to the recorded conversation (and a conversation
 * of another client must make the fake say it did not).
 *
 * usage: test_scripted_session SCRIPTS_DIR ELF [SCRIPT]  (SCRIPT: that case alone)
 *        test_scripted_session --live PORT ELF   (the session against a
 *        server at 127.0.0.1:PORT, to record it; prints the outcome)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "debug/flavour.h"
#include "debug/target.h"
#include "elf/elf_file.h"
#include "fake_script.h"
#include "fixture/region.h"
#include "scripted_cli.h"
#include "measure/breakpoint_session.h"
#include "measure/counter_target.h"
#include "measure/halt_proof.h"
#include "measure/span.h"
#include "rsp/transport.h"

/* Samples the session takes (none discarded). */
#define SAMPLES 2U
/* The client's reply timeout, and the session's longest wait for a stop. */
#define REPLY_TIMEOUT_MS 1000
#define STOP_TIMEOUT_MS 1000
/* TIM2 with a slow stated rate: its guard halts (a quarter period at that
 * rate) would come only after 1,000 s, so no host stall can put a 0x03
 * into a conversation that has none. */
#define COUNTER_RATE_HZ 1000000U

typedef struct outcome {
	br_status_t st;
	br_error_t err;
	size_t count;      /* samples kept */
	size_t measured;   /* of them, measured */
	size_t exact;      /* of them, measured at exactly FX_REGION_NOPS */
	size_t recoveries; /* reply streams put back in step */
	int fake_exit;     /* the fake's verdict; 0 when live */
	char peer[128];    /* what error texts call the server */
} outcome_t;

/* The session on the transport tr, connected to the server. */
static br_status_t session_on(const rsp_transport_t *tr, const char *elf_path, outcome_t *o)
{
	static br_target_t t;
	br_status_t st = br_target_attach(&t, tr, br_flavour_qemu(), &o->err);
	if (st != BR_OK)
		return st;
	rsp_client_set_timeout(t.rsp, REPLY_TIMEOUT_MS);
	br_counter_t c = *br_counter_qemu_tim2();
	c.max_rate_hz = COUNTER_RATE_HZ;
	br_counter_state_t state;
	br_halt_proof_t proof;
	br_elf_t *elf = NULL;
	br_span_t span;
	st = br_counter_start(&t, &c, &state, &o->err);
	if (st == BR_OK)
		st = br_halt_proof_arm(&t, elf_path, &proof, &o->err);
	if (st == BR_OK)
		st = br_elf_open(elf_path, &elf, &o->err);
	if (st == BR_OK)
		st = br_span_range(elf, FX_FROM, FX_TO, &span, &o->err);
	br_bp_result_t r = {0};
	if (st == BR_OK) {
		br_bp_options_t bo = {.counter = &state,
		                      .samples = SAMPLES,
		                      .timeout_ms = STOP_TIMEOUT_MS,
		                      .kind = BR_BREAKPOINT_AUTO,
		                      .proof = &proof};
		st = br_bp_session_run(&t, &span, &bo, &r, &o->err);
	}
	o->count = r.count;
	o->recoveries = r.recoveries;
	for (size_t i = 0; i < r.count; i++) {
		o->measured += r.samples[i].measured;
		o->exact += r.samples[i].measured && r.samples[i].ticks == FX_REGION_NOPS;
	}
	br_bp_result_free(&r);
	br_elf_close(elf);
	if (st == BR_OK)
		st = br_target_detach(&t, &o->err);
	else
		br_target_close(&t);
	return st;
}

/* The session against 127.0.0.1:port. */
static void session(uint16_t port, const char *elf_path, outcome_t *o)
{
	rsp_transport_t tr;
	memset(o, 0, sizeof(*o));
	br_error_clear(&o->err);
	o->st = rsp_transport_tcp_connect(&tr, "127.0.0.1", port, 2000, &o->err);
	snprintf(o->peer, sizeof(o->peer), "127.0.0.1:%u", port);
	if (o->st == BR_OK)
		o->st = session_on(&tr, elf_path, o);
}

static void print_outcome(const char *name, const outcome_t *o)
{
	printf("%s: status %d \"%s\"; %zu samples, %zu measured, %zu exact, %zu recoveries; "
	       "fake %d\n",
	       name, o->st, o->err.message, o->count, o->measured, o->exact, o->recoveries,
	       o->fake_exit);
}

/* One script's case: what must come of it. */
typedef struct script_case {
	const char *script; /* in SCRIPTS_DIR */
	br_status_t st;
	/* the exact error text, PEER standing for the server's host:port */
	const char *text;
	size_t exact;      /* samples measured at exactly FX_REGION_NOPS */
	size_t recoveries; /* reply streams put back in step */
} script_case_t;

static void run_case(const char *dir, const char *elf_path, const script_case_t *c)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, c->script);
	pid_t pid;
	uint16_t port = fake_script_listen(path, &pid);
	outcome_t o;
	session(port, elf_path, &o);
	o.fake_exit = fake_script_wait(pid);
	print_outcome(c->script, &o);
	char want[512];
	scripted_expand_peer(c->text, o.peer, want, sizeof(want));
	CHECK_MSG(o.st == c->st && strcmp(o.err.message, want) == 0, "%s: status %d \"%s\"",
	          c->script, o.st, o.err.message);
	/* every measured sample exact: no wrong figure, whatever the fault */
	CHECK_MSG(o.exact == c->exact && o.measured == o.exact && o.recoveries == c->recoveries,
	          "%s: %zu measured, %zu exact, %zu recoveries", c->script, o.measured, o.exact,
	          o.recoveries);
	CHECK_MSG(o.fake_exit == 0, "%s: the client left the script (fake %d)", c->script,
	          o.fake_exit);
}

/* The faults that end the session before any sample: the error texts. */
#define CLOSED "PEER: the server closed the connection"
#define GAVE_UP                                                                                    \
	"4 halts failed (replies out of step, or refused) and were put back in step; the last: "
#define E0E                                                                                        \
	"reading 4 bytes at 0x40000024 failed: the server answered \"E0E\" (no memory there, or "  \
	"the bus faulted)"
#define UNPROVEN                                                                                   \
	"a halt's replies did not prove (marker 0x08000000 or the two counter reads differ): the " \
	"reply stream is out of step"

/* Every kind of fault faultproxy.py injects (its "pass" injects none: the
 * normal conversation), each as its recorded conversation. A survived one
 * keeps the reason it recovered from in the error context (status BR_OK). */
static const script_case_t cases[] = {
    {"normal.rsp", BR_OK, "", SAMPLES, 0},
    {"delay.rsp", BR_OK, "", SAMPLES, 0},
    {"split.rsp", BR_OK, "", SAMPLES, 0},
    {"dropack.rsp", BR_OK, "", SAMPLES, 0},
    {"garbage.rsp", BR_OK, "", SAMPLES, 0},
    /* a write's byte changed on the way: TIM2's enable bits, which QEMU
     * ignores anyway (DESIGN.md): the same figures */
    {"flipwrite.rsp", BR_OK, "", SAMPLES, 0},
    /* one extra reply, one counter reply wrong, one read refused: the halt
     * is not proven, the stream put back in step, the sample taken again */
    {"inject.rsp", BR_OK, UNPROVEN, SAMPLES, 1},
    {"fixcorrupt.rsp", BR_OK, UNPROVEN, SAMPLES, 1},
    {"refuse.rsp", BR_OK, E0E, SAMPLES, 1},
    /* the target reset while held halted: a stray stop at the reset
     * handler, the sample in progress dropped, the session goes on */
    {"reset.rsp", BR_OK,
     "the target reset: the core stopped at its reset handler 0x08000100 during the "
     "measurement (range fx_from)",
     SAMPLES, 0},
    /* every 4th packet's checksum broken (both ways): QEMU keeps only its
     * last reply for a NAK, so a damaged reply inside a pipelined halt cannot
     * be asked again; each such halt is recovered, the fourth ends it */
    {"corrupt.rsp", BR_ERR_PROTOCOL, GAVE_UP "PEER: damaged reply inside a pipeline of reads", 0,
     4},
    {"refuseall.rsp", BR_ERR_TARGET, GAVE_UP E0E, 0, 4},
    {"close.rsp", BR_ERR_INFRA,
     "enabling counter tim2 (register 0xe0042008): request 'Me0042008,4:01000000': " CLOSED, 0, 0},
    {"eof.rsp", BR_ERR_INFRA, CLOSED, 0, 0},
    {"rst.rsp", BR_ERR_INFRA, CLOSED " (reset by peer)", 0, 0},
    {"exited.rsp", BR_ERR_TARGET,
     "the server said the program ended (exit code 0, reply \"W00\") "
     "instead of stopping; was the server shut down?",
     0, 0},
    {"killed.rsp", BR_ERR_TARGET,
     "the server said the program ended (signal 15, reply \"X0f\") "
     "instead of stopping; was the server shut down?",
     0, 0},
    {"mute.rsp", BR_ERR_TIMEOUT,
     "breakpoint --from fx_from (0x08000108 (fx_from)) never hit within 1 s", 0, 0},
    {"stall.rsp", BR_ERR_TIMEOUT,
     "enabling counter tim2 (register 0xe0042008): request 'Me0042008,4:01000000': PEER: no "
     "answer within 1000 ms",
     0, 0},
};

/* The fake is no rubber stamp: a conversation of another client (the run's,
 * which starts the same and soon asks for other packets) must make it say
 * the client left the script, and no sample may come of it. */
static void check_fake_bites(const char *dir, const char *elf_path)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/../run/normal.rsp", dir);
	pid_t pid;
	uint16_t port = fake_script_listen(path, &pid);
	outcome_t o;
	session(port, elf_path, &o);
	o.fake_exit = fake_script_wait(pid);
	print_outcome("run/normal.rsp", &o);
	CHECK_MSG(o.fake_exit == FAKE_SCRIPT_MISMATCH && o.st != BR_OK && o.measured == 0,
	          "another client's conversation: fake %d, status %d, %zu measured", o.fake_exit,
	          o.st, o.measured);
}

static bool live(uint16_t port, const char *elf)
{
	outcome_t o;
	session(port, elf, &o);
	print_outcome("live", &o);
	return o.st == BR_OK;
}

static void run_cases(const char *dir, const char *elf, const char *only)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (only == NULL || strcmp(only, cases[i].script) == 0)
			run_case(dir, elf, &cases[i]);
	if (only == NULL)
		check_fake_bites(dir, elf);
}

int main(int argc, char **argv)
{
	int status = scripted_cli_dispatch(argc, argv, live, run_cases);
	return status >= 0 ? status : check_finish();
}
