/*
 * Per-halt cost and bulk read throughput of the target layer on QEMU,
 * against peers measured in the same run (`meson test --benchmark`):
 *
 *  - floor: a bare continue -> stop reply round trip (breakpoint changes done
 *    beforehand, untimed);
 *  - benchrack's per-halt path: continue -> stop -> 4-byte counter read, with
 *    the PC check and the breakpoint alternation pipelined with the continue
 *    (br_target_resume_batch: one write per halt);
 *  - the classic path: read, then remove / step / insert / continue;
 *  - gdb-multiarch running the same two-breakpoint loop from a script
 *    (continue, print the counter), each halt timed inside gdb (its Python);
 *  - bulk reads: 1 MiB of flash in the server's largest chunks, against the
 *    server's packet rate (small reads per second).
 *
 * Goals (issue 3): at least 10x faster per halt than the gdb script, and
 * within 1.5x of the floor. Exit 1 when one is missed.
 *
 * usage: bench_halt QEMU GDB FW_LOOP_ELF
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "elf_sym.h"
#include "debug/endpoint.h"

#define HALTS 2000
#define GDB_HALTS 200
#define SMALL_READS 500
#define BULK_BYTES (1024U * 1024U)
#define GOAL_VS_GDB 10.0
#define GOAL_VS_FLOOR 1.5

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

/* Halted at `here` with only `here` inserted: arm `next` instead (untimed). */
static void arm_other(br_target_t *t, uint32_t here, uint32_t next)
{
	br_error_t err;
	must(br_target_breakpoint_remove(t, here, &err), &err, "remove");
	must(br_target_breakpoint_insert(t, next, BR_BREAKPOINT_SOFTWARE, &err), &err, "insert");
}

