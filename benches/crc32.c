/* CRC-32/IEEE, four bits per table look-up (see crc32.h). */
#include "crc32.h"
#include "keep_whole.h"

#define CRC32_NIBBLE_BITS 4U
#define CRC32_NIBBLE_MASK 0xFU
#define CRC32_ALL_ONES 0xFFFFFFFFU

/*
 * crc32_nibble_table[n] is the reflected CRC register after shifting the
 * nibble n through it four times with the polynomial 0xEDB88320:
 *	c = n; repeat 4: c = (c >> 1) ^ (0xEDB88320 & -(c & 1))
 */
static const uint32_t crc32_nibble_table[1U << CRC32_NIBBLE_BITS] = {
    0x00000000U, 0x1DB71064U, 0x3B6E20C8U, 0x26D930ACU, 0x76DC4190U, 0x6B6B51F4U,
    0x4DB26158U, 0x5005713CU, 0xEDB88320U, 0xF00F9344U, 0xD6D6A3E8U, 0xCB61B38CU,
    0x9B64C2B0U, 0x86D3D2D4U, 0xA00AE278U, 0xBDBDF21CU,
};

/* Shift the low nibble of crc out through the table. Always inlined, also at
 * -O0, so that one byte's cost is the loop's instructions alone. */
static inline __attribute__((always_inline)) uint32_t crc32_nibble_step(uint32_t crc)
{
	return (crc >> CRC32_NIBBLE_BITS) ^ crc32_nibble_table[crc & CRC32_NIBBLE_MASK];
}

BENCH_KEEP_WHOLE uint32_t crc32_ieee_update(uint32_t crc, const uint8_t *data, uint32_t len)
{
	uint32_t c = crc ^ CRC32_ALL_ONES;
	uint32_t i;

	for (i = 0U; i < len; i++) {
		c ^= data[i];
		c = crc32_nibble_step(c);
		c = crc32_nibble_step(c);
	}
	return c ^ CRC32_ALL_ONES;
}
