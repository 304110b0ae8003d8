/* crc32_256: CRC-32/IEEE of the first 256 bytes of crc32_input. The CRC
 * routine is a separate, never-inlined function, so the count is one call of
 * crc32_ieee_update plus its per-byte loop 256 times. */
#include "benches.h"
#include "crc32.h"
#include "crc32_input.h"

#define CRC32_256_BYTES 256U

_Static_assert(CRC32_256_BYTES <= CRC32_INPUT_BYTES, "message longer than the input buffer");

void bench_crc32_256(br_run_t *run)
{
	BR_BENCH_LOOP(run) {
		BR_SINK(crc32_ieee_update(CRC32_IEEE_EMPTY, crc32_input, CRC32_256_BYTES));
	}
}
