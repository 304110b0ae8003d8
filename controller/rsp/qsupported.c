#include "rsp/qsupported.h"

#include "rsp/hex.h"
#include "rsp/protocol.h"
#include "rsp/quote.h"

#include <stdint.h>
#include <string.h>

#define FEATURE_PACKET_SIZE "PacketSize"

static const rsp_feature_flag_t feature_flags[] = {
    {"QStartNoAckMode", offsetof(rsp_features_t, no_ack_mode)},
    {"qXfer:features:read", offsetof(rsp_features_t, xfer_features)},
    {"qXfer:memory-map:read", offsetof(rsp_features_t, xfer_memory_map)},
    {"qXfer:threads:read", offsetof(rsp_features_t, xfer_threads)},
    {"multiprocess", offsetof(rsp_features_t, multiprocess)},
    {"vContSupported", offsetof(rsp_features_t, vcont)},
    {"swbreak", offsetof(rsp_features_t, swbreak)},
    {"hwbreak", offsetof(rsp_features_t, hwbreak)},
};

const rsp_feature_flag_t *rsp_feature_flags_list(size_t *count)
{
	*count = sizeof(feature_flags) / sizeof(feature_flags[0]);
	return feature_flags;
}

/* The parse in progress: the whole payload (for error quotes) and the error. */
typedef struct feature_parse {
	const char *payload;
	size_t len;
	rsp_features_t *out;
	br_error_t *err;
} feature_parse_t;

static br_status_t feature_malformed(const feature_parse_t *ctx, const char *what,
                                     const char *entry, size_t entry_len)
{
	char quote_entry[RSP_QUOTE_BUFFER_BYTES];
	char quote_all[RSP_QUOTE_BUFFER_BYTES];
	rsp_quote(entry, entry_len, quote_entry, sizeof(quote_entry));
	rsp_quote(ctx->payload, ctx->len, quote_all, sizeof(quote_all));
	return br_error_set(ctx->err, BR_ERR_PROTOCOL, "malformed qSupported reply (%s at %s): %s",
	                    what, quote_entry, quote_all);
}

static bool feature_name_is(const char *name, size_t name_len, const char *word)
{
	return strlen(word) == name_len && memcmp(name, word, name_len) == 0;
}

static const rsp_feature_flag_t *feature_flag_find(const char *name, size_t name_len)
{
	for (size_t i = 0; i < sizeof(feature_flags) / sizeof(feature_flags[0]); i++) {
		if (feature_name_is(name, name_len, feature_flags[i].name))
			return &feature_flags[i];
	}
	return NULL;
}

/* "PacketSize=hex". */
static br_status_t feature_packet_size(const feature_parse_t *ctx, const char *entry,
                                       size_t entry_len, const char *value, const char *value_end)
{
	uint32_t size;
	const char *p = value;
	if (!rsp_hex_u32(&p, value_end, &size) || p != value_end || size == 0)
		return feature_malformed(ctx, "PacketSize is not a non-zero hex number", entry,
		                         entry_len);
	ctx->out->packet_size = size > RSP_PAYLOAD_LIMIT ? RSP_PAYLOAD_LIMIT : size;
	ctx->out->packet_size_advertised = true;
	return BR_OK;
}

/* One entry between separators. */
static br_status_t feature_entry(const feature_parse_t *ctx, const char *entry, size_t entry_len)
{
	if (entry_len == 0)
		return feature_malformed(ctx, "empty entry", entry, entry_len);
	const char *end = entry + entry_len;
	const char *equals = memchr(entry, RSP_FEATURE_VALUE, entry_len);
	if (equals != NULL) {
		size_t name_len = (size_t)(equals - entry);
		if (name_len == 0)
			return feature_malformed(ctx, "entry without a name", entry, entry_len);
		if (feature_name_is(entry, name_len, FEATURE_PACKET_SIZE))
			return feature_packet_size(ctx, entry, entry_len, equals + 1, end);
		if (feature_flag_find(entry, name_len) != NULL)
			return feature_malformed(ctx, "a flag given a value", entry, entry_len);
		return BR_OK; /* an unknown "name=value" */
	}
	char marker = end[-1];
	if (marker != RSP_FEATURE_SUPPORTED && marker != RSP_FEATURE_UNSUPPORTED &&
	    marker != RSP_FEATURE_PROBE)
		return feature_malformed(ctx, "entry without '+', '-', '?' or '='", entry,
		                         entry_len);
	size_t name_len = entry_len - 1;
	if (name_len == 0)
		return feature_malformed(ctx, "entry without a name", entry, entry_len);
	if (feature_name_is(entry, name_len, FEATURE_PACKET_SIZE))
		return feature_malformed(ctx, "PacketSize without a value", entry, entry_len);
	const rsp_feature_flag_t *flag = feature_flag_find(entry, name_len);
	if (flag != NULL) {
		bool *field = (bool *)((char *)ctx->out + flag->offset);
		*field = marker == RSP_FEATURE_SUPPORTED;
	}
	return BR_OK;
}

void rsp_features_init(rsp_features_t *features)
{
	memset(features, 0, sizeof(*features));
	features->packet_size = RSP_DEFAULT_PACKET_SIZE;
}

br_status_t rsp_features_parse(const char *payload, size_t len, rsp_features_t *out,
                               br_error_t *err)
{
	const feature_parse_t ctx = {payload, len, out, err};
	rsp_features_init(out);
	const char *p = payload;
	const char *end = payload + len;
	while (p < end) {
		const char *sep = memchr(p, RSP_LIST_SEPARATOR, (size_t)(end - p));
		const char *entry_end = sep != NULL ? sep : end;
		br_status_t st = feature_entry(&ctx, p, (size_t)(entry_end - p));
		if (st != BR_OK)
			return st;
		p = sep != NULL ? sep + 1 : end;
	}
	return BR_OK;
}
