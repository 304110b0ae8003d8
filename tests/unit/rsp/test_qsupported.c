/*
 * qSupported replies: the real QEMU and OpenOCD ones, flag forms, unknown
 * features, and malformed replies that must be BR_ERR_PROTOCOL.
 */
#include "check.h"

#include "rsp/protocol.h"
#include "rsp/qsupported.h"

#include <string.h>

static rsp_features_t features;

static br_status_t parse(const char *payload)
{
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = rsp_features_parse(payload, strlen(payload), &features, &err);
	CHECK_MSG(st == err.status, "\"%s\"", payload);
	return st;
}

static void test_real_servers(void)
{
	CHECK(parse("PacketSize=1000;qXfer:features:read+;vContSupported+;multiprocess+") == BR_OK);
	CHECK(features.packet_size == 0x1000 && features.packet_size_advertised);
	CHECK(features.xfer_features && features.vcont && features.multiprocess);
	CHECK(!features.no_ack_mode && !features.xfer_memory_map && !features.xfer_threads &&
	      !features.swbreak && !features.hwbreak);

	CHECK(parse("PacketSize=4000;qXfer:memory-map:read+;qXfer:features:read+;"
	            "qXfer:threads:read+;QStartNoAckMode+;vContSupported+") == BR_OK);
	CHECK(features.packet_size == 0x4000);
	CHECK(features.xfer_memory_map && features.xfer_features && features.xfer_threads &&
	      features.no_ack_mode && features.vcont);
	CHECK(!features.multiprocess && !features.swbreak);

	/* OpenOCD without a memory map: its format prints '-' */
	CHECK(parse("PacketSize=4000;qXfer:memory-map:read-;qXfer:features:read-;"
	            "qXfer:threads:read+;QStartNoAckMode+;vContSupported+") == BR_OK);
	CHECK(!features.xfer_memory_map && !features.xfer_features && features.no_ack_mode);
}

static void test_forms(void)
{
	CHECK(parse("") == BR_OK);
	CHECK(features.packet_size == RSP_DEFAULT_PACKET_SIZE && !features.packet_size_advertised);
	CHECK(!features.no_ack_mode && !features.vcont);

	CHECK(parse("swbreak+;hwbreak+;QStartNoAckMode-;multiprocess?") == BR_OK);
	CHECK(features.swbreak && features.hwbreak && !features.no_ack_mode &&
	      !features.multiprocess);
	CHECK(parse("swbreak+;") == BR_OK && features.swbreak);          /* one trailing ';' */
	CHECK(parse("swbreak+;swbreak-") == BR_OK && !features.swbreak); /* last wins */
	CHECK(parse("foo=bar;baz+;qRelocInsn-;xmlRegisters=i386,arm;qux?") == BR_OK);
	CHECK(parse("PacketSize=1") == BR_OK && features.packet_size == 1);
	CHECK(parse("PacketSize=ffffffff") == BR_OK && features.packet_size == RSP_PAYLOAD_LIMIT);
	CHECK(parse("PacketSize=0000400") == BR_OK && features.packet_size == 0x400);
	CHECK(parse("PacketSize=1000;PacketSize=4000") == BR_OK && features.packet_size == 0x4000);
	/* the length bounds the parse, not a NUL */
	br_error_t err;
	CHECK(rsp_features_parse("swbreak+;garbage", 8, &features, &err) == BR_OK &&
	      features.swbreak);
}

static const char *const malformed[] = {
    ";",
    ";;",
    "swbreak+;;hwbreak+",
    ";swbreak+",
    "PacketSize=",
    "PacketSize=zz",
    "PacketSize=10x",
    "PacketSize=0",
    "PacketSize=100000000",
    "PacketSize=-1",
    "PacketSize+",
    "PacketSize",
    "swbreak",
    "+",
    "-",
    "=1",
    "swbreak=1",
    "QStartNoAckMode=yes",
    "vContSupported+ ",
};

static void test_malformed(void)
{
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		br_error_t err;
		br_error_clear(&err);
		br_status_t st =
		    rsp_features_parse(malformed[i], strlen(malformed[i]), &features, &err);
		CHECK_MSG(st == BR_ERR_PROTOCOL, "\"%s\" accepted", malformed[i]);
		CHECK_MSG(strstr(err.message, "malformed qSupported reply") != NULL, "\"%s\": %s",
		          malformed[i], err.message);
		char quoted[64];
		snprintf(quoted, sizeof(quoted), "\"%s\"", malformed[i]);
		CHECK_MSG(strstr(err.message, quoted) != NULL, "\"%s\" not quoted: %s",
		          malformed[i], err.message);
	}
	CHECK(rsp_features_parse("x", 1, &features, NULL) == BR_ERR_PROTOCOL);
}

int main(void)
{
	test_real_servers();
	test_forms();
	test_malformed();
	return check_finish();
}
