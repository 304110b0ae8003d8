/*
 * The floor of a region's halts for bench_user_path.py (issue 27): a bare
 * client on benchrack's target layer, attached to the benchmark's QEMU at
 * HOST:PORT, alternating the breakpoints FROM and TO of a region with one
 * pipelined write per halt (read the counter, remove the breakpoint it is
 * halted on, insert the other, continue) and the wait for the stop: the
 * least a correct session must do per halt. Run on each layout of a region
 * (its work on the breakpoints' page, or 8 KiB away: -DFAR_WORK), it is the
 * floor that layout allows on QEMU 7.2.
 *
 * Prints: REGION_FLOOR_US <mean> <median> <halts>
 *
 * usage: bench_region_floor ELF FROM TO HOST PORT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "bench_common.h"
#include "elf_sym.h"
#include "debug/endpoint.h"

#define HALTS 1000
/* STM32F4 TIM2_CNT: QEMU's instruction clock under -icount shift=0. */
#define TIM2_CNT 0x40000024U

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: %s ELF FROM TO HOST PORT\n", argv[0]);
		return 2;
	}
	const uint32_t from = test_elf_sym_address(argv[1], argv[2], 2);
	const uint32_t to = test_elf_sym_address(argv[1], argv[3], 2);
	br_session_t s;
	bench_attach_qemu(argv[4], argv[5], &s);
	br_error_t err;
	br_target_t *t = &s.target;
	must(br_target_breakpoint_insert(t, from, BR_BREAKPOINT_SOFTWARE, &err), &err, "insert");
	must(br_target_resume(t, &err), &err, "resume");
	must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
	static double v[HALTS];
	double total = 0;
	uint32_t here = from, next = to;
	for (int i = 0; i < HALTS; i++) {
		uint8_t counter[4];
		br_target_batch_t b;
		memset(&b, 0, sizeof(b));
		b.reads[0].address = TIM2_CNT;
		b.reads[0].len = sizeof(counter);
		b.reads[0].buf = counter;
		b.nreads = 1;
		b.remove = &here;
		b.nremove = 1;
		b.insert = &next;
		b.ninsert = 1;
		double t0 = (double)br_clock_ns() / 1e3;
		must(br_target_resume_batch(t, &b, &err), &err, "halt's write");
		must(br_target_wait_stop(t, 5000, NULL, &err), &err, "stop");
		v[i] = (double)br_clock_ns() / 1e3 - t0;
		total += v[i];
		uint32_t x = here;
		here = next;
		next = x;
	}
	must(br_target_breakpoint_remove_all(t, &err), &err, "removing the breakpoints");
	br_session_close(&s, true);
	qsort(v, HALTS, sizeof(v[0]), cmp_double);
	printf("REGION_FLOOR_US %.2f %.2f %d\n", total / HALTS,
	       (v[HALTS / 2 - 1] + v[HALTS / 2]) / 2.0, HALTS);
	return 0;
}
