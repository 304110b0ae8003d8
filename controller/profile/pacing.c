#include "profile/pacing.h"

#include <stdlib.h>
#include <time.h>

#include "common/clock.h"

#define NS_PER_S 1000000000LL

void br_pacing_start(br_pacing_t *p, double rate_hz, int64_t start_ns)
{
	p->period_ns = rate_hz > 0 ? (int64_t)((double)NS_PER_S / rate_hz) : 0;
	p->next_ns = start_ns + p->period_ns;
	p->seed = (unsigned)start_ns;
}

void br_pacing_wait(br_pacing_t *p)
{
	if (p->period_ns == 0)
		return;
	int64_t now = br_clock_ns();
	if (p->next_ns > now) {
		struct timespec ts = {.tv_sec = (time_t)((p->next_ns - now) / NS_PER_S),
		                      .tv_nsec = (long)((p->next_ns - now) % NS_PER_S)};
		nanosleep(&ts, NULL);
	}
	/* Uniform in [period/2, 3 period/2). */
	p->next_ns +=
	    p->period_ns / 2 +
	    (int64_t)((double)p->period_ns * ((double)rand_r(&p->seed) / ((double)RAND_MAX + 1.0)));
}
