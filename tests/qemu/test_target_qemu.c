/*
 * The target layer against a real QEMU (the build's board: its machine and
 * memory map, from the cross file's [properties]) running
 * tests/qemu/fw_loop.c. Every QEMU quirk in the flavour table is checked
 * twice: the raw server behaves so (so the column is true), and the target
 * layer copes (so the column is used). Also: the pipelined per-halt batch
 * gives exact loop counts, registers, reset, load/verify, the comparator
 * budget at set-up, and kill.
 *
 * Scratch memory: RAM past the image's few words (.data and .bss, at the
 * start of RAM), clear of the stack (at the top); the 30000-byte batch fill
 * and bulk read need more than a 16 KiB RAM holds (the micro:bit's), so on
 * a RAM under 64 KiB they use the upper half of flash, which the image
 * leaves empty and QEMU lets the debugger write.
 *
 * usage: test_target_qemu QEMU FW_LOOP_ELF MACHINE FLASH_ORIGIN FLASH_LENGTH
 *                         RAM_ORIGIN RAM_LENGTH   (lengths: N, NK or NM)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "elf_sym.h"
#include "rsp/client.h"
#include "debug/endpoint.h"

#define RUN_PAUSE_NS 200000000L
#define ALTERNATIONS 40
#define BIG_SCRATCH_MIN_RAM 0x10000U
/* Unmapped on every machine here (gdb-multiarch: "Cannot access memory"). */
#define UNMAPPED_ADDRESS 0xC0000000U
/* Unmapped too, except on QEMU's nRF51 (microbit), which answers zeros
 * from 0xF0000000 up. */
#define TOP_ADDRESS 0xFFFFFFF0U

/* The board under test (argv). */
static struct {
	const char *machine;
	uint32_t flash, flash_len, ram, ram_len;
} board;

/* A number of the cross file (0x... or decimal, with K or M), or exits. */
static uint32_t board_number(const char *text)
{
	char *end = NULL;
	unsigned long v = strtoul(text, &end, 0);
	if (end != NULL && (*end == 'K' || *end == 'M')) {
		v *= *end == 'K' ? 1024UL : 1024UL * 1024UL;
		end++;
	}
	if (end == NULL || end == text || *end != '\0' || v > 0xFFFFFFFFUL) {
		fprintf(stderr, "not a number: %s\n", text);
		exit(2);
	}
	return (uint32_t)v;
}

static uint32_t sym(const char *elf_path, const char *name)
{
	return test_elf_sym_address(elf_path, name, 1);
}

static void open_qemu(br_session_t *s, const char *qemu, const char *elf)
{
	br_endpoint_t ep;
	br_endpoint_init(&ep);
	ep.launch.program = qemu;
	ep.launch.params[BR_QEMU_KEY_MACHINE] = board.machine;
	ep.launch.kernel = elf;
	br_error_t err;
	if (br_session_open(&ep, s, &err) != BR_OK) {
		fprintf(stderr, "cannot start QEMU: %s\n", err.message);
		exit(1);
	}
}

static const char *raw(br_target_t *t, const char *req, size_t *len)
{
	const char *reply = "";
	br_error_t err;
	if (rsp_client_transact(t->rsp, req, &reply, len, &err) != BR_OK) {
		fprintf(stderr, "%s: %s\n", req, err.message);
		*len = 0;
		return "";
	}
	return reply;
}

static void pause_running(void)
{
	struct timespec ts = {0, RUN_PAUSE_NS};
	nanosleep(&ts, NULL);
}

