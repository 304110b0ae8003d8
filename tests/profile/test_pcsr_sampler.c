/*
 * DWT_PCSR sampling (profile/pcsr_sampler.h) against a fake server — no
 * board with a DWT is attached to any machine here, so a child process on a
 * socketpair plays an OpenOCD gdb server in front of a Cortex-M that runs:
 * CPUID, FPB_CTRL, DWT_CTRL, DEMCR (read and written), `monitor resume` and
 * `monitor halt` (qRcmd), and DWT_PCSR, which answers 0xFFFFFFFF while the
 * core is halted and a scripted sequence of PCs while it runs.
 *
 * - paced by a rate: one read per write, never more reads than the rate asks;
 * - a Cortex-M4 whose PCSR script is 5 reads in profile_leaf_long, 2 in
 *   profile_leaf_short and one 0xFFFFFFFF per 8: the flat profile counts
 *   exactly 5:2 of the counted samples, one lost per 8 taken, every chain a
 *   single frame; TRCENA was set, the core resumed and halted again, no
 *   PCSR read while halted;
 * - DWT_PCSR reading 0: refused (no PC sampling), the core halted again;
 * - DWT_PCSR reading only 0xFFFFFFFF: refused, saying so;
 * - a Cortex-M0 built without a DWT (NUMCOMP 0): refused before it runs;
 * - the QEMU flavour: refused (BR_ERR_USAGE) with not one packet sent.
 *
 * usage: test_pcsr_sampler PROFILE_ELF
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "debug/flavour.h"
#include "debug/target.h"
#include "elf_sym.h"
#include "fake_rsp.h"
#include "profile/format.h"
#include "profile/pcsr_sampler.h"

#define CPUID_M4 0x410FC241U
#define CPUID_M0 0x410CC200U
#define DWT_CTRL_4_COMPARATORS 0x40000000U
#define SCRIPT_LEN 8U
#define PCSR_ERROR_READ 0xEEEEEEEEU /* in a script: answer E01 */

/* Exit bits of the fake: what it saw. */
enum {
	SAW_TRCENA = 1, /* DEMCR written with TRCENA */
	SAW_RESUME = 2, /* monitor resume */
	SAW_HALT = 4,   /* monitor halt after it */
	SAW_PACKET_AFTER_ATTACH = 8,
	SAW_PCSR_WHILE_HALTED = 16,
	FAKE_BROKEN = 64,
};

typedef struct fake {
	uint32_t cpuid, dwt_ctrl;
	uint32_t script[SCRIPT_LEN]; /* DWT_PCSR while running, cycled */
} fake_t;

/* "resume" and "halt", hex-encoded as qRcmd carries them. */
#define QRCMD_RESUME "qRcmd,726573756d65"
#define QRCMD_HALT "qRcmd,68616c74"

static void serve(int fd, const fake_t *f)
{
	int saw = 0;
	bool running = false, attached = false;
	uint32_t demcr = 0;
	size_t next = 0;
	char pkt[256];
	while (fake_rsp_read(fd, pkt, sizeof(pkt)) == 0) {
		if (attached)
			saw |= SAW_PACKET_AFTER_ATTACH;
		int answered = fake_rsp_attach_answer(fd, pkt);
		if (answered != 0) {
			attached = attached || answered == 2;
		} else if (strcmp(pkt, "me000ed00,4") == 0) {
			fake_rsp_send_word(fd, f->cpuid);
		} else if (strcmp(pkt, "me0002000,4") == 0) {
			fake_rsp_send_word(fd, 0x00000261U);
		} else if (strcmp(pkt, "me0001000,4") == 0) {
			fake_rsp_send_word(fd, f->dwt_ctrl);
		} else if (strcmp(pkt, "me000edfc,4") == 0) {
			fake_rsp_send_word(fd, demcr);
		} else if (strncmp(pkt, "Me000edfc,4:", 12) == 0) {
			unsigned b[4] = {0};
			sscanf(pkt + 12, "%2x%2x%2x%2x", &b[0], &b[1], &b[2], &b[3]);
			demcr = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
			if (demcr & (1U << 24))
				saw |= SAW_TRCENA;
			fake_rsp_send(fd, "OK");
		} else if (strcmp(pkt, QRCMD_RESUME) == 0) {
			running = true;
			saw |= SAW_RESUME;
			fake_rsp_send(fd, "OK");
		} else if (strcmp(pkt, QRCMD_HALT) == 0) {
			if (running)
				saw |= SAW_HALT;
			running = false;
			fake_rsp_send(fd, "OK");
		} else if (strcmp(pkt, "me000101c,4") == 0) {
			if (!running) {
				saw |= SAW_PCSR_WHILE_HALTED;
				fake_rsp_send_word(fd, 0xFFFFFFFFU);
				continue;
			}
			uint32_t v = f->script[next++ % SCRIPT_LEN];
			if (v == PCSR_ERROR_READ)
				fake_rsp_send(fd, "E01");
			else
				fake_rsp_send_word(fd, v);
		} else {
			fake_rsp_send(fd, "");
		}
	}
	_exit(saw);
}

