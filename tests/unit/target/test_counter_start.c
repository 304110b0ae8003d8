/*
 * Host-started counters on a real board (measure/counter_target.h) against a
 * fake gdb server — no board is attached here, so a child process on a
 * socketpair plays an OpenOCD in front of a Cortex-M's DEMCR, DWT_CTRL,
 * DWT_LAR and SysTick, written as the ARMv7-M ARM says (C1.6.5 DEMCR.TRCENA
 * gates the DWT: its writes are ignored while TRCENA is clear; C1.8.7
 * DWT_CTRL.CYCCNTENA, NOCYCCNT; B3.3 SysTick):
 *
 * - an unmodified firmware's Cortex-M4: TRCENA set, then CYCCNTENA, each
 *   read-modify-write (DWT_CTRL's NUMCOMP bits kept), two writes made;
 * - a firmware that runs the cycle counter itself: nothing written;
 * - a DWT with no cycle counter (NOCYCCNT set): BR_ERR_USAGE naming
 *   NOCYCCNT and what to name instead;
 * - a locked DWT (a Cortex-M7 whose DWT_LAR was not written: the board file
 *   said cortex-m4): BR_ERR_TARGET saying the enable did not take; with the
 *   unlock (core m7) it counts;
 * - SysTick: reload set to 2^24 - 1, enabled on the processor clock.
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
#include "fake_rsp.h"
#include "measure/counter_target.h"

#define DEMCR 0xE000EDFCU
#define TRCENA (1U << 24)
#define DWT_CTRL 0xE0001000U
#define CYCCNTENA 1U
#define NOCYCCNT (1U << 25)
#define NUMCOMP_4 0x40000000U
#define DWT_LAR 0xE0001FB0U
#define LAR_KEY 0xC5ACCE55U
#define SYST_CSR 0xE000E010U
#define SYST_RVR 0xE000E014U
#define SYST_CVR 0xE000E018U

typedef struct fake {
	uint32_t demcr, dwt_ctrl, csr, rvr, cvr, lar;
	bool locked; /* DWT writes ignored until DWT_LAR gets the key */
} fake_t;

/* What the fake's registers held at the end, through a pipe. */
static int report_fd = -1;

static uint32_t *reg(fake_t *f, uint32_t address)
{
	switch (address) {
	case DEMCR:
		return &f->demcr;
	case DWT_CTRL:
		return &f->dwt_ctrl;
	case SYST_CSR:
		return &f->csr;
	case SYST_RVR:
		return &f->rvr;
	case SYST_CVR:
		return &f->cvr;
	case DWT_LAR:
		return &f->lar; /* write-only: reads 0, the key is not kept */
	default:
		return NULL;
	}
}

static void serve(int fd, fake_t f)
{
	char pkt[256];
	unsigned writes = 0;
	while (fake_rsp_read(fd, pkt, sizeof(pkt)) == 0) {
		unsigned a = 0, b[4] = {0};
		uint32_t *r = NULL;
		if (fake_rsp_attach_answer(fd, pkt) != 0) {
			continue;
		} else if (sscanf(pkt, "m%x,4", &a) == 1 && (r = reg(&f, a)) != NULL) {
			fake_rsp_send_word(fd, *r);
		} else if (sscanf(pkt, "M%x,4:%2x%2x%2x%2x", &a, &b[0], &b[1], &b[2], &b[3]) == 5) {
			uint32_t v = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
			writes++;
			if (a == DWT_LAR && v == LAR_KEY)
				f.locked = false;
			if (a == DWT_LAR || a == SYST_CVR)
				v = 0; /* LAR reads 0; a write to CVR clears it */
			bool dwt = a == DWT_CTRL;
			if (dwt && (f.locked || !(f.demcr & TRCENA)))
				v = f.dwt_ctrl; /* ignored */
			if (dwt && (f.dwt_ctrl & NOCYCCNT))
				v = (v & ~CYCCNTENA) | NOCYCCNT; /* no counter to enable */
			if (dwt)
				v = (v & ~0xF0000000U) |
				    (f.dwt_ctrl & 0xF0000000U); /* NUMCOMP: RO */
			r = reg(&f, a);
			if (r != NULL)
				*r = v;
			fake_rsp_send(fd, "OK");
		} else {
			fake_rsp_send(fd, "");
		}
	}
	uint32_t out[5] = {f.demcr, f.dwt_ctrl, f.csr, f.rvr, writes};
	if (write(report_fd, out, sizeof(out)) != (ssize_t)sizeof(out))
		_exit(FAKE_RSP_BROKEN);
	_exit(0);
}

