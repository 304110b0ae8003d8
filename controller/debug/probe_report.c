#include "debug/probe_report.h"

#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "debug/cortex_m.h"

#define PROBE_DUMP_LINE 16U
#define PROBE_CYCCNT_STEPS 3U

static void write_features(const br_target_t *t, FILE *out)
{
	const rsp_features_t *f = rsp_client_features(t->rsp);
	fprintf(out,
	        "features:   PacketSize=%zu%s, no-ack mode %s, target.xml %s, memory map %s, "
	        "multiprocess %s, vCont %s\n",
	        f->packet_size, f->packet_size_advertised ? "" : " (not advertised)",
	        rsp_client_no_ack(t->rsp) ? "on" : "not offered", f->xfer_features ? "yes" : "no",
	        f->xfer_memory_map ? "yes" : "no", f->multiprocess ? "yes" : "no",
	        f->vcont ? "yes" : "no");
}

static void write_memory_map(const br_target_t *t, FILE *out)
{
	const br_memory_map_t *m = &t->memory_map;
	if (m->count == 0) {
		fprintf(out, "memory map: none (the server offers none and no board was given)\n");
		return;
	}
	fprintf(out, "memory map: %s\n",
	        t->memory_map_from_server ? "from the server" : "from the board");
	for (size_t i = 0; i < m->count; i++) {
		const br_region_t *r = &m->regions[i];
		fprintf(out, "            %-5s 0x%08x..0x%08x (%u KiB)",
		        br_region_kind_name(r->kind), r->start,
		        (uint32_t)((uint64_t)r->start + r->length - 1U), r->length / 1024U);
		if (r->blocksize != 0U)
			fprintf(out, ", erase blocks of %u bytes", r->blocksize);
		fputc('\n', out);
	}
}

/* Probes what the server accepts beyond qSupported: binary writes, qCRC. */
static void write_packets(br_target_t *t, uint32_t address, FILE *out)
{
	br_error_t err;
	uint32_t crc = 0;
	(void)br_target_mem_crc(t, address, 4U, &crc, &err);
	uint8_t none = 0;
	(void)br_target_mem_write(t, address, &none, 0, &err);
	fprintf(out, "packets:    X %s, qCRC %s\n",
	        t->x_packet == 1   ? "accepted"
	        : t->x_packet == 0 ? "refused (M used)"
	                           : "not probed",
	        t->qcrc_packet == 1 ? "offered" : "not offered (read-back used)");
}

br_status_t br_probe_report_write(br_session_t *s, unsigned board_hw_breakpoints, FILE *out,
                                  br_error_t *err)
{
	br_target_t *t = &s->target;
	fprintf(out, "server:     %s (flavour %s)\n", s->description, t->flavour->name);
	write_features(t, out);
	br_cortex_m_info_t info;
	memset(&info, 0, sizeof(info));
	br_status_t st = br_cortex_m_identify(t, &info, err);
	if (st != BR_OK)
		return st;
	fprintf(out, "core:       %s r%up%u (CPUID 0x%08x)\n", info.core, info.variant,
	        info.revision, info.cpuid);
	write_packets(t, BR_SCB_CPUID, out);
	st = br_cortex_m_check_cyccnt(t, &info, PROBE_CYCCNT_STEPS, err);
	if (st != BR_OK)
		return st;
	fprintf(out, "DWT_CYCCNT: %s (DWT_CTRL 0x%08x, NOCYCCNT %s",
	        br_cyccnt_state_name(info.cyccnt), info.dwt_ctrl,
	        (info.dwt_ctrl & BR_DWT_CTRL_NOCYCCNT) != 0U ? "set" : "clear");
	if (info.cyccnt == BR_CYCCNT_COUNTING || info.cyccnt == BR_CYCCNT_NOT_COUNTING)
		fprintf(out, "; read %u, then %u after %u steps", info.cyccnt_before,
		        info.cyccnt_after, PROBE_CYCCNT_STEPS);
	fprintf(out, ")\n");
	fprintf(out, "FPB:        %u instruction comparators (FPB_CTRL 0x%08x)",
	        info.fpb_comparators, info.fpb_ctrl);
	if (board_hw_breakpoints > 0)
		fprintf(out, "; the board says %u", board_hw_breakpoints);
	if (!t->flavour->limits_hardware_breakpoints)
		fprintf(out, "; %s does not limit hardware breakpoints", t->flavour->description);
	fputc('\n', out);
	write_memory_map(t, out);
	return BR_OK;
}

br_status_t br_probe_dump_write(br_target_t *t, uint32_t address, uint32_t length, FILE *out,
                                br_error_t *err)
{
	uint8_t *buf = xmalloc(length);
	br_status_t st = br_target_mem_read(t, address, buf, length, err);
	for (uint32_t off = 0; st == BR_OK && off < length; off += PROBE_DUMP_LINE) {
		fprintf(out, "%08x:", address + off);
		for (uint32_t k = off; k < length && k < off + PROBE_DUMP_LINE; k++)
			fprintf(out, " %02x", buf[k]);
		fputc('\n', out);
	}
	free(buf);
	return st;
}

br_status_t br_probe_run(br_target_t *t, long run_ms, br_target_output_fn output, void *output_ctx,
                         br_probe_run_result_t *result, br_error_t *err)
{
	memset(result, 0, sizeof(*result));
	result->end = BR_PROBE_RUN_DEADLINE;
	t->output = output;
	t->output_ctx = output_ctx;
	br_status_t st = br_target_resume(t, err);
	if (st != BR_OK)
		return st;
	/* A stop before the deadline ends the run; so does the program's exit. */
	int64_t deadline = br_clock_ms() + run_ms;
	int left = br_clock_remaining_ms(deadline);
	if (left == 0)
		return br_target_halt(t, rsp_client_timeout(t->rsp), err);
	/* Wait for the whole rest at once: a wait that times out ends the
	 * session (rsp/client.h), so it is never cut into slices. */
	st = br_target_wait_stop(t, left, NULL, err);
	if (st == BR_ERR_TARGET && t->exited) {
		result->end = BR_PROBE_RUN_EXITED;
		result->exit_code = t->exit_code;
		return BR_OK;
	}
	if (st == BR_ERR_TIMEOUT) /* still running at the deadline: what was asked */
		return BR_OK;
	if (st != BR_OK)
		return st;
	result->end = BR_PROBE_RUN_STOPPED;
	return br_target_pc(t, &result->pc, err);
}
