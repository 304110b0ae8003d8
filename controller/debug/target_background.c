/*
 * The core running in the background while memory is read
 * (debug/target_background.h).
 */
#include "debug/target_background.h"

#include <stdio.h>
#include <string.h>

#include "debug/target_private.h"

/* m e000101c,4: the longest request this file sends, framed. */
#define BACKGROUND_REQUEST_BYTES 24U

bool br_target_background_supported(const br_target_t *t)
{
	return t->flavour->background_run_command != NULL &&
	       t->flavour->background_halt_command != NULL;
}

br_status_t br_target_background_run(br_target_t *t, br_error_t *err)
{
	if (!br_target_background_supported(t))
		return br_error_set(err, BR_ERR_USAGE,
		                    "%s cannot let the core run while its memory is read",
		                    t->flavour->description);
	return br_target_monitor(t, t->flavour->background_run_command, NULL, 0, err);
}

br_status_t br_target_background_halt(br_target_t *t, br_error_t *err)
{
	if (!br_target_background_supported(t))
		return br_error_set(err, BR_ERR_USAGE, "%s has no background run to halt",
		                    t->flavour->description);
	return br_target_monitor(t, t->flavour->background_halt_command, NULL, 0, err);
}

/* One word from an m reply; E nn is a read not answered, not an error. */
static br_status_t decode_word(const char *reply, size_t len, uint32_t address, uint32_t *value,
                               bool *ok, br_error_t *err)
{
	uint8_t bytes[4];
	*ok = false;
	*value = 0;
	if (len == 3U && reply[0] == 'E')
		return BR_OK;
	br_status_t st = br_target_read_reply(reply, len, address, sizeof(bytes), bytes, err);
	if (st != BR_OK)
		return st;
	*value = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
	         (uint32_t)bytes[3] << 24;
	*ok = true;
	return BR_OK;
}

typedef struct background_reads {
	uint32_t address;
	uint32_t *values;
	bool *ok;
} background_reads_t;

static br_status_t on_reply(void *ctx, size_t index, const char *reply, size_t len, br_error_t *err)
{
	background_reads_t *r = ctx;
	return decode_word(reply, len, r->address, &r->values[index], &r->ok[index], err);
}

br_status_t br_target_background_read_u32s(br_target_t *t, uint32_t address, uint32_t *values,
                                           bool *ok, size_t n, br_error_t *err)
{
	if (n == 0 || n > BR_TARGET_BACKGROUND_READS_MAX)
		return br_error_set(err, BR_ERR_USAGE, "1 to %u reads at a time",
		                    BR_TARGET_BACKGROUND_READS_MAX);
	char packet[BACKGROUND_REQUEST_BYTES];
	br_target_read_packet(packet, sizeof(packet), address, 4U);
	if (!(rsp_client_no_ack(t->rsp) || t->flavour->pipelines_in_ack_mode)) {
		for (size_t i = 0; i < n; i++) {
			const char *reply;
			size_t len;
			br_status_t st = rsp_client_transact(t->rsp, packet, &reply, &len, err);
			if (st == BR_OK)
				st = decode_word(reply, len, address, &values[i], &ok[i], err);
			if (st != BR_OK)
				return st;
		}
		return BR_OK;
	}
	const char *requests[BR_TARGET_BACKGROUND_READS_MAX];
	for (size_t i = 0; i < n; i++)
		requests[i] = packet;
	background_reads_t ctx = {address, values, ok};
	return rsp_client_pipeline_each(t->rsp, requests, n, false, on_reply, &ctx, err);
}