/* A target attached to a fake as f says (flavour fl); the fake's pid. */
static pid_t start(br_target_t *t, const fake_t *f, const br_flavour_t *fl)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		exit(99);
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		serve(sv[1], f);
	}
	close(sv[1]);
	fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
	rsp_transport_t tr = {.fd = sv[0], .kind = RSP_TRANSPORT_SERIAL};
	snprintf(tr.peer, sizeof(tr.peer), "fake-openocd");
	br_error_t err;
	if (br_target_attach(t, &tr, fl, &err) != BR_OK) {
		fprintf(stderr, "attach: %s\n", err.message);
		exit(99);
	}
	return pid;
}

static int finish(br_target_t *t, pid_t pid)
{
	br_target_close(t);
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : FAKE_BROKEN;
}

/* Samples for a short while; the status, out filled, the message in err. */
static br_status_t sample(br_target_t *t, br_elf_t *elf, br_profile_t *out, br_error_t *err)
{
	br_profile_data_init(out, BR_PROFILE_SAMPLED);
	br_pcsr_options_t o = {.elf = elf, .duration_s = 0.2, .rate_hz = 0};
	return br_pcsr_sample(t, &o, out, err);
}

static uint64_t self_of(const br_profile_t *p, const char *name)
{
	uint64_t *self = calloc(p->nframes + 1U, sizeof(*self));
	uint64_t *total = calloc(p->nframes + 1U, sizeof(*total));
	br_profile_frame_counts(p, self, total);
	uint64_t n = 0;
	for (size_t i = 0; i < p->nframes; i++)
		if (strcmp(p->frames[i].name, name) == 0)
			n = self[i];
	free(self);
	free(total);
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_pcsr_sampler PROFILE_ELF\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	uint32_t lng = test_elf_sym_address(argv[1], "profile_leaf_long", 2) + 2U;
	uint32_t sht = test_elf_sym_address(argv[1], "profile_leaf_short", 2) + 2U;
	br_elf_t *elf = NULL;
	br_error_t err;
	if (br_elf_open(argv[1], &elf, &err) != BR_OK) {
		fprintf(stderr, "%s\n", err.message);
		return 2;
	}
	br_target_t t;
	br_profile_t p;

	/* A Cortex-M4 that runs: 5 long, 2 short, 1 not sampled per 8 reads. */
	fake_t m4 = {
	    CPUID_M4, DWT_CTRL_4_COMPARATORS, {lng, lng, sht, lng, 0xFFFFFFFFU, lng, sht, lng}};
	pid_t pid = start(&t, &m4, br_flavour_openocd());
	br_status_t st = sample(&t, elf, &p, &err);
	CHECK_MSG(st == BR_OK, "%s", err.message);
	uint64_t l = self_of(&p, "profile_leaf_long"), s = self_of(&p, "profile_leaf_short");
	CHECK_MSG(p.counted > 0 && l * 2U == s * 5U, "long %lu : short %lu is 5 : 2",
	          (unsigned long)l, (unsigned long)s);
	CHECK_MSG(p.counted == l + s, "counted %lu = long + short", (unsigned long)p.counted);
	CHECK_MSG(p.samples_taken == p.counted + p.samples_lost &&
	              p.samples_lost * 8U == p.samples_taken,
	          "taken %lu, lost %lu: one in 8", (unsigned long)p.samples_taken,
	          (unsigned long)p.samples_lost);
	bool flat = p.nchains > 0;
	for (size_t i = 0; i < p.nchains; i++)
		flat = flat && p.chains[i].depth == 1U;
	CHECK_MSG(flat, "every chain is one frame (%zu chains)", p.nchains);
	CHECK(p.unwind.cfi == 0 && p.unwind.failed_chains == 0);
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = open_memstream(&text, &text_len);
	br_profile_write_table(mem, &p);
	br_profile_write_json(mem, &p, "test");
	fclose(mem);
	CHECK_MSG(strstr(text, "flat: PCs read from DWT_PCSR") != NULL &&
	              strstr(text, "\"dwt_pcsr\"") != NULL && strstr(text, "call chains:") == NULL,
	          "the table and the record say flat, from DWT_PCSR:\n%s", text);
	free(text);
	int saw = finish(&t, pid);
	CHECK_MSG(saw == (SAW_TRCENA | SAW_RESUME | SAW_HALT | SAW_PACKET_AFTER_ATTACH),
	          "the fake saw 0x%x: TRCENA set, resumed, halted, no PCSR read while halted", saw);
	br_profile_data_free(&p);

	/* Paced (--rate 500 for 0.2 s): one read per write, never faster than asked. */
	pid = start(&t, &m4, br_flavour_openocd());
	br_profile_data_init(&p, BR_PROFILE_SAMPLED);
	br_pcsr_options_t paced = {.elf = elf, .duration_s = 0.2, .rate_hz = 500};
	st = br_pcsr_sample(&t, &paced, &p, &err);
	CHECK_MSG(st == BR_OK && p.samples_taken >= 1U && p.samples_taken <= 130U &&
	              p.server_writes == p.samples_taken,
	          "paced: %lu reads in %lu writes (at most 0.2 s x 500 / 0.8): %s",
	          (unsigned long)p.samples_taken, (unsigned long)p.server_writes,
	          st == BR_OK ? "ok" : err.message);
	finish(&t, pid);
	br_profile_data_free(&p);

	/* A wrapped error read counts as lost, not as an error. */
	fake_t errs = {
	    CPUID_M4, DWT_CTRL_4_COMPARATORS, {lng, PCSR_ERROR_READ, lng, lng, sht, lng, sht, lng}};
	pid = start(&t, &errs, br_flavour_openocd());
	st = sample(&t, elf, &p, &err);
	CHECK_MSG(st == BR_OK && p.samples_lost * 8U == p.samples_taken, "E01 reads lost: %s",
	          st == BR_OK ? "ok" : err.message);
	finish(&t, pid);
	br_profile_data_free(&p);

	/* DWT_PCSR reads 0: no PC sampling here. */
	fake_t zero = {CPUID_M4, DWT_CTRL_4_COMPARATORS, {0}};
	pid = start(&t, &zero, br_flavour_openocd());
	st = sample(&t, elf, &p, &err);
	CHECK_MSG(st == BR_ERR_TARGET && strstr(err.message, "reads 0") != NULL, "zero: %s",
	          err.message);
	saw = finish(&t, pid);
	CHECK_MSG((saw & SAW_HALT) != 0 && p.counted == 0, "halted again after refusing (0x%x)",
	          saw);
	br_profile_data_free(&p);

	/* Only 0xFFFFFFFF: never a sampled PC. */
	fake_t never = {CPUID_M4, DWT_CTRL_4_COMPARATORS, {0}};
	for (unsigned i = 0; i < SCRIPT_LEN; i++)
		never.script[i] = 0xFFFFFFFFU;
	pid = start(&t, &never, br_flavour_openocd());
	st = sample(&t, elf, &p, &err);
	CHECK_MSG(st == BR_ERR_TARGET && strstr(err.message, "0xFFFFFFFF") != NULL, "never: %s",
	          err.message);
	finish(&t, pid);
	br_profile_data_free(&p);

	/* A Cortex-M0 without a DWT: refused before it runs. */
	fake_t m0 = {CPUID_M0, 0, {lng}};
	pid = start(&t, &m0, br_flavour_openocd());
	st = sample(&t, elf, &p, &err);
	CHECK_MSG(st == BR_ERR_TARGET && strstr(err.message, "Cortex-M0") != NULL &&
	              strstr(err.message, "without a DWT") != NULL,
	          "M0: %s", err.message);
	saw = finish(&t, pid);
	CHECK_MSG((saw & SAW_RESUME) == 0, "the M0 was never resumed (0x%x)", saw);
	br_profile_data_free(&p);

	/* QEMU: refused, nothing sent. */
	pid = start(&t, &m4, br_flavour_qemu());
	st = sample(&t, elf, &p, &err);
	CHECK_MSG(st == BR_ERR_USAGE && strstr(err.message, "QEMU") != NULL, "qemu: %s",
	          err.message);
	saw = finish(&t, pid);
	CHECK_MSG(saw == 0, "not one packet after attaching (0x%x)", saw);
	br_profile_data_free(&p);

	br_elf_close(elf);
	return check_finish();
}