typedef struct outcome {
	br_status_t st;
	br_error_t err;
	br_counter_state_t state;
	uint32_t demcr, dwt_ctrl, csr, rvr, writes;
} outcome_t;

static void start_on(const fake_t *f, const br_counter_t *c, outcome_t *o)
{
	fake_rsp_fork_t fk = fake_rsp_fork();
	if (fk.pid == 0) {
		report_fd = fk.report_fd;
		serve(fk.fd, *f);
	}
	rsp_transport_t tr = {.fd = fk.fd, .kind = RSP_TRANSPORT_SERIAL};
	snprintf(tr.peer, sizeof(tr.peer), "fake-openocd");
	static br_target_t t;
	br_error_clear(&o->err);
	if (br_target_attach(&t, &tr, br_flavour_openocd(), &o->err) != BR_OK) {
		fprintf(stderr, "attach: %s\n", o->err.message);
		exit(99);
	}
	o->st = br_counter_start(&t, c, &o->state, &o->err);
	br_target_close(&t);
	uint32_t got[5] = {0};
	if (read(fk.report_fd, got, sizeof(got)) != (ssize_t)sizeof(got))
		fprintf(stderr, "the fake reported nothing\n");
	close(fk.report_fd);
	waitpid(fk.pid, NULL, 0);
	o->demcr = got[0];
	o->dwt_ctrl = got[1];
	o->csr = got[2];
	o->rvr = got[3];
	o->writes = got[4];
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	br_counter_t dwt, dwt_m7, systick;
	br_counter_dwt(&dwt, 180000000U, false);
	br_counter_dwt(&dwt_m7, 216000000U, true);
	br_counter_systick(&systick, 16000000U);
	outcome_t o;

	fake_t m4 = {.dwt_ctrl = NUMCOMP_4};
	start_on(&m4, &dwt, &o);
	CHECK_MSG(o.st == BR_OK, "%s", o.err.message);
	CHECK_MSG(o.demcr == TRCENA && o.dwt_ctrl == (NUMCOMP_4 | CYCCNTENA),
	          "TRCENA, then CYCCNTENA with NUMCOMP kept: DEMCR 0x%08x DWT_CTRL 0x%08x", o.demcr,
	          o.dwt_ctrl);
	CHECK_MSG(o.state.writes_made == 2 && o.writes == 2, "two writes: %zu, %u",
	          o.state.writes_made, o.writes);

	fake_t running = {.demcr = TRCENA, .dwt_ctrl = NUMCOMP_4 | CYCCNTENA};
	start_on(&running, &dwt, &o);
	CHECK_MSG(o.st == BR_OK && o.writes == 0 && o.state.writes_made == 0,
	          "the firmware's own counter left alone: %u writes (%s)", o.writes, o.err.message);

	fake_t nocyc = {.dwt_ctrl = NUMCOMP_4 | NOCYCCNT};
	start_on(&nocyc, &dwt, &o);
	CHECK_MSG(o.st == BR_ERR_USAGE && strstr(o.err.message, "NOCYCCNT") != NULL &&
	              strstr(o.err.message, "systick") != NULL,
	          "no cycle counter: %s", o.err.message);

	fake_t locked = {.dwt_ctrl = NUMCOMP_4, .locked = true};
	start_on(&locked, &dwt, &o);
	CHECK_MSG(o.st == BR_ERR_TARGET && strstr(o.err.message, "did not take") != NULL &&
	              strstr(o.err.message, "0xe0001000") != NULL,
	          "locked: %s", o.err.message);
	start_on(&locked, &dwt_m7, &o);
	CHECK_MSG(o.st == BR_OK && (o.dwt_ctrl & CYCCNTENA) != 0, "unlocked (m7): %s",
	          o.err.message);

	fake_t st = {0};
	start_on(&st, &systick, &o);
	CHECK_MSG(o.st == BR_OK && o.rvr == 0x00FFFFFFU && (o.csr & 5U) == 5U,
	          "SysTick: RVR 0x%08x, CSR 0x%08x (%s)", o.rvr, o.csr, o.err.message);
	CHECK(o.state.period == 0x01000000U);
	return check_finish();
}
