/*
 * Parsing the reply to 'qSupported' (GDB manual, General Query Packets): a
 * ';'-separated list of "name=value", "name+" (supported), "name-" (not
 * supported) and "name?" (maybe: probe before use, taken here as not
 * supported). Examples:
 *
 *	QEMU 7.2:     PacketSize=1000;qXfer:features:read+;vContSupported+;multiprocess+
 *	OpenOCD 0.12: PacketSize=4000;qXfer:memory-map:read+;qXfer:features:read+;
 *	              qXfer:threads:read+;QStartNoAckMode+;vContSupported+
 *
 * Unknown features are ignored; an empty reply (qSupported not understood)
 * is valid and leaves every feature off.
 *
 * (Not named features.h: glibc's own headers include <features.h>, and a
 * compiler search path holding this folder would find this file instead.)
 */
#ifndef BENCHRACK_RSP_QSUPPORTED_H
#define BENCHRACK_RSP_QSUPPORTED_H

#include "common/error.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct rsp_features {
	/* PacketSize: the largest packet payload, in bytes, the server accepts
	 * (hex in the reply). RSP_DEFAULT_PACKET_SIZE when not advertised. Note
	 * QEMU drops a packet of PacketSize characters or more: send less. */
	size_t packet_size;
	bool packet_size_advertised;
	bool no_ack_mode;     /* QStartNoAckMode+ */
	bool xfer_features;   /* qXfer:features:read+ (target.xml) */
	bool xfer_memory_map; /* qXfer:memory-map:read+ (flash regions) */
	bool xfer_threads;    /* qXfer:threads:read+ */
	bool multiprocess;    /* multiprocess+ ("D;pid", "p<pid>.<tid>") */
	bool vcont;           /* vContSupported+ */
	bool swbreak;         /* swbreak+ (stop reason) */
	bool hwbreak;         /* hwbreak+ (stop reason) */
} rsp_features_t;

/* A "name+" feature and the flag of rsp_features_t it sets. */
typedef struct rsp_feature_flag {
	const char *name; /* as in the reply, e.g. "QStartNoAckMode" */
	size_t offset;    /* of the bool in rsp_features_t */
} rsp_feature_flag_t;

/*
 * The table of every flag of rsp_features_t with its qSupported name (static,
 * never freed); *count receives how many there are.
 */
const rsp_feature_flag_t *rsp_feature_flags_list(size_t *count);

/* Sets every feature off and packet_size to RSP_DEFAULT_PACKET_SIZE. */
void rsp_features_init(rsp_features_t *features);

/*
 * Parses len bytes of a qSupported reply payload (not necessarily
 * NUL-terminated) into *out, which is initialised first and owned by the
 * caller. Returns BR_OK, or BR_ERR_PROTOCOL with err naming the bad entry and
 * quoting a bounded, escaped prefix of the payload: an empty entry (";;"), an
 * entry with no name or no '+', '-', '?' or '=', a known flag given a value, a
 * PacketSize that is not a non-zero 32-bit hex number. A PacketSize above
 * RSP_PAYLOAD_LIMIT is clamped to it. A single trailing ';' is accepted.
 */
br_status_t rsp_features_parse(const char *payload, size_t len, rsp_features_t *out,
                               br_error_t *err);

#endif
