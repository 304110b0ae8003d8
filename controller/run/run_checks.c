#include "run/run_checks.h"

#include <stdio.h>

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

size_t br_run_check_wrap(const br_counter_state_t *state, const br_stub_result_t *r,
			 bool *measured)
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
			 (unsigned long long)r->guarded_ticks, name, (unsigned long long)state->period);
	else
		snprintf(buf, cap,
			 "not measured: the batch took %.3f s of host time, enough for counter %s "
			 "to wrap unseen (use a wider or slower counter, or fewer iterations)",
			 r->host_seconds, name);
}

br_status_t br_run_probe_after_timeout(br_target_t *t, uint32_t *pc, br_error_t *err)
{
	br_error_t why;
	br_error_clear(&why);
	br_status_t st;
	if (rsp_client_usable(&t->rsp)) {
		st = br_target_halt(t, BR_RUN_HALT_PROBE_MS, &why);
		if (st == BR_OK)
			st = br_target_pc(t, pc, &why);
		if (st == BR_OK)
			return BR_OK;
	} else if (err->status == BR_ERR_TIMEOUT && t->rsp.broken) {
		/* The wait ended with the session intact; it broke since, when the
		 * measurement's cleanup interrupted the core: that is the answer. */
		why = t->rsp.broken_reason;
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

br_status_t br_run_classify_timeout(br_target_t *t, const char *what, int timeout_ms,
				    br_error_t *err)
{
	uint32_t pc = 0;
	br_status_t st = br_run_probe_after_timeout(t, &pc, err);
	if (st != BR_OK)
		return st;
	int seconds = (timeout_ms + 999) / 1000;
	char was[BR_ERROR_MESSAGE_BYTES / 2U];
	snprintf(was, sizeof(was), "%.*s", (int)sizeof(was) - 1, err->message);
	return br_error_set(err, BR_ERR_REGRESSION,
			    "%s did not finish within %d s (the board answers: interrupted at PC "
			    "0x%08x): a test failure, not an infrastructure error; fix the firmware, "
			    "or raise the timeout if it is only slow (%s)",
			    what, seconds, pc, was);
}
