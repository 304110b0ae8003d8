/*
 * The controller against scripted fake targets (fake_script.h): each script
 * in scripts/ is a replayable RSP conversation, and the test drives the real
 * rsp/ client, debug/target and measure/counter_target through it — attach,
 * start QEMU's TIM2 counter, insert a breakpoint, continue, wait for the
 * stop, read the counter at the stop as a breakpoint session proves it
 * (counter, marker, counter; br_halt_proof_check) — the figure. The faults
 * are the proxy's (tests/proxy/faultproxy.py) written as script lines: a
 * delayed reply and a corrupted checksum (both survived: the same figure), a
 * missing reply (the client's timeout), a reply out of step (the proof
 * refuses the shifted replies), the connection closed mid-session. Each
 * ending fault's case asserts the step that failed, its status and its
 * exact error text, and that no figure came out.
 *
 * usage: test_scripted_target SCRIPTS_DIR
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "debug/flavour.h"
#include "debug/target.h"
#include "fake_script.h"
#include "measure/counter_target.h"
#include "measure/halt_proof.h"

/* The breakpoint the scripts' session runs to. */
#define BP_ADDRESS 0x08000124U
/* The marker word's address (a vector table's, in flash). */
#define MARKER_ADDRESS 0x08000000U
/* The client's reply timeout in these tests (a missing reply costs this). */
#define REPLY_TIMEOUT_MS 1000
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

static void run_script(const char *dir, const char *name, outcome_t *o)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	pid_t pid;
	int fd = fake_script_start(path, &pid);
	rsp_transport_t tr = {.fd = fd, .kind = RSP_TRANSPORT_SERIAL};
	snprintf(tr.peer, sizeof(tr.peer), "fake");
	static br_target_t t;
	memset(o, 0, sizeof(*o));
	o->figure = NO_FIGURE;
	br_error_clear(&o->err);
	o->failed = ATTACH;
	o->st = br_target_attach(&t, &tr, br_flavour_generic(), &o->err);
	if (o->st == BR_OK) {
		rsp_client_set_timeout(t.rsp, REPLY_TIMEOUT_MS);
		o->st = session_run(&t, o);
		if (o->st == BR_OK)
			br_target_detach(&t, NULL);
		else
			br_target_close(&t);
	}
	o->fake_exit = fake_script_wait(pid);
	printf("%s: %s %d \"%s\" figure %llu fake %d\n", name, step_names[o->failed], o->st,
	       o->err.message, (unsigned long long)o->figure, o->fake_exit);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s SCRIPTS_DIR\n", argv[0]);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	outcome_t o;
	const char *dir = argv[1];

	run_script(dir, "normal.rsp", &o);
	CHECK_MSG(o.st == BR_OK && o.failed == DONE && o.figure == 12345U && o.fake_exit == 0,
	          "normal: %s, figure %llu", o.err.message, (unsigned long long)o.figure);

	/* faultproxy's delay: survived, the same figure */
	run_script(dir, "delay.rsp", &o);
	CHECK_MSG(o.st == BR_OK && o.figure == 12345U && o.fake_exit == 0, "delay: %s",
	          o.err.message);

	/* faultproxy's corrupt: the read asked again, resynchronised, the same figure */
	run_script(dir, "corrupt.rsp", &o);
	CHECK_MSG(o.st == BR_OK && o.figure == 12345U && o.fake_exit == 0, "corrupt: %s",
	          o.err.message);

	/* faultproxy's stall past the timeout: the session ends, no figure */
	run_script(dir, "timeout.rsp", &o);
	CHECK_MSG(o.st == BR_ERR_TIMEOUT && o.failed == READ &&
	              strcmp(o.err.message, "reading counter tim2: request 'm40000024,4': fake: "
	                                    "no answer within 1000 ms") == 0,
	          "timeout: %d %s", o.st, o.err.message);
	CHECK(o.figure == NO_FIGURE && o.fake_exit == 0);

	/* faultproxy's close: BR_ERR_INFRA (exit 3) naming the loss, no figure */
	run_script(dir, "close.rsp", &o);
	CHECK_MSG(o.st == BR_ERR_INFRA && o.failed == READ &&
	              (strcmp(o.err.message, "reading counter tim2: fake: connection lost while "
	                                     "writing: Broken pipe") == 0 ||
	               strcmp(o.err.message,
	                      "reading counter tim2: fake: the server closed the connection") == 0),
	          "close: %d %s", o.st, o.err.message);
	CHECK(o.figure == NO_FIGURE && o.fake_exit == 0);

	/* faultproxy's inject: the shifted replies refused by the proof, no figure */
	run_script(dir, "out_of_step.rsp", &o);
	CHECK_MSG(o.st == BR_ERR_PROTOCOL && o.failed == READ &&
	              strcmp(o.err.message, "the stop's reads not proven") == 0,
	          "out of step: %d %s", o.st, o.err.message);
	CHECK(o.figure == NO_FIGURE && o.fake_exit == 0);
	return check_finish();
}
