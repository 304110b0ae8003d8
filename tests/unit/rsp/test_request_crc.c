/*
 * Tables for rsp/request.c (which requests may be sent twice, which resume)
 * and rsp/crc32.c (qCRC's checksum, against values from a real OpenOCD).
 */
#include <string.h>

#include "check.h"
#include "rsp/crc32.h"
#include "rsp/request.h"

typedef struct request_case {
	const char *payload;
	bool replayable;
	bool resumes;
} request_case_t;

static const request_case_t requests[] = {
    {"m8000000,4", true, false},
    {"M20000000,4:01020304", true, false},
    {"X20000000,0:", true, false},
    {"pf", true, false},
    {"P19=00000001", true, false},
    {"g", true, false},
    {"Z0,8000100,2", true, false},
    {"z1,8000100,2", true, false},
    {"Hg0", true, false},
    {"qXfer:features:read:target.xml:0,7f0", true, false},
    {"qXfer:memory-map:read::0,7f0", true, false},
    {"qXfer:features:write:x:0,1", false, false},
    {"qCRC:8000000,100", true, false},
    {"qSupported:swbreak+", true, false},
    {"qRcmd,7265736574", false, false},
    {"QStartNoAckMode", false, false},
    {"?", false, false},
    {"c", false, true},
    {"s", false, true},
    {"C05", false, true},
    {"vCont;c", false, true},
    {"vCont?", false, false},
    {"F1c", false, true},
    {"vFlashErase:8000000,4000", false, false},
    {"vFlashDone", false, false},
    {"D;1", false, false},
    {"k", false, false},
    {"R00", false, false},
    {"", false, false},
};

int main(void)
{
	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
		const request_case_t *r = &requests[i];
		size_t len = strlen(r->payload);
		CHECK_MSG(rsp_request_is_replayable(r->payload, len) == r->replayable, "%s",
		          r->payload);
		CHECK_MSG(rsp_request_resumes(r->payload, len) == r->resumes, "%s", r->payload);
	}
	/* OpenOCD 0.12 answered qCRC:0,10 over 16 bytes of 0xff with Ca79c3203. */
	unsigned char ff[16];
	memset(ff, 0xff, sizeof(ff));
	CHECK(rsp_crc32_update(RSP_CRC32_SEED, ff, sizeof(ff)) == 0xa79c3203U);
	/* Empty input leaves the seed; chaining equals one pass. */
	CHECK(rsp_crc32_update(RSP_CRC32_SEED, ff, 0) == RSP_CRC32_SEED);
	const char *text = "123456789";
	uint32_t one = rsp_crc32_update(RSP_CRC32_SEED, text, 9);
	uint32_t two = rsp_crc32_update(rsp_crc32_update(RSP_CRC32_SEED, text, 4), text + 4, 5);
	CHECK(one == two);
	/* CRC-32/MPEG-2 check value (poly 0x04C11DB7, init all ones, no reflection). */
	CHECK(one == 0x0376E6E7U);
	return check_finish();
}
