/*
 * The controller against scripted fake targets (fake_script.h), one step at
 * a time: the real rsp/ client (TCP), debug/target and measure/counter_target — attach, start
 * QEMU's TIM2 counter, insert a breakpoint, continue, wait for the stop,
 * read the counter at the stop as a breakpoint session proves it (counter,
 * marker, counter; br_halt_proof_check) — the figure. Each ending fault's
 * case asserts the step that failed, its status and its exact error text,
 * and that no figure came out.
 *
 * The scripts in scripts/ are real QEMU 7.2 conversations of this very
 * test (fixture/region.elf on netduinoplus2), recorded over TCP with
 * record_rsp.py (--live), clean or through faultproxy.py: delay (derived),
 * corrupt, stall past the timeout, close, inject (a reply out of step).
 * The oracle of the figure is the conversation itself: the counter QEMU
 * sent at the stop (script_figure), which the client must hand on as it is.
 *
 * usage: test_scripted_target SCRIPTS_DIR
 *        test_scripted_target --live PORT   (against a server at
 *        127.0.0.1:PORT running fixture/region.elf, to record it)
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "debug/flavour.h"
#include "debug/target.h"
#include "fake_script.h"
#include "measure/counter_target.h"
#include "measure/halt_proof.h"
#include "rsp/transport.h"

/* The breakpoint the scripts' session runs to: fx_from of
 * fixture/region.elf (fixture/region.ld pins it). */
#define BP_ADDRESS 0x08000108U
/* The marker word's address (the vector table's initial SP, in flash). */
#define MARKER_ADDRESS 0x08000000U
/* The client's reply timeout in these tests (a missing reply costs this). */
#define REPLY_TIMEOUT_MS 1000
/* Where the counter's start was when the server stopped answering. */
#define START_TEXT "enabling counter tim2 (register 0xe0042008): request 'Me0042008,4:01000000': "
/* No figure: the value the counter reading holds unless a read filled it. */
#define NO_FIGURE 0xDEADDEADDEADULL

typedef enum step { ATTACH, START, INSERT, RESUME, STOP, READ, DONE } step_t;
static const char *const step_names[] = {"attach", "start", "insert", "resume",
                                         "stop",   "read",  "done"};

typedef struct outcome {
	step_t failed; /* the step that failed, DONE when none did */
	br_status_t st;
	br_error_t err;
	uint64_t figure; /* the counter at the stop, or NO_FIGURE */
	int fake_exit;   /* the fake's verdict (fake_script.h) */
} outcome_t;

/* The marker the proof reads at the stop: a vector table's first word. */
static const br_halt_proof_t proof = {.address = MARKER_ADDRESS, .bytes = {0x00, 0x00, 0x02, 0x20}};