/* p before and after target.xml, on a raw client: QEMU answers nothing first. */
static void check_target_xml_before_p(const char *qemu, const char *elf)
{
	br_server_launch_t q = {.program = qemu, .kernel = elf};
	q.params[BR_QEMU_KEY_MACHINE] = board.machine;
	br_server_t server;
	rsp_transport_t tr;
	br_error_t err;
	CHECK(br_server_launch(br_server_kind_get(BR_SERVER_KIND_QEMU), &q, &server, &tr, &err) ==
	      BR_OK);
	rsp_client_t *c = rsp_client_open(&tr);
	CHECK(rsp_client_negotiate(c, &err) == BR_OK);
	const char *reply;
	size_t len = 99;
	CHECK(rsp_client_transact(c, "pf", &reply, &len, &err) == BR_OK);
	CHECK_MSG(len == 0, "QEMU answered p before target.xml: %s", reply);
	rsp_client_close(c);
	br_server_stop(&server);
}

int main(int argc, char **argv)
{
	if (argc != 8) {
		fprintf(stderr,
		        "usage: %s QEMU FW_LOOP_ELF MACHINE FLASH_ORIGIN FLASH_LENGTH RAM_ORIGIN "
		        "RAM_LENGTH\n",
		        argv[0]);
		return 2;
	}
	const char *qemu = argv[1], *elf = argv[2];
	board.machine = argv[3];
	board.flash = board_number(argv[4]);
	board.flash_len = board_number(argv[5]);
	board.ram = board_number(argv[6]);
	board.ram_len = board_number(argv[7]);
	printf("machine %s: flash 0x%08x + %u, RAM 0x%08x + %u\n", board.machine, board.flash,
	       board.flash_len, board.ram, board.ram_len);
	/* Scratch: a word, a 9000-byte fill, then 30004 bytes for batch fills
	 * and bulk reads (RAM when it has room, else flash's upper half). */
	const uint32_t word_at = board.ram + 0x1000U, fill_at = board.ram + 0x1400U;
	const uint32_t big_at = board.ram_len >= BIG_SCRATCH_MIN_RAM
	                            ? board.ram + 0x4000U
	                            : board.flash + board.flash_len / 2U;
	char m_over_cap[32];
	snprintf(m_over_cap, sizeof(m_over_cap), "m%x,801", board.flash);
	const uint32_t a = sym(elf, "br_loop_marker_a"), b = sym(elf, "br_loop_marker_b");
	const uint32_t count_addr = sym(elf, "br_loop_count");
	const br_flavour_t *fl = br_flavour_qemu();
	br_error_t err;
	size_t len = 0;

	check_target_xml_before_p(qemu, elf);

	br_session_t s;
	open_qemu(&s, qemu, elf);
	br_target_t *t = &s.target;
	CHECK(t->flavour == fl);
	/* After attach (target.xml read): registers work, xPSR has the Thumb bit. */
	br_target_regs_t regs;
	CHECK(br_target_regs_read(t, &regs, &err) == BR_OK);
	CHECK_MSG((regs.r[BR_TARGET_REG_XPSR] & (1U << 24)) != 0, "xPSR 0x%08x",
	          regs.r[BR_TARGET_REG_XPSR]);
	CHECK(t->tdesc.found[BR_TDESC_XPSR] && t->tdesc.regnum[BR_TDESC_XPSR] == fl->xpsr_regnum);

	/* m cap: QEMU refuses more than 0x800 bytes; the target splits. */
	const char *r = raw(t, m_over_cap, &len);
	CHECK_MSG(len >= 1 && r[0] == 'E', "m 0x801 answered %.8s", r);
	CHECK(fl->max_read_bytes == 0x800U);
	static uint8_t big[0x1801], part[0x800];
	CHECK(br_target_mem_read(t, board.flash, big, sizeof(big), &err) == BR_OK);
	CHECK(br_target_mem_read(t, board.flash + 0x800U, part, sizeof(part), &err) == BR_OK);
	CHECK(memcmp(big + 0x800, part, sizeof(part)) == 0);
	/* A bad address is an error, never zeros. */
	uint32_t word = 0;
	CHECK(br_target_read_u32(t, UNMAPPED_ADDRESS, &word, &err) == BR_ERR_TARGET);
	if (strcmp(board.machine, "microbit") != 0)
		CHECK(br_target_read_u32(t, TOP_ADDRESS, &word, &err) == BR_ERR_TARGET);
	else
		printf("0x%08x not read as a bad address: QEMU's nRF51 answers zeros there\n",
		       TOP_ADDRESS);

	/* No X on QEMU: the first write probes it and falls back to M. */
	CHECK(br_target_write_u32(t, word_at, 0x11223344U, &err) == BR_OK);
	CHECK(t->x_packet == 0);
	CHECK(br_target_read_u32(t, word_at, &word, &err) == BR_OK && word == 0x11223344U);

	/* A fill (the stack paint) with a marker set: every chunk and the marker
	 * read in one write, the bytes all written, none past the end. (QEMU
	 * answers OK to a write anywhere, so a refused chunk cannot be shown here.) */
	uint8_t image_word[8];
	CHECK(br_target_mem_read(t, board.flash, image_word, sizeof(image_word), &err) == BR_OK);
	br_target_set_marker(t, board.flash, image_word, sizeof(image_word));
	CHECK(br_target_write_u32(t, fill_at + 9000U, 0x5A5A5A5AU, &err) == BR_OK);
	unsigned long fill_writes = rsp_client_counters(t->rsp)->write_calls;
	CHECK(br_target_mem_fill(t, fill_at, 0xAA, 9000U, &err) == BR_OK);
	fill_writes = rsp_client_counters(t->rsp)->write_calls - fill_writes;
	CHECK_MSG(fill_writes == 1U, "a 9000-byte fill took %lu writes", fill_writes);
	static uint8_t filled[9004];
	CHECK(br_target_mem_read(t, fill_at, filled, sizeof(filled), &err) == BR_OK);
	size_t painted = 0;
	while (painted < 9000U && filled[painted] == 0xAA)
		painted++;
	CHECK_MSG(painted == 9000U, "fill: %zu of 9000 bytes hold 0xAA", painted);
	CHECK(filled[9000] == 0x5A && filled[9003] == 0x5A);

	/* No step-over: continuing from an inserted breakpoint stops at once. */
	CHECK(br_target_breakpoint_insert(t, a, BR_BREAKPOINT_SOFTWARE, &err) == BR_OK);
	CHECK(br_target_resume(t, &err) == BR_OK);
	CHECK(br_target_wait_stop(t, 5000, NULL, &err) == BR_OK);
	uint32_t pc = 0, c1 = 0, c2 = 0;
	CHECK(br_target_pc(t, &pc, &err) == BR_OK && pc == a);
	CHECK(br_target_read_u32(t, count_addr, &c1, &err) == BR_OK);
	CHECK(rsp_client_send(t->rsp, "c", 1, &err) == BR_OK); /* raw: no step-over */
	t->running = true;
	CHECK(br_target_wait_stop(t, 5000, NULL, &err) == BR_OK);
	t->pc_known = false;
	CHECK(br_target_pc(t, &pc, &err) == BR_OK && pc == a);
	CHECK(br_target_read_u32(t, count_addr, &c2, &err) == BR_OK);
	CHECK_MSG(c1 == c2, "raw continue made progress (%u -> %u)", c1, c2);
	CHECK(!fl->steps_over_breakpoints);
	/* ...and the target's resume steps over it: one more iteration. */
	CHECK(br_target_resume(t, &err) == BR_OK);
	CHECK(br_target_wait_stop(t, 5000, NULL, &err) == BR_OK);
	CHECK(br_target_read_u32(t, count_addr, &c2, &err) == BR_OK);
	CHECK_MSG(c2 == c1 + 1U, "step-over: %u -> %u", c1, c2);

	/* The pipelined batch, alternating two breakpoints: exact counts. */
	CHECK(br_target_breakpoint_insert(t, b, BR_BREAKPOINT_AUTO, &err) == BR_OK);
	CHECK(br_target_breakpoint_remove(t, a, &err) == BR_OK);
	/* Halted at a with only b inserted: the batch reads the count and goes. */
	uint32_t expect = c2;
	unsigned long writes_before = rsp_client_counters(t->rsp)->write_calls;
	for (int i = 0; i < ALTERNATIONS; i++) {
		bool at_a = i % 2 == 0;
		uint32_t here = at_a ? a : b, next = at_a ? b : a;
		uint8_t buf[4];
		br_target_batch_t batch = {
		    .read_pc = true, .reads = {{count_addr, 4, buf}}, .nreads = 1};
		uint32_t rm = here, in = next;
		if (i > 0) {
			batch.remove = &rm;
			batch.nremove = 1;
			batch.insert = &in;
			batch.ninsert = 1;
		}
		br_status_t st = br_target_resume_batch(t, &batch, &err);
		CHECK_MSG(st == BR_OK, "batch %d: %s", i, err.message);
		if (st != BR_OK)
			break;
		uint32_t v = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16 |
		             (uint32_t)buf[3] << 24;
		CHECK_MSG(batch.pc == here, "batch %d halted at 0x%08x, not 0x%08x", i, batch.pc,
		          here);
		CHECK_MSG(v == expect, "batch %d: count %u, expected %u", i, v, expect);
		if (!at_a)
			expect++;
		CHECK(br_target_wait_stop(t, 5000, NULL, &err) == BR_OK);
	}
	unsigned long writes = rsp_client_counters(t->rsp)->write_calls - writes_before;
	/* One write per halt: the stop reply's '+' leads the next batch. */
	CHECK_MSG(writes <= (unsigned long)ALTERNATIONS, "%lu writes for %d halts", writes,
	          ALTERNATIONS);
	CHECK(fl->pipelines_in_ack_mode);
	/* The inferred stop PC (one breakpoint, SIGTRAP) is the real one. */
	CHECK(fl->only_breakpoints_trap && t->pc_known);
	for (int i = 0; i < 6; i++) {
		uint32_t inferred = t->pc, real = 0;
		t->pc_known = false;
		CHECK(br_target_pc(t, &real, &err) == BR_OK);
		CHECK_MSG(real == inferred, "inferred 0x%08x, real 0x%08x", inferred, real);
		uint32_t rm = real, in = real == a ? b : a;
		br_target_batch_t batch = {
		    .remove = &rm, .nremove = 1, .insert = &in, .ninsert = 1};
		CHECK(br_target_resume_batch(t, &batch, &err) == BR_OK);
		CHECK(br_target_wait_stop(t, 5000, NULL, &err) == BR_OK && t->pc_known);
	}

	/* A fill in the batch (a breakpoint session's stack paint): in the one
	 * write with the swap and the continue; what the write cannot hold is
	 * written first, in one round of its own. Every byte painted, none past. */
	for (int k = 0; k < 2; k++) {
		size_t fill = k == 0 ? 6000U : 30000U;
		const uint32_t at = big_at;
		CHECK(br_target_write_u32(t, at + (uint32_t)fill, 0x5A5A5A5AU, &err) == BR_OK);
		uint32_t real = 0;
		CHECK(br_target_pc(t, &real, &err) == BR_OK);
		uint32_t rm = real, in = real == a ? b : a;
		br_target_batch_t batch = {.remove = &rm,
		                           .nremove = 1,
		                           .insert = &in,
		                           .ninsert = 1,
		                           .fill_address = at,
		                           .fill_value = 0xC3,
		                           .fill_len = fill};
		unsigned long w0 = rsp_client_counters(t->rsp)->write_calls;
		CHECK(br_target_resume_batch(t, &batch, &err) == BR_OK);
		unsigned long w = rsp_client_counters(t->rsp)->write_calls - w0;
		CHECK_MSG(w == (k == 0 ? 1U : 2U), "a %zu-byte fill with the resume: %lu writes",
		          fill, w);
		CHECK(br_target_wait_stop(t, 5000, NULL, &err) == BR_OK && t->pc == in);
		static uint8_t back[30004];
		CHECK(br_target_mem_read(t, at, back, fill + 4U, &err) == BR_OK);
		size_t held = 0;
		while (held < fill && back[held] == 0xC3)
			held++;
		CHECK_MSG(held == fill, "batch fill: %zu of %zu bytes hold 0xc3", held, fill);
		CHECK(back[fill] == 0x5A && back[fill + 3U] == 0x5A);
	}

	/* A bulk read in the batch (a breakpoint session's stack scan): its
	 * chunks and a marker read in the one write with the swap and the
	 * continue; what the write cannot hold is read first, in one round of its
	 * own. Every byte as written. */
	static uint8_t written[30000], got[30000];
	for (size_t i = 0; i < sizeof(written); i++)
		written[i] = (uint8_t)(i * 7U + 3U);
	CHECK(br_target_mem_write(t, big_at, written, sizeof(written), &err) == BR_OK);
	for (int k = 0; k < 2; k++) {
		size_t bulk = k == 0 ? 6000U : 30000U;
		uint32_t real = 0;
		CHECK(br_target_pc(t, &real, &err) == BR_OK);
		uint32_t rm = real, in = real == a ? b : a;
		memset(got, 0, sizeof(got));
		br_target_batch_t batch = {.remove = &rm,
		                           .nremove = 1,
		                           .insert = &in,
		                           .ninsert = 1,
		                           .bulk_address = big_at,
		                           .bulk_len = bulk,
		                           .bulk_buf = got};
		unsigned long w0 = rsp_client_counters(t->rsp)->write_calls;
		CHECK(br_target_resume_batch(t, &batch, &err) == BR_OK);
		unsigned long w = rsp_client_counters(t->rsp)->write_calls - w0;
		CHECK_MSG(w == (k == 0 ? 1U : 2U),
		          "a %zu-byte bulk read with the resume: %lu writes", bulk, w);
		CHECK(br_target_wait_stop(t, 5000, NULL, &err) == BR_OK && t->pc == in);
		CHECK_MSG(memcmp(got, written, bulk) == 0, "batch bulk read of %zu bytes differs",
		          bulk);
		CHECK(got[bulk - 1U] == written[bulk - 1U] &&
		      (bulk == sizeof(got) || got[bulk] == 0));
	}

	/* '?' clears breakpoints: with only a inserted, '?' then continue runs free. */
	CHECK(br_target_pc(t, &pc, &err) == BR_OK);
	CHECK(br_target_breakpoint_remove_all(t, &err) == BR_OK);
	CHECK(br_target_breakpoint_insert(t, a, BR_BREAKPOINT_SOFTWARE, &err) == BR_OK);
	CHECK(br_target_read_u32(t, count_addr, &c1, &err) == BR_OK);
	r = raw(t, "?", &len);
	CHECK(len > 0 && (r[0] == 'T' || r[0] == 'S'));
	CHECK(rsp_client_send(t->rsp, "c", 1, &err) == BR_OK);
	t->running = true;
	pause_running();
	CHECK(br_target_halt(t, 5000, &err) == BR_OK);
	CHECK(br_target_read_u32(t, count_addr, &c2, &err) == BR_OK);
	CHECK_MSG(c2 > c1 + 10U, "'?' kept the breakpoint (%u -> %u)", c1, c2);
	t->breakpoint_count = 0; /* the server holds none now */

	/* Comparator budget at set-up: two flash breakpoints on a 1-comparator board. */
	br_memory_map_t map;
	br_memory_map_clear(&map);
	CHECK(br_memory_map_add(&map, board.flash, board.flash_len, BR_REGION_FLASH, 0x4000U,
	                        &err) == BR_OK);
	CHECK(br_memory_map_add(&map, board.ram, board.ram_len, BR_REGION_RAM, 0, &err) == BR_OK);
	br_target_set_memory_map(t, &map);
	br_target_set_hw_breakpoint_limit(t, 1);
	uint32_t both[2] = {a, b};
	CHECK(br_target_breakpoint_kind(t, a, BR_BREAKPOINT_AUTO) == BR_BREAKPOINT_HARDWARE);
	CHECK(br_target_breakpoint_kind(t, board.ram + 0x100U, BR_BREAKPOINT_AUTO) ==
	      BR_BREAKPOINT_SOFTWARE);
	CHECK(br_target_breakpoints_check(t, both, 2, BR_BREAKPOINT_AUTO, &err) == BR_ERR_USAGE);
	CHECK(strstr(err.message, "comparators") != NULL);
	CHECK(br_target_breakpoints_check(t, both, 1, BR_BREAKPOINT_AUTO, &err) == BR_OK);
	/* Z1 behaves like Z0 on QEMU (no FPB limit is emulated). */
	CHECK(br_target_breakpoint_insert(t, a, BR_BREAKPOINT_AUTO, &err) == BR_OK);
	CHECK(br_target_hw_breakpoints_used(t) == 1);
	CHECK(br_target_resume(t, &err) == BR_OK);
	CHECK(br_target_wait_stop(t, 5000, NULL, &err) == BR_OK);
	CHECK(br_target_pc(t, &pc, &err) == BR_OK && pc == a);
	CHECK(!fl->limits_hardware_breakpoints);

	/* Reset: halted at the reset vector, breakpoints kept. */
	uint32_t reset_vector = 0;
	CHECK(br_target_read_u32(t, board.flash + 4U, &reset_vector, &err) == BR_OK);
	CHECK_MSG(br_target_reset(t, &err) == BR_OK, "%s", err.message);
	CHECK(br_target_pc(t, &pc, &err) == BR_OK);
	CHECK_MSG(pc == (reset_vector & ~1U), "after reset pc 0x%08x, vector 0x%08x", pc,
	          reset_vector);
	CHECK(br_target_resume(t, &err) == BR_OK);
	CHECK(br_target_wait_stop(t, 5000, NULL, &err) == BR_OK);
	CHECK(br_target_pc(t, &pc, &err) == BR_OK && pc == a);

	/* Load and verify (QEMU: M writes, read-back compare); a changed byte fails. */
	br_target_load_report_t rep;
	CHECK_MSG(br_target_load(t, elf, &rep, &err) == BR_OK, "%s", err.message);
	CHECK(!rep.used_flash_packets && rep.bytes > 6000U);
	CHECK_MSG(br_target_verify(t, elf, &rep, &err) == BR_OK, "%s", err.message);
	CHECK(!rep.verified_by_crc);
	uint32_t pattern = sym(elf, "br_loop_pattern");
	CHECK(br_target_write_u32(t, pattern + 100U, 0xDEADBEEFU, &err) == BR_OK);
	CHECK(br_target_verify(t, elf, &rep, &err) == BR_ERR_TARGET);
	CHECK(strstr(err.message, "differs") != NULL);

	/* Detach: plain D fails once multiprocess is negotiated; D;1 works. */
	CHECK(rsp_client_features(t->rsp)->multiprocess && fl->detach_needs_pid);
	r = raw(t, "D", &len);
	CHECK_MSG(len >= 1 && r[0] == 'E', "plain D answered %.8s", r);
	CHECK_MSG(br_target_detach(t, &err) == BR_OK, "%s", err.message);
	s.open = false;
	br_session_close(&s, false);

	/* Kill: QEMU answers W00 and exits. */
	open_qemu(&s, qemu, elf);
	CHECK(br_target_kill(&s.target, &err) == BR_OK);
	s.open = false;
	bool gone = false;
	for (int i = 0; i < 200 && !gone; i++) {
		gone = !br_server_alive(&s.server);
		if (!gone)
			pause_running();
	}
	CHECK_MSG(gone, "QEMU still running after k");
	br_session_close(&s, false);
	return check_finish();
}
