#include "run/run_checks.h"

#include <stdio.h>

#define BR_RUN_CORE_TEXT_BYTES 256U

#include "elf/elf_file.h"
#include "elf/elf_symbols.h"
#include "measure/counter_target.h"
#include "measure/wrap.h"

bool br_run_any_counted(const uint32_t *samples, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (samples[i] != 0)
			return true;
	}
	return false;
}

br_status_t br_run_check_counting(const br_counter_state_t *state, bool counted, size_t n,
                                  const char *what, br_error_t *err)
{
	if (counted || n == 0)
		return BR_OK;
	return br_counter_not_counting(state, what, err);
}

size_t br_run_check_wrap(const br_counter_state_t *state, const br_stub_result_t *r, bool *measured)
{
	if (r->guarded)
		return br_wrap_guarded_check(state, r->samples, r->count, r->guarded_ticks,
		                             r->guard_verdict, measured);
	return br_wrap_batch_check(state, r->samples, r->count, r->host_seconds, measured);
}

void br_run_wrap_reason(const br_counter_state_t *state, const br_stub_result_t *r, char *buf,
                        size_t cap)
{
	const char *name = state->counter.name;
	if (r->guarded && r->guard_verdict != BR_WRAP_OK)
		snprintf(buf, cap, "not measured: a guard read of counter %s: %s", name,
		         br_wrap_verdict_text(r->guard_verdict));
	else if (r->guarded)
		snprintf(buf, cap,
		         "not measured: the batch ran %llu ticks of counter %s, a period (%llu) "
		         "more than its samples' sum, so a sample could have wrapped (use a wider "
		         "or slower counter, or a shorter bench)",
		         (unsigned long long)r->guarded_ticks, name,
		         (unsigned long long)state->period);
	else
		snprintf(buf, cap,
		         "not measured: the batch took %.3f s of host time, enough for counter %s "
		         "to wrap unseen (use a wider or slower counter, or fewer iterations)",
		         r->host_seconds, name);
}

br_status_t br_run_probe_after_timeout(br_target_t *t, br_core_state_t *state, br_error_t *err)
{
	br_error_t why;
	br_error_clear(&why);
	br_status_t st;
	if (rsp_client_usable(t->rsp)) {
		st = br_target_halt(t, BR_RUN_HALT_PROBE_MS, &why);
		if (st == BR_OK)
			st = br_core_state_read(t, state, &why);
		if (st == BR_OK)
			return BR_OK;
	} else if (err->status == BR_ERR_TIMEOUT && rsp_client_broken_reason(t->rsp) != NULL) {
		/* The wait ended with the session intact; it broke since, when the
		 * measurement's cleanup interrupted the core: that is the answer. */
		why = *rsp_client_broken_reason(t->rsp);
	} else {
		return err->status; /* ended some other way: err already says how */
	}
	/* err's guess (the firmware never got there) does not stand: replaced. */
	return br_error_set(err, BR_ERR_INFRA,
	                    "the server stopped answering while the target ran: no stop came, and "
	                    "no answer to an interrupt either (%.200s); check the server and the "
	                    "connection to it",
	                    why.message);
}

void br_run_core_text(const char *elf_path, const br_core_state_t *state, char *buf, size_t cap)
{
	char where[BR_RUN_CORE_TEXT_BYTES];
	snprintf(where, sizeof(where), "0x%08x", state->pc);
	br_elf_t *elf = NULL;
	br_error_t ignored;
	if (elf_path != NULL && br_elf_open(elf_path, &elf, &ignored) == BR_OK) {
		br_elf_symbol_describe(elf, state->pc, where, sizeof(where));
		br_elf_close(elf);
	}
	char exc[BR_RUN_CORE_TEXT_BYTES];
	br_core_state_describe(state, exc, sizeof(exc));
	snprintf(buf, cap, "PC %s%s%s", where, exc[0] != '\0' ? ", in an exception handler: " : "",
	         exc);
}

/* A core left running by a QEMU in record mode benchrack did not launch. */
static br_status_t core_left_remote(int timeout_ms, br_error_t *err)
{
	char was[BR_ERROR_MESSAGE_BYTES / 2U];
	snprintf(was, sizeof(was), "%.*s", (int)sizeof(was) - 1,
	         err->status != BR_OK ? err->message : "");
	return br_error_set(
	    err, BR_ERR_INFRA,
	    "%s%sQEMU in record mode (counter icount) answers no interrupt while "
	    "the firmware runs, so a breakpoint not reached within --timeout (%d s) "
	    "leaves the core of this QEMU, which benchrack did not launch, running "
	    "where nobody can see it, with the session's breakpoints in place: "
	    "restart that QEMU (or let benchrack launch it), and raise --timeout for "
	    "a long region",
	    was, was[0] != '\0' ? "; " : "", (timeout_ms + 999) / 1000);
}

br_status_t br_run_core_after_timeout(br_runner_t *r, const char *elf_path, int timeout_ms,
                                      char *core, size_t cap, br_error_t *err)
{
	if (br_runner_core_unstoppable(r) && !br_runner_launched(r))
		return core_left_remote(timeout_ms, err);
	if (br_runner_core_unstoppable(r)) {
		snprintf(core, cap, "%s, and ended the QEMU it launched",
		         BR_COUNTER_UNINTERRUPTIBLE_TEXT);
		return BR_OK;
	}
	br_core_state_t state;
	br_status_t st = br_run_probe_after_timeout(br_runner_target(r), &state, err);
	if (st != BR_OK)
		return st;
	char text[BR_RUN_CORE_TEXT_BYTES * 2U];
	br_run_core_text(elf_path, &state, text, sizeof(text));
	snprintf(core, cap, "the core was at %s", text);
	return BR_OK;
}

br_status_t br_run_classify_timeout(br_runner_t *r, const char *elf_path, const char *what,
                                    int timeout_ms, const char *starved, br_error_t *err)
{
	char core[BR_RUN_CORE_TEXT_BYTES * 2U + 16U];
	br_status_t st =
	    br_run_core_after_timeout(r, elf_path, timeout_ms, core, sizeof(core), err);
	if (st != BR_OK)
		return st;
	int seconds = (timeout_ms + 999) / 1000;
	char was[BR_ERROR_MESSAGE_BYTES / 2U];
	snprintf(was, sizeof(was), "%.*s", (int)sizeof(was) - 1, err->message);
	if (starved != NULL)
		return br_error_set(
		    err, BR_ERR_INFRA,
		    "%s did not finish within %d s, but the host was overloaded: %s; "
		    "an infrastructure error, not the firmware's (%s; %s)",
		    what, seconds, starved, core, was);
	return br_error_set(err, BR_ERR_TIMEOUT, "%s did not finish within %d s: %s (%s)", what,
	                    seconds, core, was);
}
