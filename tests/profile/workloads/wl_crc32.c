/*
 * crc32 (after Embench IoT's crc32, written here): the CRC-32 (reflected,
 * polynomial 0xEDB88320) of 1024 bytes drawn from the generator, eight
 * times a pass. The table is made at start-up; the update is inlined, so
 * the generator (wl_rand) holds most of the instructions, as Embench's
 * rand_beebs does.
 */
#include <stdint.h>

#include "workload.h"

#define CRC_POLY 0xEDB88320U
#define CRC_BYTES 1024U
#define CRC_REPEATS 8U

static uint32_t crc_table[256];

void wl_init(void)
{
	for (uint32_t n = 0U; n < 256U; n++) {
		uint32_t c = n;
		for (int k = 0; k < 8; k++)
			c = (c & 1U) != 0U ? CRC_POLY ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

WL_KEEP static uint32_t crc32_pseudo(void)
{
	uint32_t crc = 0xffffffffU;
	for (uint32_t i = 0U; i < CRC_BYTES; i++)
		crc = crc_table[(crc ^ wl_rand()) & 0xffU] ^ (crc >> 8);
	return ~crc;
}

void wl_benchmark(void)
{
	uint32_t r = 0U;
	for (uint32_t i = 0U; i < CRC_REPEATS; i++) {
		wl_srand(i);
		r ^= crc32_pseudo();
	}
	wl_sink = r;
}
