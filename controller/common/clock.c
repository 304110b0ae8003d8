#include "common/clock.h"

#include <time.h>

int64_t br_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t br_clock_ms(void)
{
	return br_clock_ns() / 1000000;
}

int br_clock_remaining_ms(int64_t deadline_ms)
{
	int64_t left = deadline_ms - br_clock_ms();
	if (left < 0)
		return 0;
	if (left > 0x7fffffff)
		return 0x7fffffff;
	return (int)left;
}