static void word_put(uint8_t *out, uint64_t v)
{
	for (unsigned i = 0; i < BR_HALT_PROOF_WORD; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

/* The counter at the stop as a breakpoint session proves it
 * (measure/halt_proof.h): counter, marker, counter, one request each here;
 * *value is set only when br_halt_proof_check accepts them. */
static br_status_t proven_read(br_target_t *t, const br_counter_state_t *state, uint64_t *value,
                               br_error_t *err)
{
	br_halt_proof_reads_t buf;
	uint64_t a, b;
	br_status_t st = br_counter_read(t, state, &a, err);
	if (st == BR_OK)
		st = br_target_mem_read(t, proof.address, buf.marker, BR_HALT_PROOF_WORD, err);
	if (st == BR_OK)
		st = br_counter_read(t, state, &b, err);
	if (st != BR_OK)
		return st;
	word_put(buf.counter_a, a);
	word_put(buf.counter_b, b);
	uint64_t proven;
	if (!br_halt_proof_check(&proof, state, &buf, &proven))
		return br_error_set(err, BR_ERR_PROTOCOL, "the stop's reads not proven");
	*value = proven;
	return BR_OK;
}

/* One step of the session after attach. */
static br_status_t session_step(br_target_t *t, step_t step, br_counter_state_t *state,
                                uint64_t *value, br_error_t *err)
{
	rsp_stop_reply_t stop;
	switch (step) {
	case START:
		return br_counter_start(t, br_counter_qemu_tim2(), state, err);
	case INSERT:
		return br_target_breakpoint_insert(t, BP_ADDRESS, BR_BREAKPOINT_HARDWARE, err);
	case RESUME:
		return br_target_resume(t, err);
	case STOP:
		return br_target_wait_stop(t, REPLY_TIMEOUT_MS, &stop, err);
	case READ:
		return proven_read(t, state, value, err);
	default:
		return BR_OK;
	}
}

/* The session after attach, stopping at the first error (o->failed). */
static br_status_t session_run(br_target_t *t, outcome_t *o)
{
	br_counter_state_t state;
	uint64_t value = NO_FIGURE;
	for (o->failed = START; o->failed != DONE; o->failed++) {
		br_status_t st = session_step(t, o->failed, &state, &value, &o->err);
		if (st != BR_OK)
			return st;
	}
	o->figure = value;
	return BR_OK;
}

/* The test on the connected transport tr; fills *o but its fake_exit. */
static void session_on(const rsp_transport_t *tr, outcome_t *o)
{
	static br_target_t t;
	memset(o, 0, sizeof(*o));
	o->figure = NO_FIGURE;
	br_error_clear(&o->err);
	o->failed = ATTACH;
	o->st = br_target_attach(&t, tr, br_flavour_generic(), &o->err);
	if (o->st == BR_OK) {
		rsp_client_set_timeout(t.rsp, REPLY_TIMEOUT_MS);
		o->st = session_run(&t, o);
		if (o->st == BR_OK)
			br_target_detach(&t, NULL);
		else
			br_target_close(&t);
	}
}

static void print_outcome(const char *name, const outcome_t *o)
{
	printf("%s: %s %d \"%s\" figure %llu fake %d\n", name, step_names[o->failed], o->st,
	       o->err.message, (unsigned long long)o->figure, o->fake_exit);
}

/* The test against 127.0.0.1:port; fills *o but its fake_exit. */
static void session_at(uint16_t port, outcome_t *o)
{
	rsp_transport_t tr;
	br_error_t err;
	if (rsp_transport_tcp_connect(&tr, "127.0.0.1", port, 2000, &err) != BR_OK) {
		memset(o, 0, sizeof(*o));
		o->st = err.status;
		o->err = err;
		return;
	}
	session_on(&tr, o);
}

/* The server's host:port in the last case's error texts. */
static char peer[64];

static void run_script(const char *dir, const char *name, outcome_t *o)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	pid_t pid;
	uint16_t port = fake_script_listen(path, &pid);
	snprintf(peer, sizeof(peer), "127.0.0.1:%u", port);
	session_at(port, o);
	o->fake_exit = fake_script_wait(pid);
	print_outcome(name, o);
}

/* Whether text is "<before>PEER<after>" with the last case's peer. */
static bool said(const char *text, const char *before, const char *after)
{
	char want[512];
	snprintf(want, sizeof(want), "%s%s%s", before, peer, after);
	return strcmp(text, want) == 0;
}

/* The oracle: the counter QEMU sent in the script at dir/name, the first
 * reply to "m40000024,4" after the "c" (little-endian hex; a damaged frame's
 * payload is QEMU's, only its checksum was broken); NO_FIGURE when there is
 * none. */
static uint64_t script_figure(const char *dir, const char *name)
{
	char path[512], line[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	int phase = 0; /* 0: before the c, 1: before the read, 2: before its reply */
	uint64_t v = NO_FIGURE;
	while (f != NULL && v == NO_FIGURE && fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (phase == 0 && strcmp(line, "> c") == 0)
			phase = 1;
		else if (phase == 1 && strcmp(line, "> m40000024,4") == 0)
			phase = 2;
		else if (phase == 2 && line[0] == '<') {
			const char *hex = line + (line[1] == '!' ? 3 : 2);
			v = 0;
			for (int i = 3; i >= 0 && strlen(hex) == 8; i--) {
				unsigned byte = 0;
				sscanf(hex + 2 * i, "%2x", &byte);
				v = v << 8 | byte;
			}
		}
	}
	if (f != NULL)
		fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	outcome_t o;
	if (argc == 3 && strcmp(argv[1], "--live") == 0) {
		session_at((uint16_t)strtoul(argv[2], NULL, 10), &o);
		print_outcome("live", &o);
		return o.st == BR_OK ? 0 : 1;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s SCRIPTS_DIR | --live PORT\n", argv[0]);
		return 2;
	}
	const char *dir = argv[1];
	uint64_t want = script_figure(dir, "normal.rsp");
	CHECK(want != NO_FIGURE);

	run_script(dir, "normal.rsp", &o);
	CHECK_MSG(o.st == BR_OK && o.failed == DONE && o.figure == want && o.fake_exit == 0,
	          "normal: %s, figure %llu", o.err.message, (unsigned long long)o.figure);

	/* faultproxy's delay: survived, the same figure */
	run_script(dir, "delay.rsp", &o);
	CHECK_MSG(o.st == BR_OK && o.figure == want && o.fake_exit == 0, "delay: %s",
	          o.err.message);

	/* faultproxy's corrupt: each refused packet sent again, each damaged
	 * reply asked again; the figure QEMU sent in that conversation */
	run_script(dir, "corrupt.rsp", &o);
	want = script_figure(dir, "corrupt.rsp");
	CHECK_MSG(o.st == BR_OK && o.failed == DONE && want != NO_FIGURE && o.figure == want &&
	              o.fake_exit == 0,
	          "corrupt: %s, figure %llu", o.err.message, (unsigned long long)o.figure);

	/* faultproxy's stall past the timeout (at the server's 12th packet, in
	 * the counter's start): the session ends, no figure */
	run_script(dir, "timeout.rsp", &o);
	CHECK_MSG(o.st == BR_ERR_TIMEOUT && o.failed == START &&
	              said(o.err.message, START_TEXT, ": no answer within 1000 ms"),
	          "timeout: %d %s", o.st, o.err.message);
	CHECK(o.figure == NO_FIGURE && o.fake_exit == 0);

	/* faultproxy's close, half a reply sent: BR_ERR_INFRA (exit 3) naming
	 * the loss, no figure */
	run_script(dir, "close.rsp", &o);
	CHECK_MSG(o.st == BR_ERR_INFRA && o.failed == START &&
	              said(o.err.message, START_TEXT, ": the server closed the connection"),
	          "close: %d %s", o.st, o.err.message);
	CHECK(o.figure == NO_FIGURE && o.fake_exit == 0);

	/* faultproxy's inject: the marker's read answered with the counter's
	 * copy, every later reply one behind: refused by the proof, no figure */
	run_script(dir, "out_of_step.rsp", &o);
	CHECK_MSG(o.st == BR_ERR_PROTOCOL && o.failed == READ &&
	              strcmp(o.err.message, "the stop's reads not proven") == 0,
	          "out of step: %d %s", o.st, o.err.message);
	CHECK(o.figure == NO_FIGURE && o.fake_exit == 0);
	return check_finish();
}
