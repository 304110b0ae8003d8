#include "common/counter_period.h"

br_status_t br_counter_period_check(const char *name, unsigned width_bits, uint64_t rate_hz,
                                    const char *clock_option, br_status_t status, br_error_t *err)
{
	if (width_bits >= BR_COUNTER_PERIOD_FULL_BITS || rate_hz != 0)
		return BR_OK;
	return br_error_set(err, status,
	                    "counter %s is %u bits wide and wraps every 2^%u ticks: give its "
	                    "clock (%s), or a wrapped interval could not be told from a short one",
	                    name, width_bits, width_bits, clock_option);
}
