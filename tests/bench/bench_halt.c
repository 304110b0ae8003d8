/*
 * Peers for the benchmarks of the user's path (bench_user_path.py), on a
 * QEMU this program launches, with benchrack's own target layer as a lean
 * client:
 *
 *  - floor: a bare continue -> stop reply round trip, the breakpoint swap
 *    done beforehand, untimed — what no per-halt path can beat;
 *  - bulk reads: 1 MiB of flash through br_target_mem_read, against the
 *    server's small-read packet rate (packets per second).
 *
 * Prints one machine-readable line per figure:
 *   FLOOR_US <mean> <median> <halts>
 *   FLOOR_CPU_US <this client's user + system time per halt, breakpoint swaps included>
 *   BULK <bytes> <seconds> <packets> <small_reads_per_s> <ratio>
 *
 * usage: bench_halt QEMU FW_LOOP_ELF
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "common/clock.h"
#include "elf_sym.h"
#include "debug/endpoint.h"

#define HALTS 2000
#define SMALL_READS 500
#define BULK_BYTES (1024U * 1024U)

static uint32_t sym(const char *elf_path, const char *name)
{
	return test_elf_sym_address(elf_path, name, 2);
}

static void must(br_status_t st, const br_error_t *err, const char *what)
{
	if (st != BR_OK) {
		fprintf(stderr, "%s: %s\n", what, err->message);
		exit(2);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
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

/* Halted at `here` with only `here` inserted: arm `next` instead (untimed). */
static void arm_other(br_target_t *t, uint32_t here, uint32_t next)
{
	br_error_t err;
	must(br_target_breakpoint_remove(t, here, &err), &err, "remove");
	must(br_target_breakpoint_insert(t, next, BR_BREAKPOINT_SOFTWARE, &err), &err, "insert");
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s QEMU FW_LOOP_ELF\n", argv[0]);
		return 2;
	}
	const char *qemu = argv[1], *elf = argv[2];
	const uint32_t a = sym(elf, "br_loop_marker_a"), b = sym(elf, "br_loop_marker_b");
	const uint32_t count = sym(elf, "br_loop_count");
	br_endpoint_t ep;
	br_endpoint_init(&ep);
	ep.qemu.program = qemu;
	ep.qemu.kernel = elf;
	br_session_t s;
	br_error_t err;
	must(br_session_open(&ep, &s, &err), &err, "starting QEMU");
	br_target_t *t = &s.target;
	static double v[HALTS];

	/* Run to a; from then on exactly one of a, b is inserted. */
	must(br_target_breakpoint_insert(t, a, BR_BREAKPOINT_SOFTWARE, &err), &err, "insert");
	must(br_target_resume(t, &err), &err, "resume");
	must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
	uint32_t here = a, next = b;
	double total = 0;
	double cpu0 = cpu_us();
	for (int i = 0; i < HALTS; i++) {
		arm_other(t, here, next);
		double t0 = now_us();
		must(rsp_client_send(&t->rsp, "c", 1, &err), &err, "c");
		t->running = true;
		must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
		v[i] = now_us() - t0;
		total += v[i];
		uint32_t x = here;
		here = next;
		next = x;
	}
	double floor_cpu = (cpu_us() - cpu0) / HALTS;
	double floor_mean = total / HALTS;
	double floor_median = median(v, HALTS);

	/* Bulk reads against the packet rate. */
	for (int i = 0; i < SMALL_READS; i++) {
		uint32_t w = 0;
		double t0 = now_us();
		must(br_target_read_u32(t, count, &w, &err), &err, "small read");
		v[i] = now_us() - t0;
	}
	double small_us = median(v, SMALL_READS);
	uint8_t *bulk = malloc(BULK_BYTES);
	unsigned long packets0 = t->rsp.counters.packets_sent;
	double b0 = now_us();
	must(br_target_mem_read(t, 0x08000000U, bulk, BULK_BYTES, &err), &err, "bulk read");
	double bulk_s = (now_us() - b0) / 1e6;
	unsigned long bulk_packets = t->rsp.counters.packets_sent - packets0;
	free(bulk);
	br_session_close(&s, false);

	double packet_rate = 1e6 / small_us;
	double bulk_packet_rate = (double)bulk_packets / bulk_s;
	printf("FLOOR_US %.2f %.2f %d\n", floor_mean, floor_median, HALTS);
	printf("FLOOR_CPU_US %.2f\n", floor_cpu);
	printf("BULK %u %.6f %lu %.1f %.3f\n", BULK_BYTES, bulk_s, bulk_packets, packet_rate,
	       bulk_packet_rate / packet_rate);
	return 0;
}
