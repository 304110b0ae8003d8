/* crc32_64: CRC-32/IEEE of the first 64 bytes of crc32_input. The CRC
 * routine is a separate, never-inlined function, so the count is one call of
 * crc32_ieee_update plus its per-byte loop 64 times. */
#include "benches.h"
#include "crc32.h"
#include "crc32_input.h"

#define CRC32_64_BYTES 64U

_Static_assert(CRC32_64_BYTES <= CRC32_INPUT_BYTES, "message longer than the input buffer");

void bench_crc32_64(br_run_t *run)
{
	BR_BENCH_LOOP(run) {
		BR_SINK(crc32_ieee_update(CRC32_IEEE_EMPTY, crc32_input, CRC32_64_BYTES));
	}
}
