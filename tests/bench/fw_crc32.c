/*
 * The work of the Embench-style region (fw_crc32_start.S): a table-driven
 * CRC-32 (reflected, polynomial 0xEDB88320, as zlib's) of CRC_BYTES bytes
 * of pseudo-random data, the kind of loop a firmware runs on a packet.
 * Written here; its count is what QEMU's execution trace says, never this
 * comment.
 */
#include <stdint.h>

#define CRC_BYTES 512U
#define CRC_POLY 0xEDB88320U

static uint32_t crc_table[256];
static uint8_t crc_data[CRC_BYTES];
volatile uint32_t crc_result;

void crc_init(void);
void crc_pass(void);

/* Fills the table (bit by bit) and the data (a linear congruential
 * sequence): run once, before the region. */
void crc_init(void)
{
	for (uint32_t i = 0; i < 256U; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1U) ? (c >> 1) ^ CRC_POLY : c >> 1;
		crc_table[i] = c;
	}
	uint32_t x = 12345U;
	for (uint32_t i = 0; i < CRC_BYTES; i++) {
		x = x * 1103515245U + 12345U;
		crc_data[i] = (uint8_t)(x >> 16);
	}
}

static uint32_t crc32(const uint8_t *p, uint32_t n)
{
	uint32_t c = 0xFFFFFFFFU;
	while (n--)
		c = crc_table[(c ^ *p++) & 0xFFU] ^ (c >> 8);
	return ~c;
}

/* One pass of the region: the same data, the same count every time. */
void crc_pass(void)
{
	crc_result = crc32(crc_data, CRC_BYTES);
}
