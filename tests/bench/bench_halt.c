/*
 * Peers for the benchmarks of the user's path (bench_user_path.py), on the
 * QEMU the benchmark measures benchrack on (attached at HOST:PORT, as
 * `benchrack --remote` attaches), with benchrack's own target layer as a
 * lean client:
 *
 *  - floor: a bare continue -> stop reply round trip, the breakpoint swap
 *    done beforehand, untimed — what no per-halt path can beat;
 *  - bulk reads: BULK_READS reads of 30 KiB of flash through
 *    br_target_mem_read (15 chunks of 2046 bytes in flight and the marker read
 *    that proves them), against the server's small-read packet rate: the
 *    median time per packet of each against the other.
 *
 * Prints one machine-readable line per figure:
 *   FLOOR_US <mean> <median> <halts>
 *   FLOOR_CPU_US <this client's user + system time per halt, breakpoint swaps included>
 *   FLOOR_CPU_BARE_US <the same, of the timed continue -> stop alone>
 *   BULK <bytes> <seconds> <packets> <small_reads_per_s> <ratio>
 * (ratio: bulk data packets per second — the marker reads not counted, their
 * time counted — over small reads per second, medians)
 *
 * usage: bench_halt FW_LOOP_ELF HOST PORT (a QEMU running FW_LOOP_ELF)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "common/clock.h"
#include "bench_common.h"
#include "elf_sym.h"
#include "debug/endpoint.h"
#include "measure/halt_proof.h"

#define HALTS 2000
#define SMALL_READS 1000
#define BULK_READS 100
#define BULK_CHUNK (15U * 2046U)

static uint32_t sym(const char *elf_path, const char *name)
{
	return test_elf_sym_address(elf_path, name, 2);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2U ? v[n / 2U] : (v[n / 2U - 1U] + v[n / 2U]) / 2.0;
}

static double now_us(void)
{
	return (double)br_clock_ns() / 1000.0;
}

/* This process's user + system time so far (not QEMU's: a child not yet waited for). */
static double cpu_us(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec * 1e6 + (double)ru.ru_utime.tv_usec +
	       (double)ru.ru_stime.tv_sec * 1e6 + (double)ru.ru_stime.tv_usec;
}

/* This process's CPU time so far, to the nanosecond (CLOCK_PROCESS_CPUTIME_ID:
 * the scheduler's own account, precise over one halt). */
static double cpu_precise_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Halted at `here` with only `here` inserted: arm `next` instead (untimed). */
static void arm_other(br_target_t *t, uint32_t here, uint32_t next)
{
	br_error_t err;
	must(br_target_breakpoint_remove(t, here, &err), &err, "remove");
	must(br_target_breakpoint_insert(t, next, BR_BREAKPOINT_SOFTWARE, &err), &err, "insert");
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s FW_LOOP_ELF HOST PORT\n", argv[0]);
		return 2;
	}
	const char *elf = argv[1];
	const uint32_t a = sym(elf, "br_loop_marker_a"), b = sym(elf, "br_loop_marker_b");
	const uint32_t count = sym(elf, "br_loop_count");
	br_session_t s;
	bench_attach_qemu(argv[2], argv[3], &s);
	br_error_t err;
	br_target_t *t = &s.target;
	/* Bulk reads proven by the image's marker, as every benchrack path reads. */
	must(br_halt_proof_arm(t, elf, NULL, &err), &err, "marker");
	static double v[HALTS];

	/* Run to a; from then on exactly one of a, b is inserted. */
	must(br_target_breakpoint_insert(t, a, BR_BREAKPOINT_SOFTWARE, &err), &err, "insert");
	must(br_target_resume(t, &err), &err, "resume");
	must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
	uint32_t here = a, next = b;
	double total = 0, bare_cpu = 0;
	double cpu0 = cpu_us();
	for (int i = 0; i < HALTS; i++) {
		arm_other(t, here, next);
		double t0 = now_us();
		double c0 = cpu_precise_us();
		must(rsp_client_send(t->rsp, "c", 1, &err), &err, "c");
		t->running = true;
		must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
		bare_cpu += cpu_precise_us() - c0;
		v[i] = now_us() - t0;
		total += v[i];
		uint32_t x = here;
		here = next;
		next = x;
	}
	double floor_cpu = (cpu_us() - cpu0) / HALTS;
	double floor_mean = total / HALTS;
	double floor_median = median(v, HALTS);

	/* Bulk reads against the packet rate, both as medians over many
	 * interleaved timings (the host is shared: a mean would measure its
	 * load): SMALL_READS 4-byte reads, and BULK_READS reads of BULK_CHUNK
	 * bytes (one pipelined round of 2 KiB chunks and its marker read). */
	static double small[SMALL_READS], per_packet[BULK_READS];
	uint8_t *bulk = malloc(BULK_CHUNK);
	unsigned long packets = 0;
	double bulk_total = 0;
	for (int i = 0; i < SMALL_READS; i++) {
		uint32_t w = 0;
		double t0 = now_us();
		must(br_target_read_u32(t, count, &w, &err), &err, "small read");
		small[i] = now_us() - t0;
		if (i % (SMALL_READS / BULK_READS) != 0)
			continue;
		int k = i / (SMALL_READS / BULK_READS);
		unsigned long p0 = rsp_client_counters(t->rsp)->packets_sent;
		uint32_t at = 0x08000000U + (uint32_t)((unsigned)k % 32U) * BULK_CHUNK;
		t0 = now_us();
		must(br_target_mem_read(t, at, bulk, BULK_CHUNK, &err), &err, "bulk read");
		double us = now_us() - t0;
		bulk_total += us;
		/* Data packets only: each round of up to 15 ends with a marker read. */
		unsigned long np = rsp_client_counters(t->rsp)->packets_sent - p0;
		np -= (np + 15U) / 16U;
		packets += np;
		per_packet[k] = us / (double)np;
	}
	free(bulk);
	/* The QEMU is the benchmark's: leave it running with no breakpoint, as
	 * benchrack leaves it. */
	must(br_target_breakpoint_remove_all(t, &err), &err, "removing the breakpoints");
	br_session_close(&s, true);
	double small_us = median(small, SMALL_READS);
	double packet_us = median(per_packet, BULK_READS);

	printf("FLOOR_US %.2f %.2f %d\n", floor_mean, floor_median, HALTS);
	printf("FLOOR_CPU_US %.2f\n", floor_cpu);
	printf("FLOOR_CPU_BARE_US %.2f\n", bare_cpu / HALTS);
	printf("BULK %u %.6f %lu %.1f %.3f\n", BULK_CHUNK * BULK_READS, bulk_total / 1e6, packets,
	       1e6 / small_us, small_us / packet_us);
	return 0;
}
