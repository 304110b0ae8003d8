/*
 * benchrack-host-benches: the benches of benches/ as a host program, the
 * host's counterpart of the stub's runner (stub/src/runner.c). It pins itself
 * to one CPU, opens the host's counters (host_counters.h), runs the benches
 * it is asked for through the same suite table and BR_BENCH_LOOP as the
 * firmware (warm-up iterations first, discarded), and writes what it measured
 * on stdout, one line per fact, for benchrack's host runner
 * (controller/measure/host_batch.c), which owns the statistics:
 *
 *	benchrack-host 1
 *	clock CLOCK_MONOTONIC_RAW resolution_ns R getres_ns G step_ns S
 *	cpu C
 *	perf on                  (or: perf off <why>)
 *	bench NAME n N heap PEAK LIVE ALLOCS
 *	ns V1 ... VN
 *	cycles V1 ... VN
 *	instructions V1 ... VN
 *	end
 *
 * A failure is one line `error <what>` and exit status 1.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchrack/suite.h"
#include "host_counters.h"
#include "host_heap.h"

#define HOST_PROTOCOL_VERSION 1
#define HOST_MAX_ITERATIONS 1024UL
#define HOST_MAX_WARMUP 1000000UL
#define HOST_WHY_BYTES 256U

typedef struct host_args {
	unsigned long iterations, warmup, argument;
	long cpu; /* -1: the last CPU this process may run on */
	int first_bench; /* argv index of the first bench name; argc: every bench */
} host_args_t;

static int host_fail(const char *what, const char *detail)
{
	printf("error %s%s\n", what, detail);
	return 1;
}

static int host_number(const char *text, unsigned long max, unsigned long *out)
{
	char *end = NULL;
	unsigned long v = strtoul(text, &end, 10);

	if (text[0] == '\0' || text[0] == '-' || *end != '\0' || v > max)
		return -1;
	*out = v;
	return 0;
}

static int host_parse(int argc, char **argv, host_args_t *a)
{
	a->iterations = 100U;
	a->warmup = 2U;
	a->argument = 0U;
	a->cpu = -1;
	int i = 1;
	for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		unsigned long v = 0;
		unsigned long max = strcmp(argv[i], "--iterations") == 0 ? HOST_MAX_ITERATIONS
				    : strcmp(argv[i], "--cpu") == 0	 ? (unsigned long)CPU_SETSIZE - 1U
									 : HOST_MAX_WARMUP;
		if (host_number(argv[i + 1], max, &v) != 0)
			return host_fail("bad number for ", argv[i]);
		if (strcmp(argv[i], "--iterations") == 0 && v > 0U)
			a->iterations = v;
		else if (strcmp(argv[i], "--warmup") == 0)
			a->warmup = v;
		else if (strcmp(argv[i], "--argument") == 0)
			a->argument = v;
		else if (strcmp(argv[i], "--cpu") == 0)
			a->cpu = (long)v;
		else
			return host_fail("unknown option or value ", argv[i]);
	}
	a->first_bench = i;
	return 0;
}

/* Pins this process to a->cpu, or to the last CPU it may run on; *cpu is it. */
static int host_pin(const host_args_t *a, long *cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return host_fail("sched_getaffinity: ", strerror(errno));
	*cpu = a->cpu;
	for (long c = CPU_SETSIZE - 1; *cpu < 0 && c >= 0; c--) {
		if (CPU_ISSET((size_t)c, &set))
			*cpu = c;
	}
	CPU_ZERO(&set);
	CPU_SET((size_t)*cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return host_fail("sched_setaffinity: ", strerror(errno));
	return 0;
}

static void host_row(const char *name, const uint32_t *values, unsigned long n)
{
	fputs(name, stdout);
	for (unsigned long i = 0; i < n; i++)
		printf(" %u", values[i]);
	putchar('\n');
}

/* Runs bench `index` and writes its lines. */
static void host_run(uint32_t index, const host_args_t *a, uint32_t *samples)
{
	br_request_t request;
	br_run_t run;

	memset(&request, 0, sizeof(request));
	request.bench_index = index;
	request.iterations = (uint32_t)a->iterations;
	request.warmup = (uint32_t)a->warmup;
	request.argument = (uint32_t)a->argument;
	run.request = &request;
	run.samples = samples;
	memset(&br_host_heap, 0, sizeof(br_host_heap));
	br_suite[index].fn(&run);
	printf("bench %s n %lu heap %u %u %u\n", br_suite[index].name, a->iterations,
	       br_host_heap.peak, br_host_heap.live, br_host_heap.allocs);
	host_row("ns", samples, a->iterations);
	host_row("cycles", samples + a->iterations, a->iterations);
	host_row("instructions", samples + 2U * a->iterations, a->iterations);
	fflush(stdout);
}

static int host_index(const char *name)
{
	for (uint32_t i = 0; i < br_suite_count; i++) {
		if (strcmp(br_suite[i].name, name) == 0)
			return (int)i;
	}
	return -1;
}

int main(int argc, char **argv)
{
	host_args_t a;
	long cpu = 0;
	char why[HOST_WHY_BYTES] = "";
	uint64_t getres = 0, step = 0;

	if (host_parse(argc, argv, &a) != 0 || host_pin(&a, &cpu) != 0)
		return 1;
	for (int i = a.first_bench; i < argc; i++) {
		if (host_index(argv[i]) < 0)
			return host_fail("no bench called ", argv[i]);
	}
	uint32_t *samples = calloc(3U * a.iterations, sizeof(uint32_t));
	if (samples == NULL)
		return host_fail("out of memory", "");
	const bool perf = br_host_counters_open(why, sizeof(why));
	const uint64_t resolution = br_host_clock_resolution(&getres, &step);
	printf("benchrack-host %d\n", HOST_PROTOCOL_VERSION);
	printf("clock CLOCK_MONOTONIC_RAW resolution_ns %llu getres_ns %llu step_ns %llu\n",
	       (unsigned long long)resolution, (unsigned long long)getres,
	       (unsigned long long)step);
	printf("cpu %ld\n", cpu);
	if (perf)
		puts("perf on");
	else
		printf("perf off %s\n", why);
	if (a.first_bench == argc) {
		for (uint32_t i = 0; i < br_suite_count; i++)
			host_run(i, &a, samples);
	} else {
		for (int i = a.first_bench; i < argc; i++)
			host_run((uint32_t)host_index(argv[i]), &a, samples);
	}
	free(samples);
	puts("end");
	return 0;
}
