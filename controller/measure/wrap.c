#include "measure/wrap.h"

bool br_wrap_sample_ok(const br_counter_state_t *state, uint64_t ticks, double host_seconds)
{
	if (state->counter.clock_hz == 0 || state->wrap_seconds <= 0.0)
		return true;
	double possible = host_seconds * (double)state->counter.clock_hz;
	return (double)ticks + (double)state->period > possible;
}

size_t br_wrap_batch_check(const br_counter_state_t *state, const uint32_t *samples, size_t n,
                           double host_seconds, bool *measured)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += samples[i];
	bool ok = br_wrap_sample_ok(state, sum, host_seconds);
	for (size_t i = 0; i < n; i++)
		measured[i] = ok;
	return ok ? 0 : n;
}

size_t br_wrap_guarded_check(const br_counter_state_t *state, const uint32_t *samples, size_t n,
                             uint64_t guarded_ticks, br_wrap_verdict_t verdict, bool *measured)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += samples[i];
	bool ok = (verdict == BR_WRAP_OK || verdict == BR_WRAP_UNKNOWN) &&
	          guarded_ticks < sum + state->period;
	for (size_t i = 0; i < n; i++)
		measured[i] = ok;
	return ok ? 0 : n;
}

br_wrap_verdict_t br_wrap_interval_check(const br_counter_state_t *state, uint64_t ticks,
                                         double host_seconds)
{
	double rate = (double)state->counter.max_rate_hz;
	if (rate <= 0.0)
		return BR_WRAP_UNKNOWN;
	double possible = host_seconds * rate;
	if ((double)ticks > possible)
		return BR_WRAP_TOO_FAST;
	/* Period 0: a 64-bit count (QEMU's icount), which cannot wrap. */
	if (state->period != 0 && (double)ticks + (double)state->period <= possible)
		return BR_WRAP_POSSIBLE;
	return BR_WRAP_OK;
}

double br_wrap_guard_seconds(const br_counter_state_t *state)
{
	if (state->counter.max_rate_hz == 0 || state->period == 0)
		return 0.0;
	return (double)state->period / (double)state->counter.max_rate_hz /
	       BR_WRAP_GUARDS_PER_PERIOD;
}

const char *br_wrap_verdict_text(br_wrap_verdict_t v)
{
	switch (v) {
	case BR_WRAP_POSSIBLE:
		return "the host time between two reads could hide a whole counter period";
	case BR_WRAP_TOO_FAST:
		return "the counter advanced faster than it can count (it went backwards, or a "
		       "read was wrong)";
	case BR_WRAP_STRAY:
		return "the target reset, or stopped at a PC the session did not ask for, "
		       "between the two halts";
	case BR_WRAP_UNKNOWN:
		return "the counter's rate is not known, so a wrap cannot be told";
	case BR_WRAP_OK:
		break;
	}
	return "";
}