/* gdb-multiarch drives its own QEMU through the same loop; returns µs per halt. */
static double gdb_per_halt(const char *qemu, const char *gdb, const char *elf)
{
	char script[] = "/tmp/benchrack-bench-XXXXXX";
	int fd = mkstemp(script);
	if (fd < 0)
		return -1.0;
	FILE *f = fdopen(fd, "w");
	fprintf(f,
	        "set pagination off\nset confirm off\n"
	        "target remote | %s -M netduinoplus2 -icount shift=0 -display none -monitor none "
	        "-serial null -S -gdb stdio -kernel %s\n"
	        "break br_loop_marker_a\nbreak br_loop_marker_b\ncontinue\n"
	        "python\nimport time\nts = []\nfor i in range(%d):\n"
	        "    t0 = time.monotonic()\n"
	        "    gdb.execute('continue', to_string=True)\n"
	        "    gdb.execute('output br_loop_count', to_string=True)\n"
	        "    ts.append(time.monotonic() - t0)\n"
	        "ts.sort()\n"
	        "print('GDB_US_PER_HALT %%f' %% (ts[len(ts) // 2] * 1e6))\nend\n"
	        "kill\n",
	        qemu, elf, GDB_HALTS);
	fclose(f);
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "%s -nx -batch -x %s %s 2>/dev/null", gdb, script, elf);
	FILE *p = popen(cmd, "r");
	double us = -1.0;
	char line[512];
	while (p != NULL && fgets(line, sizeof(line), p) != NULL) {
		const char *m = strstr(line, "GDB_US_PER_HALT ");
		if (m != NULL)
			us = strtod(m + strlen("GDB_US_PER_HALT "), NULL);
	}
	if (p != NULL)
		pclose(p);
	remove(script);
	return us;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s QEMU GDB FW_LOOP_ELF\n", argv[0]);
		return 2;
	}
	const char *qemu = argv[1], *gdb = argv[2], *elf = argv[3];
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

	/* Floor and benchrack's path, interleaved halt by halt so that both see
	 * the same machine load. Floor: the breakpoint change done first,
	 * untimed, then a bare continue -> stop reply. benchrack: continue ->
	 * stop -> 4-byte counter read with the PC check (cached when the stop
	 * implies it) and the breakpoint alternation pipelined with the continue
	 * (br_target_resume_batch), all timed. */
	static double fl[HALTS];
	uint32_t last = 0;
	unsigned long writes = 0;
	double fast_total = 0;
	for (int i = 0; i < 2 * HALTS; i++) {
		double t0;
		if (i % 2 == 0) {
			arm_other(t, here, next);
			t0 = now_us();
			must(rsp_client_send(&t->rsp, "c", 1, &err), &err, "c");
			t->running = true;
			must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
			fl[i / 2] = now_us() - t0;
		} else {
			unsigned long w0 = t->rsp.counters.write_calls;
			t0 = now_us();
			uint8_t buf[4];
			uint32_t rm = here, in = next;
			br_target_batch_t batch = {.read_pc = true,
			                           .reads = {{count, 4, buf}},
			                           .nreads = 1,
			                           .remove = &rm,
			                           .nremove = 1,
			                           .insert = &in,
			                           .ninsert = 1};
			must(br_target_resume_batch(t, &batch, &err), &err, "batch");
			must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
			v[i / 2] = now_us() - t0;
			fast_total += v[i / 2];
			writes += t->rsp.counters.write_calls - w0;
			if (batch.pc != here) {
				fprintf(stderr, "halt %d at 0x%08x, expected 0x%08x\n", i, batch.pc,
				        here);
				return 2;
			}
			last = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16 |
			       (uint32_t)buf[3] << 24;
		}
		uint32_t x = here;
		here = next;
		next = x;
	}
	double floor_us = median(fl, HALTS);
	double fast_mean = fast_total / HALTS;
	double fast_us = median(v, HALTS);
	double writes_per_halt = (double)writes / HALTS;

	/* Classic: one breakpoint, read, then remove / step / insert / continue. */
	must(br_target_breakpoint_remove_all(t, &err), &err, "remove all");
	must(br_target_breakpoint_insert(t, a, BR_BREAKPOINT_SOFTWARE, &err), &err, "insert");
	must(br_target_resume(t, &err), &err, "resume");
	must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
	for (int i = 0; i < HALTS / 4; i++) {
		double t0 = now_us();
		uint32_t c = 0;
		must(br_target_read_u32(t, count, &c, &err), &err, "read");
		must(br_target_resume(t, &err), &err, "resume");
		must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
		v[i] = now_us() - t0;
	}
	double classic_us = median(v, HALTS / 4);

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

	double gdb_us = gdb_per_halt(qemu, gdb, elf);

	double vs_gdb = gdb_us / fast_us, vs_floor = fast_us / floor_us;
	double mib_s = BULK_BYTES / bulk_s / (1024.0 * 1024.0);
	double packet_rate = 1e6 / small_us;
	double bulk_packet_rate = (double)bulk_packets / bulk_s;
	printf("per halt (median of %d, loopback, QEMU netduinoplus2):\n", HALTS);
	printf("  floor: bare c -> stop reply          %8.1f us\n", floor_us);
	printf("  benchrack: c -> stop -> 4-byte read  %8.1f us (mean %.1f; %.2f writes/halt)\n",
	       fast_us, fast_mean, writes_per_halt);
	printf("  classic remove/step/insert/continue  %8.1f us\n", classic_us);
	printf("  gdb-multiarch script (median of %d)  %8.1f us\n", GDB_HALTS, gdb_us);
	printf("  ratio gdb / benchrack                %8.1fx (goal >= %.0fx)\n", vs_gdb,
	       GOAL_VS_GDB);
	printf("  ratio benchrack / floor              %8.2fx (goal <= %.1fx)\n", vs_floor,
	       GOAL_VS_FLOOR);
	printf("bulk read: %u KiB of flash in %.3f s = %.2f MiB/s, %lu packets (%.0f/s); "
	       "small-read packet rate %.0f/s (%.1f us each): bulk runs at %.2f of the packet "
	       "rate, %zu bytes per packet\n",
	       BULK_BYTES / 1024U, bulk_s, mib_s, bulk_packets, bulk_packet_rate, packet_rate,
	       small_us, bulk_packet_rate / packet_rate, BULK_BYTES / (size_t)bulk_packets);
	printf("last counter read: %u\n", last);
	bool ok = gdb_us > 0 && vs_gdb >= GOAL_VS_GDB && vs_floor <= GOAL_VS_FLOOR;
	printf("%s\n", ok ? "goals met" : "GOAL MISSED");
	return ok ? 0 : 1;
}
