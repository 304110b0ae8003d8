/* The host's counters (host_counters.h, benchrack/host_loop.h). */
#include "host_counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "benchrack/bench.h"

#define HOST_NS_PER_S 1000000000ULL
#define HOST_RESOLUTION_READS 1000U
#define HOST_PARANOID_PATH "/proc/sys/kernel/perf_event_paranoid"

enum { HOST_PERF_CYCLES, HOST_PERF_INSTRUCTIONS, HOST_PERF_COUNT };

/* The group's leader (cycles), or -1 when perf is not in use. */
static int host_perf_leader = -1;

static int host_perf_open(uint64_t config, int group)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.size = sizeof(attr);
	attr.config = config;
	if (group < 0)
		attr.disabled = 1; /* the leader starts the group */
	attr.exclude_kernel = 1U;
	attr.exclude_hv = 1U;
	attr.read_format = PERF_FORMAT_GROUP;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, group, 0UL);
}

/* "perf_event_paranoid = N" into buf, or that it could not be read. */
static void host_paranoid(char *buf, size_t cap)
{
	FILE *f = fopen(HOST_PARANOID_PATH, "r");
	int value = 0;

	if (f != NULL && fscanf(f, "%d", &value) == 1)
		snprintf(buf, cap, "kernel.perf_event_paranoid = %d", value);
	else
		snprintf(buf, cap, "%s unreadable", HOST_PARANOID_PATH);
	if (f != NULL)
		fclose(f);
}

bool br_host_counters_open(char *why, size_t cap)
{
	char paranoid[96];
	const char *which = "cycles";
	int leader = host_perf_open(PERF_COUNT_HW_CPU_CYCLES, -1);
	int member = -1;

	if (leader >= 0) {
		which = "instructions";
		member = host_perf_open(PERF_COUNT_HW_INSTRUCTIONS, leader);
	}
	if (leader >= 0 && member >= 0 && ioctl(leader, PERF_EVENT_IOC_ENABLE, 0) == 0) {
		host_perf_leader = leader;
		return true;
	}
	const int e = errno;
	host_paranoid(paranoid, sizeof(paranoid));
	const char *meaning = e == EACCES || e == EPERM ? "not allowed"
			      : e == ENOENT || e == EOPNOTSUPP || e == ENODEV
				      ? "no such hardware counter on this CPU or virtual machine"
				      : "refused";
	snprintf(why, cap, "perf_event_open(%s, user mode): %s: %s (%s)", which, meaning,
		 strerror(e), paranoid);
	if (member >= 0)
		close(member);
	if (leader >= 0)
		close(leader);
	return false;
}

/* Cycles and instructions of the group, in one read(2). */
static void host_perf_read(br_host_reading_t *r)
{
	uint64_t values[1 + HOST_PERF_COUNT] = {0};

	if (host_perf_leader < 0)
		return;
	if (read(host_perf_leader, values, sizeof(values)) == (ssize_t)sizeof(values) &&
	    values[0] == HOST_PERF_COUNT) {
		r->cycles = values[1 + HOST_PERF_CYCLES];
		r->instructions = values[1 + HOST_PERF_INSTRUCTIONS];
	}
}

static uint64_t host_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * HOST_NS_PER_S + (uint64_t)ts.tv_nsec;
}

void br_host_counters_read(br_host_reading_t *r)
{
	if (r->role == BR_HOST_READ_START) {
		host_perf_read(r);
		r->ns = host_clock_ns();
	} else {
		r->ns = host_clock_ns();
		host_perf_read(r);
	}
}

uint64_t br_host_clock_resolution(uint64_t *getres_ns, uint64_t *step_ns)
{
	struct timespec res;
	uint64_t step = UINT64_MAX;
	uint64_t last = host_clock_ns();

	*getres_ns = 1U;
	if (clock_getres(CLOCK_MONOTONIC_RAW, &res) == 0)
		*getres_ns = (uint64_t)res.tv_sec * HOST_NS_PER_S + (uint64_t)res.tv_nsec;
	for (unsigned i = 0; i < HOST_RESOLUTION_READS; i++) {
		const uint64_t now = host_clock_ns();

		if (now > last && now - last < step)
			step = now - last;
		last = now;
	}
	*step_ns = step == UINT64_MAX ? *getres_ns : step;
	return *step_ns > *getres_ns ? *step_ns : *getres_ns;
}
