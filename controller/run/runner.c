#include "run/runner.h"

#include <stdio.h>
#include <string.h>

#include "measure/counter_target.h"
#include "measure/halt_proof.h"
#include "run/image_check.h"
#include "run/image_start.h"

/* Benchrack launched QEMU with this very image as its kernel: nothing to
 * load, and the core is already halted at the image's reset vector. */
static bool launched_with_image(const br_runner_options_t *o)
{
	const br_endpoint_t *ep = o->endpoint;
	return br_endpoint_kind(ep)->takes_image && ep->launch.kernel != NULL &&
	       strcmp(ep->launch.kernel, o->elf_path) == 0;
}

static br_board_load_t policy_of(const br_runner_options_t *o)
{
	if (o->load != BR_BOARD_LOAD_DEFAULT)
		return o->load;
	return launched_with_image(o) ? BR_BOARD_LOAD_NEVER : BR_BOARD_LOAD_IF_DIFFERENT;
}

/* Load, reset and halt (run/image_start.h), start the counter: everything
 * after the connection. */
static br_status_t prepare(const br_runner_options_t *o, br_runner_t *r, br_error_t *err)
{
	br_target_t *t = &r->session.target;
	t->output = o->output;
	t->output_ctx = o->output_ctx;
	br_status_t st = BR_OK;
	bool fresh = launched_with_image(o);
	br_image_start_t start = {.path = o->elf_path,
	                          .policy = policy_of(o),
	                          .server = r->server,
	                          .progress = o->load_progress,
	                          .progress_ctx = o->load_progress_ctx};
	r->load.policy = start.policy;
	if (!fresh)
		st = br_image_reset_vector_at(o->elf_path, &t->memory_map, &start.vec, &start.table,
		                              err);
	/* a map the server gave (the board file gave none): checked before any write */
	if (st == BR_OK && t->memory_map_from_server)
		st = br_image_check_map(o->elf_path, &t->memory_map, err);
	if (st != BR_OK)
		return br_error_prefix(err, "loading %s (load: %s)", o->elf_path,
		                       br_image_policy_name(start.policy));
	if (!fresh)
		st = br_image_start(t, &start, &r->load, err);
	if (st != BR_OK)
		return st;
	if (o->load_done != NULL && (r->load.written || r->load.matched))
		o->load_done(o->load_done_ctx, o->elf_path, &r->load);
	/* A word of the loaded image proves every bulk read from here on. */
	st = br_halt_proof_arm(t, o->elf_path, NULL, err);
	if (st != BR_OK)
		return st;
	if (o->no_counter)
		return BR_OK;
	const br_counter_t *c = o->counter != NULL ? o->counter : br_counter_qemu_tim2();
	return br_runner_counter_start(t, c, &r->counter, err);
}

br_status_t br_runner_counter_start(br_target_t *t, const br_counter_t *c,
                                    br_counter_state_t *state, br_error_t *err)
{
	/* A server whose debugger writes leave peripherals alone (QEMU) gets no
	 * enable writes: they would change nothing, and a peripheral the machine
	 * does not model (netduino2's RCC) faults even on the read before them.
	 * Whether it counts is checked on the samples all the same. */
	if (br_counter_is_monitor(c)) {
		/* No register to enable; one read proves record mode (a server
		 * without it answers with no count: a clear error now). */
		uint64_t now = 0;
		br_counter_state_init(state, c);
		return br_counter_read(t, state, &now, err);
	}
	if (!t->flavour->writes_peripherals) {
		br_counter_state_init(state, c);
		return BR_OK;
	}
	br_status_t st = br_counter_start(t, c, state, err);
	if (st != BR_OK)
		return br_error_prefix(err, "starting counter %s", c->name);
	return BR_OK;
}

br_status_t br_runner_open(const br_runner_options_t *o, br_runner_t *r, br_error_t *err)
{
	memset(r, 0, sizeof(*r));
	r->endpoint = *o->endpoint;
	/* QEMU's own instruction count needs record mode from the start: the
	 * one place a launch gets it for a counter. */
	if (!o->no_counter && o->counter != NULL && br_counter_is_monitor(o->counter))
		r->endpoint.launch.record = true;
	/* the image against the board's memory before the board starts: one
	 * linked for another board never runs */
	br_status_t st = br_image_check_map(o->elf_path, &o->endpoint->memory_map, err);
	if (st != BR_OK)
		return st;
	st = br_session_open(&r->endpoint, &r->session, err);
	snprintf(r->server, sizeof(r->server), "%s", r->session.description);
	if (st != BR_OK)
		return st;
	r->open = true;
	st = prepare(o, r, err);
	if (st != BR_OK) {
		br_runner_explain(r, err);
		br_runner_close(r);
	}
	return st;
}

br_target_t *br_runner_target(br_runner_t *r)
{
	return &r->session.target;
}

bool br_runner_core_unstoppable(const br_runner_t *r)
{
	return r->open && r->session.open && r->session.target.running &&
	       br_counter_uninterruptible(&r->counter.counter);
}

bool br_runner_launched(const br_runner_t *r)
{
	return r->session.server.pid != 0;
}

void br_runner_explain(br_runner_t *r, br_error_t *err)
{
	if (r->open)
		br_session_explain(&r->session, err);
}

void br_runner_release(br_runner_t *r)
{
	if (!r->open || !r->session.open)
		return;
	br_target_close(&r->session.target);
	r->session.open = false;
}

void br_runner_close(br_runner_t *r)
{
	if (!r->open)
		return;
	/* A launched server goes; a board behind a running one runs on. A core
	 * that answers no interrupt cannot be halted to detach (a second wait
	 * for nothing), and its QEMU does not heed SIGTERM either. */
	bool unstoppable = br_runner_core_unstoppable(r);
	if (unstoppable && br_runner_launched(r))
		br_server_kill(&r->session.server);
	br_session_close(&r->session, !br_runner_launched(r) && !unstoppable);
	r->open = false;
}
