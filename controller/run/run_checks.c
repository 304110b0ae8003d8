#include "run/run_checks.h"

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

size_t br_run_check_wrap(const br_counter_state_t *state, const uint32_t *samples, size_t n,
			 double host_seconds, bool *measured)
{
	return br_wrap_batch_check(state, samples, n, host_seconds, measured);
}
