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
